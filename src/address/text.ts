/** Letters that Unicode decomposition does not reduce to ASCII, folded the way address data spells them. */
const FOLD: Record<string, string> = {
  ß: 'ss', ẞ: 'ss', æ: 'ae', ø: 'o', œ: 'oe', ł: 'l', đ: 'd', ð: 'd', þ: 'th', ı: 'i',
};
const FOLD_RE = /[ßẞæøœłđðþı]/g;

/** Lower case, no diacritics, ASCII folds (ß → ss), but punctuation kept: the base of every other form. */
export function foldCase(s: string): string {
  return s
    .toLowerCase()
    .replace(FOLD_RE, (c) => FOLD[c] ?? c)
    .normalize('NFKD')
    .replace(/\p{M}/gu, '');
}

/**
 * Lower case, no diacritics (ß → ss too), apostrophes dropped (`'s-Gravenhage` → `s gravenhage`,
 * `O'Connell` → `oconnell`), any other punctuation → space, whitespace collapsed.
 */
export function normalizeText(s: string): string {
  return foldCase(s)
    .replace(/['’‘ʼ`´]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** Spaces removed: `friedrich strasse` and `friedrichstrasse` differ only in formatting. */
export function compact(s: string): string {
  return s.replace(/\s+/g, '');
}
