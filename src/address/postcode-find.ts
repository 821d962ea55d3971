import { GB_SHAPE, isValidPostcode, NL_SHAPE, normalizePostcode, postcodeDigits, PT_SHAPE, shapeCountry } from './postcode.js';
import { isNameWord, type Label, type Span, type Token } from './tokens.js';
import { isUsStateCode } from './us-states.js';

export interface PostcodeCandidate extends Span {
  /** Display-canonical postcode. */
  value: string;
  /** Evidence that this is the postcode (see the comment on postcodeShapes). */
  score: number;
}

/**
 * A span that may be the postcode, with the evidence that does not depend on what is known to
 * exist: a text's shapes are found once, then weighed against each candidate result's places and
 * postcode (weighPostcodes).
 */
export interface PostcodeShape extends Span {
  value: string;
  /** Evidence of its shape for the country. */
  strength: number;
  /** `squeeze(value)`, to compare with known postcodes. */
  squeezed: string;
  /** Its token opens a section. */
  opens: boolean;
  /** Nothing or a comma follows it. */
  closes: boolean;
  /** Free name words follow it (`1620 København`). */
  wordsAfter: boolean;
  /** A US state code comes right before it. */
  afterState: boolean;
  /** A bare number right after a name, with no words after it: −1 unless a town comes before it. */
  bareAfterName: boolean;
}

export interface ShapeContext {
  country?: string;
  usContext: boolean;
}

/** Whether a known place starts or ends at a token index (a reading's PlaceSet over its tokens). */
export interface PlaceProbe {
  placeAt(index: number): boolean;
  placeEndsAt(index: number): boolean;
}

export interface KnownContext {
  /** Postcodes known to be right (a candidate result's): found as written anywhere. */
  known?: readonly string[];
  places?: PlaceProbe;
}

/**
 * The postcode candidates are every token (or pair: `1012 LG`, `SW1A 2AA`) that may be the
 * postcode, with its evidence; the reader weighs them against the house number (a 4-digit Danish
 * postcode and a house number are both numbers). Evidence: a postcode of the country's format 2
 * (one of its length where a postcode stands 1, a British outward code alone `EC4` 1; without a
 * country: NL, GB, PT and ZIP+4 shapes 2, five digits 1, four 0.5),
 * a shape no house number has (letters, `1100-053`) +2, the postcode of a known result +4,
 * a town or a US state next to it (no comma between) +2, words after it (`1620 København`) +1, ending its section +1;
 * a bare number right after a name with nothing after it (`Damrak 1234`) −1.
 * postcodeShapes finds them with what a text alone says, once; weighPostcodes adds what is known
 * (a candidate result's postcode and places), once per reading.
 */
/** The candidates with the evidence of their shape and surroundings (no known places or postcodes yet). */
export function postcodeShapes(tokens: readonly Token[], labels: readonly (Label | undefined)[], ctx: ShapeContext): PostcodeShape[] {
  const out: PostcodeShape[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as Token;
    const pair = tokens[i + 1];
    const digit = DIGIT.test(token.text);
    for (let to = i; to <= i + 1; to++) {
      if (to > i && (!pair || pair.opens)) break;
      if (labels[i] !== undefined || labels[to] !== undefined) continue;
      // No digit, no postcode (shapeStrength's first test): most words are skipped before building anything.
      if (!digit && (to === i || !DIGIT.test((pair as Token).text))) continue;
      const written = to === i ? trimMark(token.text) : `${trimMark(token.text)} ${trimMark((pair as Token).text)}`;
      const strength = shapeStrength(written, ctx.country, to > i);
      if (strength <= 0) continue;
      const value = normalizePostcode(written, ctx.country ?? shapeCountry(bare(written)));
      const next = tokens[to + 1];
      const prev = tokens[i - 1];
      const closes = !next || next.opens;
      const wordsAfter = !closes && isNameWord(next) && labels[to + 1] === undefined;
      const afterState = ctx.usContext && !token.opens && prev !== undefined && /^[A-Za-z]{2}$/.test(prev.text) && isUsStateCode(prev.text);
      const plain = /^\d+$/.test(written);
      out.push({
        from: i,
        to,
        value,
        strength,
        squeezed: squeeze(value),
        opens: token.opens,
        closes,
        wordsAfter,
        afterState,
        bareAfterName: plain && !token.opens && isNameWord(prev) && !afterState && !wordsAfter,
      });
    }
  }
  return out;
}

/** The shapes scored with what is known: a known postcode, a known town beside it. */
export function weighPostcodes(shapes: readonly PostcodeShape[], ctx: KnownContext): PostcodeCandidate[] {
  const known = ctx.known?.length ? new Set(ctx.known.map((k) => squeeze(k))) : undefined;
  return shapes.map((s) => {
    let score = s.strength + (known?.has(s.squeezed) ? 4 : 0);
    const townAfter = !s.closes && ctx.places?.placeAt(s.to + 1) === true;
    const townBefore = !s.opens && ctx.places?.placeEndsAt(s.from - 1) === true;
    if (townAfter || townBefore || s.afterState) score += 2;
    if (s.wordsAfter) score += 1;
    if (s.closes) score += 1;
    if (s.bareAfterName && !townBefore) score -= 1;
    return { from: s.from, to: s.to, value: s.value, score };
  });
}

const DIGIT = /\d/;

function trimMark(text: string): string {
  return text.replace(/[.:]$/, '');
}

const ALL_DIGITS = /^\d+$/;

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
    if (digits !== undefined && value.length === digits && ALL_DIGITS.test(value) && !(/^0/.test(value) && (country === 'NL' || country === 'PT'))) return 1;
    if (country === 'PT' && /^\d{4}-\d{3}$/.test(value)) return 1 + distinctive;
    return 0;
  }
  if (NL_SHAPE.test(value) || GB_SHAPE.test(value) || PT_SHAPE.test(value) || /^\d{5}-\d{4}$/.test(value)) return 4;
  if (pair) return 0;
  if (/^\d{5}$/.test(value)) return 1;
  if (/^\d{4}$/.test(value)) return 0.5;
  return 0;
}
