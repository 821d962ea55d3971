import { canonicalCountry, countryFromName, isCountryCode } from './countries.js';
import { isUsStateCode } from './us-states.js';

/** Words after which a country name belongs to a street name (`Avenue de France`, `Bank of England`). */
const NAME_JOINERS = new Set(['de', 'du', 'des', 'la', 'le', 'of', 'van', 'der', 'den', 'von', 'di', 'del', 'da', 'the']);

/**
 * A country the text itself names at its end: a trailing ISO code (`, DE`, `Amsterdam NL`) or a country
 * name (`Nederland`, `Germany`). `usContext` keeps USPS state codes (`Dover, DE`, `Boston MA`) as states.
 */
export function takeTrailingCountry(text: string, usContext: boolean): { country: string; rest: string } | undefined {
  const comma = text.lastIndexOf(',');
  const lastSection = text.slice(comma + 1).trim();
  const before = comma >= 0 ? text.slice(0, comma) : '';
  if (comma >= 0 && lastSection) {
    const fromSection = sectionCountry(lastSection, usContext);
    if (fromSection) return { country: fromSection, rest: before.trim() };
  }
  const words = lastSection.split(' ').filter(Boolean);
  const head = text.slice(0, comma + 1);
  // Space-separated at the end: an upper-case ISO code, or a name of up to four words.
  for (let n = Math.min(4, words.length - 1); n >= 1; n--) {
    const tail = words.slice(-n).join(' ');
    const previous = (words[words.length - n - 1] ?? '').toLowerCase();
    const code = n === 1 && /^[A-Z]{2}$/.test(tail) && isCountryCode(tail) && !(usContext && isUsStateCode(tail));
    const named = !NAME_JOINERS.has(previous) ? countryFromName(tail) : undefined;
    const country = code ? canonicalCountry(tail) : named;
    if (country) return { country, rest: `${head} ${words.slice(0, -n).join(' ')}`.trim() };
  }
  return undefined;
}

function sectionCountry(section: string, usContext: boolean): string | undefined {
  if (/^[A-Za-z]{2}$/.test(section)) {
    if (!isCountryCode(section) || (usContext && isUsStateCode(section))) return undefined;
    return canonicalCountry(section);
  }
  return countryFromName(section);
}
