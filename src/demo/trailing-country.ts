import { canonicalCountry, isCountryCode } from '../address/countries.js';

/** SPEC: the demo searches the Netherlands unless the query names another country. */
export const DEMO_DEFAULT_COUNTRY = 'NL';

export interface DemoQuery {
  /** The text to look up, without a trailing country code. */
  query: string;
  country: string;
}

// Comma-separated only: a bare `3011 AD` is a Dutch postcode, not Andorra.
const TRAILING_CODE = /^(.*\S)\s*,\s*([A-Za-z]{2})\s*$/s;

/**
 * `Unter den Linden 77, Berlin, DE` → `{query: 'Unter den Linden 77, Berlin', country: 'DE'}`.
 * Only a real ISO 3166-1 alpha-2 code counts; anything else stays part of the query and the
 * country is the default.
 */
export function splitTrailingCountry(text: string): DemoQuery {
  const trimmed = text.trim();
  const match = TRAILING_CODE.exec(trimmed);
  if (match && isCountryCode(match[2]!)) {
    return { query: match[1]!.trim(), country: canonicalCountry(match[2]!) };
  }
  return { query: trimmed, country: DEMO_DEFAULT_COUNTRY };
}
