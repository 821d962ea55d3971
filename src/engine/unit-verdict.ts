import type { ComponentVerdict } from '../contract/enums.js';
import { unitKey } from '../address/units.js';
import type { ScoredCandidate } from './types.js';

/**
 * `components.unit` (issue 27, DESIGN §3): checked only where the chosen result lists its house's
 * units (`ProviderCandidate.units`) and is that house (its house number a `match`: another house's
 * units say nothing of this one's). A typed unit that is one of them (compared by `unitKey`:
 * `Apt 3B` = `3B`) is a `match`, any other a `mismatch`; otherwise the unit is carried,
 * `not-checked`. No unit typed: no key. A unit never changes the house's confidence.
 */
export function unitVerdict(unit: string | undefined, selected: ScoredCandidate): ComponentVerdict | undefined {
  if (!unit) return undefined;
  const units = selected.units;
  if (!units || units.length === 0 || selected.componentVerdicts.houseNumber !== 'match') return 'not-checked';
  const key = unitKey(unit);
  return units.some((u) => unitKey(u) === key) ? 'match' : 'mismatch';
}

/** A house the data lists two or more units for: the caller should ask which (action `add_unit`). */
export function listsUnits(house: Pick<ScoredCandidate, 'units'> | null): boolean {
  return (house?.units?.length ?? 0) >= 2;
}
