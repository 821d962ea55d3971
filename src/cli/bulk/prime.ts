import type { ValidateInput } from '../../engine/validate-input.js';
import type { LocalIndex } from '../../local-index/index.js';
import { localGeocodeInput } from '../../providers/local/adapter.js';

/**
 * A chunk's rows handed to the local index as its provider will ask for them (the engine's
 * reading, the adapter's query), so it looks them up together (`LocalIndex.prime`).
 */
export function localPrimer(index: LocalIndex): (inputs: ValidateInput[]) => Promise<void> {
  return (inputs) => index.prime(inputs.map((r) => localGeocodeInput(r.query)));
}
