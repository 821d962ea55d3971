import { HOUSE_NUMBER_SUFFIX, HOUSE_NUMBER_TOKEN } from './house-number.js';

/** Countries that write the number before the street (`10 Downing Street`, `12 bis rue de Rivoli`). */
export const NUMBER_FIRST_COUNTRIES = new Set(['US', 'GB', 'IE', 'CA', 'AU', 'NZ', 'FR', 'MC', 'LU', 'ZA', 'IN', 'SG']);

export interface StreetSection {
  street?: string;
  houseNumber: string;
  /** Words after the number in the same section (`Damrak 1 Amsterdam` → `Amsterdam`). */
  tail: string;
  numberFirst: boolean;
}

/** Dutch/German-style ordinals that open street names (`3e Binnenvestgracht`, `1ste`), not house numbers. */
const ORDINAL = /^\d+(?:e|ste|de|th|st|nd|rd|er|re|eme|ème)$/i;
/** French suffixes and joined additions may follow a leading number (`12 bis`); lone letters there are directions. */
const NUMBER_FIRST_SUFFIX = /^(?:bis|ter|quater|[-/][\p{L}\p{N}]{1,4})$/iu;
/** A bare 1-3 digit toevoeging (`Keizersgracht 123 2`) only in the Dutch convention. */
const DUTCH_ADDITION = /^\d{1,3}$/;

/** Reads house number and street from one comma-separated section, or undefined when it has no house number. */
export function readStreetSection(section: string, country: string | undefined): StreetSection | undefined {
  const words = section.split(' ').filter(Boolean);
  const first = words[0];
  if (first === undefined) return undefined;
  const firstIsNumber = HOUSE_NUMBER_TOKEN.test(first);
  const after = words.findIndex((w, i) => i > 0 && HOUSE_NUMBER_TOKEN.test(w) && words.slice(0, i).some((p) => /\p{L}/u.test(p)));
  const preferAfter = after > 0 && (!firstIsNumber || ORDINAL.test(first) || (country !== undefined && !NUMBER_FIRST_COUNTRIES.has(country)));
  if (firstIsNumber && !preferAfter) {
    let end = 1;
    while (end < words.length && NUMBER_FIRST_SUFFIX.test(words[end] ?? '')) end++;
    const rest = words.slice(end).join(' ');
    return { houseNumber: words.slice(0, end).join(' '), ...(rest ? { street: rest } : {}), tail: '', numberFirst: true };
  }
  if (after <= 0) return undefined;
  const dutch = country === undefined || country === 'NL' || country === 'BE';
  let end = after + 1;
  while (end < words.length) {
    const w = words[end] ?? '';
    const isSuffix = HOUSE_NUMBER_SUFFIX.test(w) || (dutch && DUTCH_ADDITION.test(w) && end === after + 1);
    if (!isSuffix) break;
    end++;
  }
  return {
    street: words.slice(0, after).join(' '),
    houseNumber: words.slice(after, end).join(' '),
    tail: words.slice(end).join(' '),
    numberFirst: false,
  };
}
