import { describe, expect, it } from 'vitest';
import type { ComponentVerdicts } from '../../src/contract/address.js';
import type { Verdict } from '../../src/contract/enums.js';
import { buildConsensus } from '../../src/engine/consensus.js';
import { scoreCandidate } from '../../src/engine/score.js';
import { DEFAULT_THRESHOLDS } from '../../src/engine/types.js';
import { readValidateInput } from '../../src/engine/validate-input.js';
import { decideVerdict, recognisable } from '../../src/engine/verdict.js';
import { mapNominatimPlace } from '../../src/providers/nominatim/map.js';
import type { NominatimPlace } from '../../src/providers/nominatim/wire.js';

/**
 * Issue 21: over a Nominatim answer, the typed town is compared with every place level the answer
 * carries (city, town, village, municipality, suburb, quarter, county, and the places only
 * `display_name` keeps); where the answer names no place at the town level (a city cut in
 * pieces, an extract without the city's boundary, Monaco's quarters) a town it does not name is
 * `not-checked`, never a mismatch. A component the answer lacks is never a mismatch. The rules
 * for another street and for two identifying components replaced stay.
 * Answers are shaped like Nominatim 5 `jsonv2` with `addressdetails=1`.
 */
function place(address: Record<string, string>, display: string, lat = 51.5, lon = -0.1): NominatimPlace {
  return { place_id: 1, lat: String(lat), lon: String(lon), display_name: display, category: 'place', type: 'house', place_rank: 30, addresstype: 'place', name: '', address };
}

// A London address in an extract where London is only the region `Greater London`: suburb and quarter, no city.
const fleet = place(
  { house_number: '100', road: 'Fleet Street', quarter: 'Blackfriars', suburb: 'City of London', state_district: 'Greater London', state: 'England', 'ISO3166-2-lvl4': 'GB-ENG', postcode: 'EC4Y 1DE', country: 'United Kingdom', country_code: 'gb' },
  '100, Fleet Street, Blackfriars, City of London, Greater London, England, EC4Y 1DE, United Kingdom',
);
// Downing Street as Nominatim names it: `city` is Westminster, London survives only in display_name.
const downing = place(
  { house_number: '10', road: 'Downing Street', quarter: 'Westminster', city: 'Westminster', state_district: 'Greater London', state: 'England', postcode: 'SW1A 2AA', country: 'United Kingdom', country_code: 'gb' },
  '10, Downing Street, Westminster, London, Greater London, England, SW1A 2AA, United Kingdom',
);
// Monaco: the answer names the quarter, never a town; the country is the town.
const moulins = place(
  { house_number: '12', road: 'Boulevard des Moulins', quarter: 'Monte-Carlo', postcode: '98000', country: 'Monaco', country_code: 'mc' },
  '12, Boulevard des Moulins, Monte-Carlo, 98000, Monaco',
  43.74, 7.42,
);
// Hamburg names its town: a typed town it does not name is a mismatch there.
const jungfernstieg = place(
  { house_number: '10', road: 'Jungfernstieg', suburb: 'Neustadt', borough: 'Hamburg-Mitte', city: 'Hamburg', postcode: '20354', country: 'Deutschland', country_code: 'de' },
  '10, Jungfernstieg, Neustadt, Hamburg-Mitte, Hamburg, 20354, Deutschland',
  53.55, 9.99,
);
// An answer without a postcode.
const noPostcode = place(
  { house_number: '25', road: 'Rua Augusta', suburb: 'Baixa', city: 'Lisboa', country: 'Portugal', country_code: 'pt' },
  '25, Rua Augusta, Baixa, Lisboa, Portugal',
  38.71, -9.14,
);

interface Row {
  name: string;
  country: string;
  query: string;
  answer: NominatimPlace;
  verdict: Verdict;
  components: ComponentVerdicts;
  /** The standardized address's town. */
  city?: string;
}

