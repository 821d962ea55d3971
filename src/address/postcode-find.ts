import { isStreetTypeWord } from './abbreviations.js';
import { GB_SHAPE, isValidPostcode, NL_SHAPE, normalizePostcode, shapeCountry } from './postcode.js';
import { normalizeStreetIn } from './street.js';

export interface FoundPostcode {
  /** Display-canonical postcode. */
  value: string;
  start: number;
  end: number;
}

interface Token {
  text: string;
  start: number;
  end: number;
  index: number;
  sectionStart: boolean;
}

/** Countries where an address starts with a number that may have 4-5 digits (`12345 Main St`). */
const LONG_NUMBER_FIRST = new Set(['US', 'AU', 'NZ', 'CA']);

/**
 * Finds the postcode in free text, scanning from the end (postcodes come late in every format).
 * With a country: any form its format accepts. Without: the unmistakable NL and GB shapes, and
 * 5-digit (or ZIP+4) numbers. A bare number is not taken where it reads as a house number.
 */
export function findPostcode(text: string, country?: string): FoundPostcode | undefined {
  const tokens = tokenize(text);
  for (let i = tokens.length - 1; i >= 0; i--) {
    const last = tokens[i] as Token;
    const prev = tokens[i - 1];
    const spans: Token[][] = prev && !last.sectionStart ? [[prev, last], [last]] : [[last]];
    for (const span of spans) {
      const first = span[0] as Token;
      const value = span.map((t) => t.text).join(' ');
      if (!accepts(value, country) || !plausible(first, last, tokens, country)) continue;
      const cc = country ?? shapeCountry(value);
      return { value: normalizePostcode(value, cc), start: first.start, end: last.end };
    }
  }
  return undefined;
}

function accepts(value: string, country: string | undefined): boolean {
  const upper = value.toUpperCase();
  if (!/\d/.test(upper) || upper.length > 10) return false;
  if (country) return isValidPostcode(upper, country) && (country.toUpperCase() !== 'NL' || NL_SHAPE.test(upper));
  return NL_SHAPE.test(upper) || GB_SHAPE.test(upper) || /^\d{5}(?:-\d{4})?$/.test(upper);
}

/** Rejects bare numbers in house-number positions. */
function plausible(first: Token, last: Token, tokens: readonly Token[], country: string | undefined): boolean {
  if (!/^[\d\s-]+$/.test(first.text + last.text)) return true;
  const digits = (first === last ? first.text : `${first.text}${last.text}`).replace(/\D/g, '');
  const next = tokens[last.index + 1];
  const startsText = first.index === 0 && next !== undefined;
  if (startsText) {
    const cc = country?.toUpperCase();
    if (cc && LONG_NUMBER_FIRST.has(cc)) return false;
    if (!cc && endsWithEnglishStreetType(tokens)) return false;
  }
  if (digits.length <= 4) {
    // Short numbers (AT, CH, BE, DK, AU): a postcode opens its section before the city, or ends the text.
    return (first.sectionStart && next !== undefined && !next.sectionStart && /\p{L}/u.test(next.text)) || next === undefined;
  }
  return true;
}

function endsWithEnglishStreetType(tokens: readonly Token[]): boolean {
  const sectionEnd = tokens.findIndex((t, i) => i > 0 && t.sectionStart);
  const lastWord = tokens[(sectionEnd === -1 ? tokens.length : sectionEnd) - 1];
  return lastWord !== undefined && isStreetTypeWord(normalizeStreetIn(lastWord.text, ['en']), ['en']);
}

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let sectionStart = true;
  const re = /[^\s,;]+|[,;]/g;
  for (const m of text.matchAll(re)) {
    if (m[0] === ',' || m[0] === ';') {
      sectionStart = true;
      continue;
    }
    tokens.push({ text: m[0], start: m.index, end: m.index + m[0].length, index: tokens.length, sectionStart });
    sectionStart = false;
  }
  return tokens;
}
