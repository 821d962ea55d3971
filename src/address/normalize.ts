import { countryLanguages } from './languages.js';
import { expandNameWords } from './street.js';

/**
 * The normalization API in one place. Each form is what comparison and search use:
 * equal after normalization means the difference was formatting only.
 */
export { normalizeText } from './text.js';
export { normalizeStreet } from './street.js';
export { normalizePostcode, isValidPostcode } from './postcode.js';
export { normalizeHouseNumber } from './house-number.js';

/**
 * normalizeText plus name-word abbreviations: `St. Albans` = `Saint Albans`, `St-Denis` = `Saint-Denis`,
 * `St. Gallen` = `Sankt Gallen`, `Mt Vernon` = `Mount Vernon`.
 */
export function normalizeCity(s: string, country?: string): string {
  return expandNameWords(s, countryLanguages(country));
}
