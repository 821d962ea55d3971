/** Letters that Unicode decomposition does not reduce to ASCII, folded the way address data spells them. */
const FOLD: Record<string, string> = {
  ß: 'ss', ẞ: 'ss', æ: 'ae', ø: 'o', œ: 'oe', ł: 'l', đ: 'd', ð: 'd', þ: 'th', ı: 'i',
};
const FOLD_RE = /[ßẞæøœłđðþı]/g;
const NON_ASCII = /[^\x00-\x7f]/;

/** Lower case, no diacritics, ASCII folds (ß → ss), but punctuation kept: the base of every other form. */
export function foldCase(s: string): string {
  const lower = s.toLowerCase();
  // Most of what is compared is plain ASCII, which decomposition leaves as it is: skip the NFKD
  // pass and its regular expressions (they were 4 % of an uncached validate's CPU).
  return NON_ASCII.test(lower) ? foldLetters(lower) : lower;
}

/** The fold itself, for lower-cased text: ASCII folds, then decomposition without its marks. */
export function foldLetters(lower: string): string {
  return lower
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

/**
 * Digraphs that spell a folded letter in a language, both ways: German `ae`/`oe`/`ue` for ä/ö/ü
 * (`Muenchen` = `München` = `Munchen`), Danish and Norwegian `aa`/`oe` for å/ø (`Aaboulevard`,
 * `Koebenhavn`). Applied to normalizeText output on both sides of a comparison, only for those
 * languages: in Dutch `oe` is a vowel of its own (`Koelweg` is not `Kolweg`).
 */
const DIGRAPHS: Record<string, RegExp> = {
  de: /ae|oe|ue/g,
  da: /aa|oe/g,
  no: /aa|oe/g,
};

export function foldDigraphs(normalized: string, langs: readonly string[]): string {
  let out = normalized;
  for (const lang of langs) {
    const re = DIGRAPHS[lang];
    if (re) out = out.replace(re, (d) => d[0] ?? d);
  }
  return out;
}
