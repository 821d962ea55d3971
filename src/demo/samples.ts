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
 * Real Amsterdam addresses with their coordinates (WGS 84, five decimals, about a metre);
 * confidences and consensus as the engine scores such input.
 */
const VALID: DemoValidateResponse = {
  verdict: 'valid',
  confidence: 98,
  address: {
    street: 'Damrak', houseNumber: '1', postcode: '1012 LG', city: 'Amsterdam', state: 'Noord-Holland', country: 'NL',
    lat: 52.37616, lng: 4.89585,
  },
  components: { street: 'match', houseNumber: 'match', postcode: 'match', city: 'match', country: 'match' },
  provider: 'pdok',
  reasons: [],
  consensus: {
    status: 'agreement', score: 100, baseConfidence: 93, confidenceDelta: 5,
    supportingProviders: ['pdok', 'photon', 'nominatim'], conflictingProviders: [], disagreements: [],
  },
};

/** A typo in the city and no postcode: found, fixed and completed. */
const CORRECTABLE: DemoValidateResponse = {
  verdict: 'correctable',
  confidence: 86,
  address: {
    street: 'Prinsengracht', houseNumber: '263', postcode: '1016 GV', city: 'Amsterdam', state: 'Noord-Holland', country: 'NL',
    lat: 52.37518, lng: 4.88397,
  },
  components: { street: 'match', houseNumber: 'match', postcode: 'missing', city: 'corrected', country: 'match' },
  provider: 'pdok',
  reasons: ['components_incomplete', 'components_corrected'],
  consensus: {
    status: 'agreement', score: 100, baseConfidence: 80, confidenceDelta: 6,
    supportingProviders: ['pdok', 'photon', 'nominatim'], conflictingProviders: [], disagreements: [],
  },
};

/** A real street, a house number it does not have: only the street is found. */
const INVALID: DemoValidateResponse = {
  verdict: 'invalid',
  confidence: 42,
  address: { street: 'Kalverstraat', city: 'Amsterdam', state: 'Noord-Holland', country: 'NL', lat: 52.36995, lng: 4.89155 },
  components: { street: 'match', houseNumber: 'not-checked', city: 'match', country: 'match' },
  provider: 'pdok',
  reasons: ['low_confidence', 'no_house_number_match'],
  consensus: {
    status: 'partial-agreement', score: 67, baseConfidence: 40, confidenceDelta: 2,
    supportingProviders: ['pdok', 'photon'], conflictingProviders: ['nominatim'],
    disagreements: [
      {
        provider: 'nominatim',
        confidence: 38,
        differences: [{ field: 'location', selected: '52.36995, 4.89155', alternative: '52.37148, 4.89231', distanceMeters: 178 }],
      },
    ],
  },
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
  return country === 'NL' ? BY_QUERY.get(key(query)) : undefined;
}
