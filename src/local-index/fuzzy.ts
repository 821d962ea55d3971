/**
 * Typo tolerance: bounded Damerau-Levenshtein (optimal string alignment) and the edit
 * budget per word length. Both index backends verify their fuzzy candidates with these
 * functions, so SQLite and PostgreSQL accept exactly the same typos.
 */

/** Edits tolerated for a typed word: none for short words, where one edit makes another word. */
export function maxEdits(length: number): number {
  if (length <= 3) return 0;
  if (length <= 7) return 1;
  return 2;
}

/** Edit distance, or `limit + 1` as soon as it is certain to exceed `limit`. */
export function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  const n = b.length;
  let prev2 = new Array<number>(n + 1).fill(0);
  let prev = Array.from({ length: n + 1 }, (_, j) => j);
  let cur = new Array<number>(n + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    let rowMin = i;
    for (let j = 1; j <= n; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      let v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, prev2[j - 2]! + 1);
      cur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > limit) return limit + 1;
    [prev2, prev, cur] = [prev, cur, prev2];
  }
  return prev[n]!;
}

/** Distance between a typed prefix and the closest prefix of `word` (the user may not have finished typing). */
export function prefixDistance(typed: string, word: string, limit: number): number {
  let best = limit + 1;
  for (let len = Math.max(1, typed.length - limit); len <= Math.min(word.length, typed.length + limit); len++) {
    const d = editDistance(typed, word.slice(0, len), limit);
    if (d < best) best = d;
    if (best === 0) break;
  }
  return best;
}

/** Whether a typed word is worth a typo search at all: long enough, and not a bare number. */
export function mayHaveTypo(typed: string): boolean {
  return maxEdits(typed.length) > 0 && /\p{L}/u.test(typed);
}

/** Accepts `candidate` as a typo of `typed` (whole word, or prefix while typing). */
export function isTypoOf(typed: string, candidate: string, prefix: boolean): boolean {
  const limit = maxEdits(typed.length);
  if (limit === 0) return false;
  const d = prefix ? prefixDistance(typed, candidate, limit) : editDistance(typed, candidate, limit);
  return d > 0 && d <= limit;
}

/** Trigrams with word-boundary padding, as pg_trgm builds them. */
export function trigrams(word: string): string[] {
  const padded = `  ${word} `;
  const out = new Set<string>();
  for (let i = 0; i + 3 <= padded.length; i++) out.add(padded.slice(i, i + 3));
  return [...out];
}
