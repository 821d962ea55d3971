import type { AddressComponents, ComponentVerdicts, VerdictField } from '../contract/address.js';
import type { ComponentVerdict, Granularity } from '../contract/enums.js';
import type { AnswerGranularity } from '../contract/validate.js';
import type { Precision } from '../providers/provider.js';
import type { ScoredCandidate } from './types.js';

/**
 * `granularity` (issue 27, DESIGN §3), three readings of how fine the answer is:
 * - input: the finest level the input named (a unit, a house number, a street, a postcode, a town,
 *   a state, a country), whatever the data says;
 * - validated: the finest level the data confirmed: a component `match` or `corrected` (never
 *   `missing`, which the data supplied, nor `not-checked`); `unit` only for a unit the data lists;
 * - geocode: the precision of the coordinates; `interpolated` for coordinates placed between
 *   known house numbers (`ProviderCandidate.interpolated`: the local index's OSM interpolation ways).
 */
const LEVELS: readonly { level: Granularity; field: VerdictField | 'unit' | 'state' }[] = [
  { level: 'unit', field: 'unit' },
  { level: 'house', field: 'houseNumber' },
  { level: 'street', field: 'street' },
  { level: 'postcode', field: 'postcode' },
  { level: 'place', field: 'city' },
  { level: 'region', field: 'state' },
  { level: 'country', field: 'country' },
];

const CONFIRMED: ReadonlySet<ComponentVerdict> = new Set(['match', 'corrected']);

/** A Record, so a new precision cannot be added without saying which level it is. */
export const GEOCODE_LEVEL: Readonly<Record<Precision, Granularity>> = {
  address: 'house',
  street: 'street',
  postcode: 'postcode',
  locality: 'place',
  region: 'region',
  country: 'country',
};

export function answerGranularity(input: AddressComponents, selected: ScoredCandidate | null, verdicts: ComponentVerdicts): AnswerGranularity {
  const named = LEVELS.find(({ field }) => Boolean(input[field]?.trim()));
  const confirmed = selected
    ? LEVELS.find(({ field }) => {
        if (field === 'state') return false; // no verdict of its own: nothing to confirm it
        const verdict = verdicts[field];
        return verdict !== undefined && CONFIRMED.has(verdict);
      })
    : undefined;
  return {
    input: named?.level ?? 'none',
    validated: confirmed?.level ?? 'none',
    geocode: !selected ? 'none' : selected.interpolated ? 'interpolated' : GEOCODE_LEVEL[selected.precision],
  };
}
