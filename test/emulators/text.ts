/**
 * Text helpers shared by the emulators' tiny search engine: the same folding a real
 * geocoder does (case, diacritics, ß, punctuation) and a typo-tolerant token compare.
 */
export function normalizeText(value: string): string {
  return value
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .replace(/[’'`]/g, '')
    .replace(/[^\p{L}\p{N}/-]+/gu, ' ')
    .trim();
}

/** Words, keeping house numbers such as `221b`, `12-2` and `1012lg` whole. */
export function tokenize(value: string): string[] {
  const raw = normalizeText(value).match(/\d+[a-z]*(?:[-/][a-z\d]+)?|[\p{L}\p{N}]+/gu) ?? [];
  // "221 B" is one house number: glue a lone letter onto the number before it.
  const out: string[] = [];
  for (const token of raw) {
    const previous = out[out.length - 1];
    if (previous !== undefined && /^[a-z]$/.test(token) && /^\d+$/.test(previous)) out[out.length - 1] = previous + token;
    else out.push(token);
  }
  return out;
}

export function compactPostcode(value: string): string {
  return normalizeText(value).replace(/[\s-]+/g, '');
}

export function isNumeric(token: string): boolean {
  return /^\d/.test(token);
}

/** Optimal string alignment distance: a swapped pair of letters counts as one typo. */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) => Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * How well a query token matches an indexed token, 0..1. Numbers match exactly (or as a
 * prefix while typing); words of four letters or more tolerate one typo, as real providers do.
 */
export function tokenQuality(query: string, indexed: string, prefix: boolean): number {
  if (query === indexed) return 1;
  if (prefix && indexed.startsWith(query)) return 0.9;
  if (isNumeric(query) || isNumeric(indexed)) return 0;
  if (query.length >= 4 && indexed.length >= 4 && editDistance(query, indexed) <= 1) return 0.8;
  if (prefix && query.length >= 4 && indexed.length > query.length && editDistance(query, indexed.slice(0, query.length)) <= 1) return 0.7;
  return 0;
}

/** `12 B` → `12b`, `231-3` stays `231-3`: the form tokenize() gives a typed house number. */
export function compactHouseNumber(value: string): string {
  return normalizeText(value).replace(/\s+/g, '');
}
