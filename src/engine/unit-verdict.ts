import type { ComponentVerdict } from '../contract/enums.js';
import { unitKey } from '../address/units.js';
import type { ScoredCandidate } from './types.js';

/**
 * `components.unit` (issues 27 and 34, DESIGN §3): checked only where the chosen result lists its
 * house's units (`ProviderCandidate.units`) and is that house (its house number a `match`: another
 * house's units say nothing of this one's). A typed unit that is one of them (compared by `unitKey`:
 * `Apt 3B` = `3B`, `1º` = `1`) is a `match`; any other a `mismatch` only where the data states the
 * list as the house's (`addr:flats`, OpenAddresses `UNIT` rows, a plain CSV's units): against a list
 * gathered from single units of its shops and offices (`unitsPartial`) it is `not-checked`, as where
 * the data lists none. No unit typed: no key. A unit never changes the house's confidence.
 */
export function unitVerdict(unit: string | undefined, selected: ScoredCandidate): ComponentVerdict | undefined {
  if (!unit) return undefined;
  const units = selected.units;
  if (!units || units.length === 0 || selected.componentVerdicts.houseNumber !== 'match') return 'not-checked';
  const key = unitKey(unit);
  if (units.some((u) => unitKey(u) === key)) return 'match';
  return selected.unitsPartial ? 'not-checked' : 'mismatch';
}

/**
 * A house the data states two or more units for: the caller should ask which (action `add_unit`).
 * Not a partial list: two shops of a building with their own units do not make its flats.
 */
export function listsUnits(house: Pick<ScoredCandidate, 'units' | 'unitsPartial'> | null): boolean {
  return !house?.unitsPartial && (house?.units?.length ?? 0) >= 2;
}
