import type { AddressComponents, ComponentVerdicts, VerdictField } from '../contract/address.js';
import { VERDICT_FIELDS } from '../contract/address.js';
import { cityStateNames, compareCityWithPlaces, compareComponent, requiredComponents } from '../address/compare.js';
import { ONE_POSTCODE_PER_TOWN } from '../address/postcode.js';

/**
 * Per-field verdicts of a result against the input (SPEC "ComponentVerdicts"; keys only for checked fields):
 * both have it → compareComponent; input has it, result not → `not-checked`;
 * input lacks a field the country requires and the result supplies it → `missing`; otherwise no key.
 * The city is compared with every place the result names (`placeNames`: village, town, municipality,
 * district, suburb, quarter, county...): a person may write any of them. A result with no `city`
 * names no place at the town level (a city cut in pieces, an extract without the city's boundary,
 * Monaco's quarters): a town it does not name is then `not-checked`, not a mismatch, since
 * nothing in the result contradicts it. A city-state's own name (`Monaco`) is its town.
 * Where the result's data knows every value of a field for it (`known`: the local index holds the
 * street with all its house numbers), a typed value the result does not carry is absent from
 * the data: `mismatch`, not `not-checked`; and a street whose numbers it holds, with no number in
 * the input, lacks its house number: `missing` (issue 34: an incomplete address is never accepted).
 * Fields the result's data derived (`derived`: town from the area, postcode from the neighbours)
 * are never `missing`: the answer completes them and names them in `address.inferred`. They come
 * back as `completed`, which scoring credits as it credits `missing`, so a house whose postcode was
 * derived and one whose postcode is stated stay equally good candidates (alternatives compare them).
 */
export function componentVerdicts(
  input: AddressComponents,
  result: AddressComponents,
  country: string | undefined,
  placeNames: readonly string[] = [],
  known: KnownFields = {},
  derived: readonly string[] = [],
): ComponentVerdicts {
  return readVerdicts(input, result, country, placeNames, known, derived).verdicts;
}

/** Fields whose every value the result's data holds (ProviderCandidate `houseNumbersKnown`, `postcodesKnown`). */
export type KnownFields = Partial<Record<'houseNumber' | 'postcode', boolean>>;

/** The verdicts, and the place the input's city names when that is another of the result's places than its `city`. */
export function readVerdicts(
  input: AddressComponents,
  result: AddressComponents,
  country: string | undefined,
  placeNames: readonly string[] = [],
  known: KnownFields = {},
  derived: readonly string[] = [],
): { verdicts: ComponentVerdicts; namedPlace?: string; completed: VerdictField[] } {
  const required = requiredComponents(country);
  const verdicts: ComponentVerdicts = {};
  const completed: VerdictField[] = [];
  let namedPlace: string | undefined;
  // A city-state's own name is its town: an input that names the country names the town too.
  const town = cityStateNames(country);
  for (const field of VERDICT_FIELDS) {
    const found = present(result[field]);
    const given = present(input[field]) ?? (field === 'city' && input.country && town.length > 0 ? found : undefined);
    if (given && field === 'city' && (found || placeNames.length > 0 || town.length > 0)) {
      const places = [...new Set([...(found ? [found] : []), ...placeNames, ...town])];
      const { verdict, place } = compareCityWithPlaces(given, places, country, found);
      verdicts.city = verdict === 'mismatch' && !found ? 'not-checked' : verdict;
      if (verdict !== 'mismatch' && place !== found) namedPlace = place;
    } else if (given && found) verdicts[field] = compareComponent(field, given, found, country);
    else if (given) verdicts[field] = (field === 'houseNumber' || field === 'postcode') && known[field] ? 'mismatch' : 'not-checked';
    // A value the data derived (ProviderCandidate `inferred`) completes the answer, named in
    // `address.inferred`; an input without it lacked nothing the data states (issue 34).
    else if (found && required.includes(field)) {
      if (derived.includes(field)) completed.push(field);
      else verdicts[field] = 'missing';
    }
    // A street whose houses the data numbers, with no number read: incomplete, never a whole address (issue 34).
    else if (field === 'houseNumber' && known.houseNumber) verdicts.houseNumber = 'missing';
  }
  // Where each town has its own postcode (Liechtenstein), a typed town the data confirms stands
  // for the postcode: nothing was left out, the answer only writes it.
  if (verdicts.postcode === 'missing' && verdicts.city === 'match' && country && ONE_POSTCODE_PER_TOWN.has(country.toUpperCase())) {
    delete verdicts.postcode;
    completed.push('postcode');
  }
  return { verdicts, completed, ...(namedPlace ? { namedPlace } : {}) };
}

function present(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}
