import { GB_SHAPE, isValidPostcode, NL_SHAPE, normalizePostcode, postcodeDigits, PT_SHAPE, shapeCountry } from './postcode.js';
import { isNameWord, type Label, type Span, type Token } from './tokens.js';
import { isUsStateCode } from './us-states.js';

export interface PostcodeCandidate extends Span {
  /** Display-canonical postcode. */
  value: string;
  /** Evidence that this is the postcode (see postcodeCandidates). */
  score: number;
}

export interface PostcodeContext {
  country?: string;
  usContext: boolean;
  /** Postcodes known to be right (a candidate result's): found as written anywhere. */
  known?: readonly string[];
  /** Whether a known place starts at a token index. */
  placeAt?: (index: number) => boolean;
  /** Whether a known place ends at a token index. */
  placeEndsAt?: (index: number) => boolean;
}

/**
 * Every token (or pair: `1012 LG`, `SW1A 2AA`) that may be the postcode, with its evidence; the
 * reader weighs them against the house number (a 4-digit Danish postcode and a house number are
 * both numbers). Evidence: a postcode of the country's format 2 (one of its length where a
 * postcode stands 1, a British outward code alone `EC4` 1; without a country: NL, GB, PT and ZIP+4
 * shapes 2, five digits 1, four 0.5),
 * a shape no house number has (letters, `1100-053`) +2, the postcode of a known result +4,
 * a town or a US state next to it (no comma between) +2, words after it (`1620 København`) +1, ending its section +1;
 * a bare number right after a name with nothing after it (`Damrak 1234`) −1.
 */
export function postcodeCandidates(tokens: readonly Token[], labels: readonly (Label | undefined)[], ctx: PostcodeContext): PostcodeCandidate[] {
  const out: PostcodeCandidate[] = [];
  const known = new Set((ctx.known ?? []).map((k) => squeeze(k)));
  tokens.forEach((token, i) => {
    const pair = tokens[i + 1];
    const spans: Span[] = [{ from: i, to: i }];
    if (pair && !pair.opens) spans.push({ from: i, to: i + 1 });
    for (const span of spans) {
      if (labels[span.from] !== undefined || labels[span.to] !== undefined) continue;
      const written = tokens.slice(span.from, span.to + 1).map((t) => t.text.replace(/[.:]$/, '')).join(' ');
      const strength = shapeStrength(written, ctx.country, span.to > span.from);
      if (strength <= 0) continue;
      const value = normalizePostcode(written, ctx.country ?? shapeCountry(bare(written)));
      let score = strength + (known.has(squeeze(value)) ? 4 : 0);
      const next = tokens[span.to + 1];
      const prev = tokens[span.from - 1];
      const closes = !next || next.opens;
      const wordsAfter = !closes && isNameWord(next) && labels[span.to + 1] === undefined;
      const afterState = ctx.usContext && !token.opens && prev !== undefined && /^[A-Za-z]{2}$/.test(prev.text) && isUsStateCode(prev.text);
      const townAfter = !closes && ctx.placeAt?.(span.to + 1) === true;
      const townBefore = !token.opens && ctx.placeEndsAt?.(span.from - 1) === true;
      if (townAfter || townBefore || afterState) score += 2;
      if (wordsAfter) score += 1;
      if (closes) score += 1;
      const plain = /^\d+$/.test(written);
      if (plain && !token.opens && isNameWord(prev) && !afterState && !wordsAfter && !townBefore) score -= 1;
      out.push({ ...span, value, score });
    }
  });
  return out;
}

/** The outward code of a British postcode: area letters, district digit(s), an optional sub-district letter. */
const GB_OUTWARD = /^[A-Z]{1,2}\d[A-Z\d]?$/;

function squeeze(s: string): string {
  return s.toUpperCase().replace(/[^A-Z0-9]/g, '');
}

/** `D-10117` → `10117`: an old-style country prefix is not part of the postcode. */
function bare(written: string): string {
  return /^[A-Za-z]{1,2}-\d/.test(written) && !GB_SHAPE.test(written.toUpperCase()) ? written.replace(/^[A-Za-z]{1,2}-/, '') : written;
}

function shapeStrength(written: string, country: string | undefined, pair: boolean): number {
  const value = bare(written).toUpperCase();
  if (!/\d/.test(value) || value.length > 10) return 0;
  const distinctive = /[A-Z]/.test(value) || /^\d+-\d+$/.test(value) ? 2 : 0;
  if (country) {
    if (isValidPostcode(value, country) && (country !== 'NL' || NL_SHAPE.test(value))) return 2 + distinctive;
    if (pair) return 0;
    // A British outward code alone (`EC4`, `EC4M`, `SW1`): the district, a partial postcode.
    if (country === 'GB' && GB_OUTWARD.test(value)) return 1 + distinctive;
    const digits = postcodeDigits(country);
    // Dutch and Portuguese postcodes never start with 0.
    if (digits !== undefined && new RegExp(`^\\d{${digits}}$`).test(value) && !(/^0/.test(value) && (country === 'NL' || country === 'PT'))) return 1;
    if (country === 'PT' && /^\d{4}-\d{3}$/.test(value)) return 1 + distinctive;
    return 0;
  }
  if (NL_SHAPE.test(value) || GB_SHAPE.test(value) || PT_SHAPE.test(value) || /^\d{5}-\d{4}$/.test(value)) return 4;
  if (pair) return 0;
  if (/^\d{5}$/.test(value)) return 1;
  if (/^\d{4}$/.test(value)) return 0.5;
  return 0;
}
