import damerauLevenshtein from 'damerau-levenshtein';

/**
 * Edits a typo may take, relative to length: none for 1-3 characters, 1 up to 7, 2 up to 14, then 3.
 * So `Damrk` = `Damrak` and `Keizergracht` = `Keizersgracht`, but `Dam` ≠ `Dom`.
 */
export function typoAllowance(length: number): number {
  if (length <= 3) return 0;
  if (length <= 7) return 1;
  if (length <= 14) return 2;
  return 3;
}

/** Damerau-Levenshtein (adjacent transpositions count once). */
export function editDistance(a: string, b: string): number {
  return damerauLevenshtein(a, b).steps;
}

/** Within the typo allowance of the longer string. */
export function isTypo(a: string, b: string): boolean {
  const allowance = typoAllowance(Math.max(a.length, b.length));
  return allowance > 0 && Math.abs(a.length - b.length) <= allowance && editDistance(a, b) <= allowance;
}

/**
 * A typo in a name: within the allowance of the whole (without spaces), unless `veto` rejects a
 * pair of words that differ where the words line up (`North` and `South` are not a typo of each
 * other, nor `Beg` and `Hag` before the same `strasse`).
 */
export function isNameTypo(a: string, b: string, veto: (x: string, y: string) => boolean = () => false): boolean {
  const ta = a.split(' ').filter(Boolean);
  const tb = b.split(' ').filter(Boolean);
  if (!isTypo(ta.join(''), tb.join(''))) return false;
  return ta.length !== tb.length || ta.every((x, i) => x === tb[i] || !veto(x, tb[i] ?? ''));
}

/**
 * Every significant token of the shorter name occurs in the longer one
 * (`Champs Elysees` ⊂ `Avenue des Champs Elysees`, `New York` ⊂ `New York City`).
 * `isFiller` marks tokens that carry no identity on their own (street types, articles).
 */
export function isContained(a: string, b: string, isFiller: (token: string) => boolean): boolean {
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  const shortTokens = short.split(' ').filter(Boolean);
  const longTokens = new Set(long.split(' ').filter(Boolean));
  const significant = shortTokens.filter((t) => !isFiller(t) && t.length >= 3);
  return significant.length > 0 && shortTokens.every((t) => longTokens.has(t));
}

/**
 * One name is the other plus words that name nothing on their own (`isFiller`: a street type, an
 * article, a direction): `Champs Elysees` ⊂ `Avenue des Champs Elysees`, `Pennsylvania Avenue` ⊂
 * `Pennsylvania Avenue Northwest`. Extra words on both sides (`North Main St` / `South Main St`) or a
 * significant extra word (`Nieuwe Binnenweg` / `Binnenweg`) are different names.
 */
export function differsByFillers(a: string, b: string, isFiller: (token: string) => boolean): boolean {
  const ta = new Set(a.split(' ').filter(Boolean));
  const tb = new Set(b.split(' ').filter(Boolean));
  const [short, long] = ta.size <= tb.size ? [ta, tb] : [tb, ta];
  if (![...short].every((t) => long.has(t))) return false;
  const extra = [...long].filter((t) => !short.has(t));
  return extra.length > 0 && extra.every(isFiller) && [...short].some((t) => !isFiller(t) && t.length >= 3);
}

/**
 * Token-wise abbreviation: same number of tokens, each equal or a prefix of its partner
 * (`Pres Kennedylaan` = `President Kennedylaan`, `J F Kennedy Ave` = `John Fitzgerald Kennedy Ave`),
 * with at least one whole word equal.
 */
export function isAbbreviation(a: string, b: string): boolean {
  const ta = a.split(' ').filter(Boolean);
  const tb = b.split(' ').filter(Boolean);
  if (ta.length !== tb.length || ta.length === 0) return false;
  let abbreviated = 0;
  let anchored = false;
  for (let i = 0; i < ta.length; i++) {
    const x = ta[i] ?? '';
    const y = tb[i] ?? '';
    if (x === y) {
      anchored ||= x.length >= 3;
      continue;
    }
    if (!(x.length < y.length ? y.startsWith(x) : x.startsWith(y))) return false;
    abbreviated++;
  }
  // An equal word anchors the match: `Dam` is not an abbreviation of `Damrak`.
  return abbreviated > 0 && anchored;
}
