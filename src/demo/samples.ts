import type { DemoValidateResponse } from '../contract/validate.js';
import { splitTrailingCountry } from './trailing-country.js';

export interface DemoSample {
  /** What the homepage button sends. */
  query: string;
  /** Button text: what the sample shows off. */
  label: string;
  response: DemoValidateResponse;
}

/*
 * The homepage's three one-click samples. Their answers are written down here, not fetched, so the
 * homepage works (and shows each verdict) without spending provider calls or visitor allowance.
 * Real Amsterdam addresses; each response is exactly what the engine decides from what PDOK,
 * Photon and Nominatim answer for the query (test/demo/sample-answers.ts holds those answers and
 * test/demo/samples.test.ts runs them through the engine), so the demo never shows a verdict,
 * confidence or consensus the service would not give. They are recorded, not looked up on this
 * deployment: the route marks them (`X-Addressd-Demo-Answer: recorded-example`) and the homepage says so.
 * Only where one of those providers is active for NL (instance-samples.ts): elsewhere the samples are
 * drawn from the local index instead.
 */
const VALID: DemoValidateResponse = {
  verdict: 'valid',
  confidence: 100,
  address: {
    street: 'Damrak', houseNumber: '1', postcode: '1012 LG', city: 'Amsterdam', state: 'Noord-Holland', country: 'NL',
    lat: 52.3761606, lng: 4.8958547,
    lines: ['Damrak 1', '1012 LG Amsterdam'], formatted: 'Damrak 1, 1012 LG Amsterdam', inferred: [],
  },
  components: { street: 'match', houseNumber: 'match', postcode: 'match', city: 'match', country: 'match' },
  provider: 'pdok',
  reasons: [],
  consensus: {
    status: 'agreement', score: 100, baseConfidence: 100, confidenceDelta: 10,
    supportingProviders: ['pdok', 'photon', 'nominatim'], conflictingProviders: [], disagreements: [],
  },
  granularity: { input: 'house', validated: 'house', geocode: 'house' },
  action: 'accept',
  unresolved: [],
  alternatives: [],
};

/** A typo in the city and no postcode: found, fixed and completed. */
const CORRECTABLE: DemoValidateResponse = {
  verdict: 'correctable',
  confidence: 97,
  address: {
    street: 'Prinsengracht', houseNumber: '263', postcode: '1016 GV', city: 'Amsterdam', state: 'Noord-Holland', country: 'NL',
    lat: 52.3752514, lng: 4.8839874,
    lines: ['Prinsengracht 263', '1016 GV Amsterdam'], formatted: 'Prinsengracht 263, 1016 GV Amsterdam', inferred: [],
  },
  components: { street: 'match', houseNumber: 'match', postcode: 'missing', city: 'corrected', country: 'match' },
  provider: 'pdok',
  reasons: ['components_incomplete', 'components_corrected'],
  consensus: {
    status: 'agreement', score: 100, baseConfidence: 88, confidenceDelta: 9,
    supportingProviders: ['pdok', 'photon', 'nominatim'], conflictingProviders: [], disagreements: [],
  },
  granularity: { input: 'house', validated: 'house', geocode: 'house' },
  action: 'confirm',
  unresolved: [],
  alternatives: [],
};

/** A real street, a house number it does not have: only the street is found, so it is invalid. */
const INVALID: DemoValidateResponse = {
  verdict: 'invalid',
  confidence: 79,
  address: {
    street: 'Kalverstraat', city: 'Amsterdam', state: 'Noord-Holland', country: 'NL', lat: 52.3699527, lng: 4.8915472,
    lines: ['Kalverstraat', 'Amsterdam'], formatted: 'Kalverstraat, Amsterdam', inferred: [],
  },
  components: { street: 'match', houseNumber: 'not-checked', city: 'match', country: 'match' },
  provider: 'pdok',
  reasons: ['low_confidence', 'no_house_number_match'],
  consensus: {
    status: 'partial-agreement', score: 67, baseConfidence: 80, confidenceDelta: -1,
    supportingProviders: ['pdok', 'nominatim'], conflictingProviders: ['photon'],
    disagreements: [
      {
        provider: 'photon',
        confidence: 64,
        differences: [{ field: 'location', selected: '52.3699527,4.8915472', alternative: '52.3714804,4.8923101', distanceMeters: 177.6 }],
      },
    ],
  },
  granularity: { input: 'house', validated: 'street', geocode: 'street' },
  action: 'fix',
  unresolved: [],
  alternatives: [],
};

export const DEMO_SAMPLES: readonly DemoSample[] = [
  { query: 'Damrak 1, 1012 LG Amsterdam', label: 'A valid address', response: VALID },
  { query: 'Prinsengracht 263, Amsterdm', label: 'A typo, no postcode', response: CORRECTABLE },
  { query: 'Kalverstraat 999, Amsterdam', label: 'A house number that does not exist', response: INVALID },
];

const key = (text: string) => text.normalize('NFC').toLowerCase().replace(/\s+/g, ' ').trim();
const BY_QUERY = new Map(DEMO_SAMPLES.map((s) => [key(s.query), s]));

/** The sample a query asks for, forgiving case, spacing and an explicit `, NL`. */
export function findSample(text: string): DemoSample | undefined {
  const { query, country } = splitTrailingCountry(text);
  return country === undefined || country === 'NL' ? BY_QUERY.get(key(query)) : undefined;
}
