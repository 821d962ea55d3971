import { foldCase } from './text.js';

/**
 * Canonical house number for exact comparison (house numbers are never fuzzy-matched).
 * - number + huisletter, however written, is one form: `12B` = `12 b` = `12-B` = `12/B` → `12b`
 *   (`2/B` is the written variant of `2B` that SPEC names);
 * - French suffixes join the same way: `12 bis` = `12bis` → `12bis`;
 * - any further addition (toevoeging, unit) follows a dash: `12-2` = `12 2` = `12/2` → `12-2`,
 *   `12B-2` → `12b-2`. So `12-2` and `12b` stay distinct;
 * - the ways Dutch addresses write the same addition are one: the ground floor `12 hs` = `12huis`
 *   = `12-H` → `12h`, a floor in Roman numerals `12 II` = `12-2` (II-IV; a lone `I` stays a letter);
 * - leading zeros go (`012` → `12`). Text that does not start with a number is only compacted.
 */
export function normalizeHouseNumber(s: string): string {
  const folded = foldCase(s).trim();
  const m = /^(\d+)(.*)$/su.exec(folded);
  if (!m) return folded.replace(/[^\p{L}\p{N}]+/gu, '');
  const number = String(Number.parseInt(m[1] ?? '0', 10));
  let rest = m[2] ?? '';
  let letter = '';
  const suffix = /^\s*[-/]?\s*(bis|ter|quater|quinquies|[a-z])(?![\p{L}\p{N}])(.*)$/su.exec(rest);
  if (suffix) {
    letter = suffix[1] ?? '';
    rest = suffix[2] ?? '';
  }
  const additions = rest
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .map((a) => ADDITION_FORMS[a] ?? a);
  if (!letter && additions[0] === 'h') {
    letter = 'h';
    additions.shift();
  }
  return number + letter + additions.map((a) => `-${a}`).join('');
}

/** Additions written several ways: ground floor (`hs`, `huis` = `H`), floors in Roman numerals. */
const ADDITION_FORMS: Readonly<Record<string, string>> = { hs: 'h', huis: 'h', ii: '2', iii: '3', iv: '4' };

/** A token that is (the start of) a house number: `12`, `12B`, `123-2`, `2/B`, `12-14`. */
export const HOUSE_NUMBER_TOKEN = /^\d{1,5}[a-zA-Z]?(?:[-/][\p{L}\p{N}]{1,4})*$/u;

/** Words that may follow a house number token and belong to it: huisletter, `bis`, toevoeging. */
export const HOUSE_NUMBER_SUFFIX = /^(?:[a-zA-Z]|bis|ter|quater|hs|huis|bg|[IVX]{1,4}|[-/][\p{L}\p{N}]{1,4})$/iu;