const rows: Row[] = [
  { name: 'GB town the answer does not carry: not checked', country: 'GB', query: '100 Fleet Street, London EC4Y 1DE', answer: fleet, verdict: 'valid', components: { street: 'match', houseNumber: 'match', postcode: 'match', city: 'not-checked', country: 'match' } },
  { name: 'GB the district typed as the town: match', country: 'GB', query: '100 Fleet Street, City of London EC4Y 1DE', answer: fleet, verdict: 'valid', components: { street: 'match', houseNumber: 'match', postcode: 'match', city: 'match', country: 'match' }, city: 'City of London' },
  { name: 'GB the quarter typed as the town: match', country: 'GB', query: '100 Fleet Street, Blackfriars EC4Y 1DE', answer: fleet, verdict: 'valid', components: { street: 'match', houseNumber: 'match', postcode: 'match', city: 'match', country: 'match' }, city: 'Blackfriars' },
  { name: 'GB partial postcode over a town-less answer', country: 'GB', query: '100 Fleet Street, London EC4', answer: fleet, verdict: 'correctable', components: { street: 'match', houseNumber: 'match', postcode: 'corrected', city: 'not-checked', country: 'match' } },
  { name: 'GB London kept only in display_name: match', country: 'GB', query: '10 Downing Street, London SW1A 2AA', answer: downing, verdict: 'valid', components: { street: 'match', houseNumber: 'match', postcode: 'match', city: 'match', country: 'match' }, city: 'London' },
  { name: 'GB another town where the answer names one: mismatch', country: 'GB', query: '10 Downing Street, Manchester SW1A 2AA', answer: downing, verdict: 'correctable', components: { street: 'match', houseNumber: 'match', postcode: 'match', city: 'mismatch', country: 'match' } },
  // `…, Monaco` at the end names the country, and so the town
  { name: 'MC the city-state as the town', country: 'MC', query: '12 Boulevard des Moulins, 98000 Monaco', answer: moulins, verdict: 'valid', components: { street: 'match', houseNumber: 'match', postcode: 'match', city: 'match', country: 'match' }, city: 'Monaco' },
  { name: 'MC the city-state as the town, given as components', country: 'MC', query: '', answer: moulins, verdict: 'valid', components: { street: 'match', houseNumber: 'match', postcode: 'match', city: 'match', country: 'match' }, city: 'Monaco' },
  { name: 'MC the quarter as the town: match', country: 'MC', query: '12 Boulevard des Moulins, 98000 Monte-Carlo', answer: moulins, verdict: 'valid', components: { street: 'match', houseNumber: 'match', postcode: 'match', city: 'match', country: 'match' }, city: 'Monte-Carlo' },
  { name: 'MC particle dropped: match', country: 'MC', query: '12 Boulevard Moulins, 98000 Monte-Carlo', answer: moulins, verdict: 'valid', components: { street: 'match', houseNumber: 'match', postcode: 'match', city: 'match', country: 'match' }, city: 'Monte-Carlo' },
  { name: 'MC another town: not checked (the answer names none)', country: 'MC', query: '12 Boulevard des Moulins, 98000 Menton', answer: moulins, verdict: 'correctable', components: { street: 'match', houseNumber: 'match', postcode: 'match', city: 'mismatch', country: 'match' } },
  { name: 'DE borough typed as the town: match', country: 'DE', query: 'Jungfernstieg 10, 20354 Hamburg-Mitte', answer: jungfernstieg, verdict: 'valid', components: { street: 'match', houseNumber: 'match', postcode: 'match', city: 'match', country: 'match' }, city: 'Hamburg-Mitte' },
  { name: 'DE another town where the answer names one: mismatch', country: 'DE', query: 'Jungfernstieg 10, 20354 Berlin', answer: jungfernstieg, verdict: 'correctable', components: { street: 'match', houseNumber: 'match', postcode: 'match', city: 'mismatch', country: 'match' } },
  { name: 'PT postcode the answer lacks: not checked', country: 'PT', query: 'Rua Augusta 25, 1100-053 Lisboa', answer: noPostcode, verdict: 'valid', components: { street: 'match', houseNumber: 'match', postcode: 'not-checked', city: 'match', country: 'match' } },
  // the rules that keep other addresses out stay
  { name: 'GB another street over a town-less answer: no result', country: 'GB', query: '100 Chancery Lane, London EC4Y 1DE', answer: fleet, verdict: 'invalid', components: {} },
  { name: 'GB another number and postcode: no result', country: 'GB', query: '12 Fleet Street, London EC2R 8AH', answer: fleet, verdict: 'invalid', components: {} },
];

function run(row: Row) {
  const read = readValidateInput(
    row.query ? { query: row.query, country: row.country } : { components: { street: 'Boulevard des Moulins', houseNumber: '12', postcode: '98000', city: 'Monaco' }, country: row.country },
  );
  const candidate = { ...mapNominatimPlace(row.answer), provider: 'nominatim' as const };
  const scored = scoreCandidate(read.readFor(candidate), candidate, { country: row.country });
  const { selected, confidence } = buildConsensus([scored].filter((c) => recognisable(c.componentVerdicts)));
  return { selected, ...decideVerdict({ selected, confidence, thresholds: DEFAULT_THRESHOLDS }) };
}

describe('place levels over a Nominatim answer (issue 21)', () => {
  it.each(rows)('$name', (row) => {
    const out = run(row);
    expect({ verdict: out.verdict, components: out.selected?.componentVerdicts ?? {} }).toEqual({ verdict: row.verdict, components: row.components });
    if (row.city) expect(out.selected?.components.city).toBe(row.city);
  });
});
