import { canonicalCountry, countryFromName, isCountryCode } from './countries.js';
import type { Span, Token } from './tokens.js';
import { isUsStateCode } from './us-states.js';

/** Words after which a country name belongs to a street name (`Avenue de France`, `Bank of England`). */
const NAME_JOINERS = new Set(['de', 'du', 'des', 'la', 'le', 'of', 'van', 'der', 'den', 'von', 'di', 'del', 'da', 'the']);

/** Danish postal districts written folded that are also country codes (`Odense NO` for `Odense NØ`, `København SV`). */
const DANISH_DISTRICT_CODES = new Set(['no', 'sv', 'so']);

export interface FoundCountry extends Span {
  country: string;
}

/**
 * A country the text names: a whole section that is a country name or ISO code (`…, Nederland`,
 * `DK, …`), or the last words of the text (`… Amsterdam NL`, `… 1620 København V Danmark`).
 * A lower-case code counts only as its own section or as the very last word. `usContext` keeps
 * USPS state codes (`Dover, DE`, `Boston MA`) as states; `hinted` DK keeps a district after its
 * town (`5000 Odense NO`) a district.
 */
export function findCountry(tokens: readonly Token[], usContext: boolean, hinted?: string): FoundCountry | undefined {
  const n = tokens.length;
  if (n === 0) return undefined;
  const sections: Span[] = [];
  tokens.forEach((t, i) => {
    if (t.opens) sections.push({ from: i, to: i });
    else (sections[sections.length - 1] as Span).to = i;
  });
  // A whole section: the last first, then the first, then any other.
  const order = [sections.length - 1, 0, ...sections.map((_, i) => i).slice(1, -1)];
  if (sections.length > 1) {
    for (const s of new Set(order)) {
      const section = sections[s] as Span;
      if (section.to - section.from > 3) continue;
      const country = named(tokens, section, usContext, true);
      if (country) return { ...section, country };
    }
  }
  // The last words of the text, without a comma.
  const last = sections[sections.length - 1] as Span;
  for (let k = Math.min(4, last.to - last.from); k >= 1; k--) {
    const span = { from: n - k, to: n - 1 };
    if (NAME_JOINERS.has(tokens[span.from - 1]?.norm ?? '')) continue;
    if (hinted === 'DK' && k === 1 && DANISH_DISTRICT_CODES.has(tokens[span.from]?.norm ?? '') && span.from > last.from) continue;
    const country = named(tokens, span, usContext, false);
    if (country) return { ...span, country };
  }
  return undefined;
}

function named(tokens: readonly Token[], span: Span, usContext: boolean, wholeSection: boolean): string | undefined {
  const words = tokens.slice(span.from, span.to + 1);
  if (words.length === 1) {
    const word = (words[0] as Token).text.replace(/[.()]/g, '');
    if (/^[A-Za-z]{2}$/.test(word)) {
      const upper = word === word.toUpperCase();
      const last = span.to === tokens.length - 1;
      if (!isCountryCode(word) || (usContext && isUsStateCode(word))) return undefined;
      // The letters of a Dutch postcode (`1012 AD`) are not Andorra.
      if (!wholeSection && /^[1-9]\d{3}$/.test(tokens[span.from - 1]?.text ?? '')) return undefined;
      return upper || wholeSection || last ? canonicalCountry(word) : undefined;
    }
  }
  return countryFromName(words.map((t) => t.text).join(' '));
}
