import { canonicalCountry, isCountryCode } from '../address/countries.js';

export interface DemoQuery {
  /** The text to look up, without a trailing country code. */
  query: string;
  /**
   * The trailing code, or undefined: then the demo asks exactly what `/v1/validate` without a
   * country asks (issue 20: a Liechtenstein-only deployment found nothing while the demo assumed NL).
   */
  country?: string;
}

// Comma-separated only: a bare `3011 AD` is a Dutch postcode, not Andorra.
const TRAILING_CODE = /^(.*\S)\s*,\s*([A-Za-z]{2})\s*$/s;

/**
 * `Unter den Linden 77, Berlin, DE` → `{query: 'Unter den Linden 77, Berlin', country: 'DE'}`.
 * Only a real ISO 3166-1 alpha-2 code counts; anything else stays part of the query, and no
 * country is given.
 */
export function splitTrailingCountry(text: string): DemoQuery {
  const trimmed = text.trim();
  const match = TRAILING_CODE.exec(trimmed);
  if (match && isCountryCode(match[2]!)) {
    return { query: match[1]!.trim(), country: canonicalCountry(match[2]!) };
  }
  return { query: trimmed };
}
