import { isTypoOf, mayHaveTypo, trigrams } from '../fuzzy.js';

/**
 * In-memory vocabulary of the SQLite index (every token of every street and city), with a
 * trigram index to find typo candidates in well under a millisecond. It holds distinct
 * words only (tens of thousands even for millions of addresses), so it stays small.
 */
export class Vocabulary {
  private readonly sorted: string[];
  private readonly set: Set<string>;
  private readonly grams = new Map<string, number[]>();

  /** How many streets hold each word, when the store knows it (FTS5's vocabulary does). */
  private readonly docs: ReadonlyMap<string, number>;

  constructor(words: Iterable<string>, docs: ReadonlyMap<string, number> = new Map()) {
    this.docs = docs;
    this.set = new Set(words);
    this.sorted = [...this.set].sort();
    this.sorted.forEach((word, id) => {
      for (const g of trigrams(word)) {
        let list = this.grams.get(g);
        if (!list) this.grams.set(g, (list = []));
        list.push(id);
      }
    });
  }

  get size(): number {
    return this.sorted.length;
  }

  has(word: string): boolean {
    return this.set.has(word);
  }

  private firstFrom(prefix: string): number {
    let lo = 0;
    let hi = this.sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.sorted[mid]! < prefix) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  hasPrefix(prefix: string): boolean {
    const lo = this.firstFrom(prefix);
    return lo < this.sorted.length && this.sorted[lo]!.startsWith(prefix);
  }

  /** The words that start with `prefix`, in order; undefined when there are more than `max`. */
  completions(prefix: string, max: number): string[] | undefined {
    const out: string[] = [];
    for (let i = this.firstFrom(prefix); i < this.sorted.length && this.sorted[i]!.startsWith(prefix); i++) {
      if (out.length === max) return undefined;
      out.push(this.sorted[i]!);
    }
    return out;
  }

  /**
   * How many streets a word (or the words a prefix completes to, up to `maxWords` of them) is in:
   * an upper bound, as a street may hold several of the words; Infinity past `maxWords` or when
   * the counts are unknown.
   */
  streetsWith(word: string, prefix: boolean, maxWords = 16): number {
    const words = prefix ? this.completions(word, maxWords) : this.set.has(word) ? [word] : [];
    if (!words) return Infinity;
    let sum = 0;
    for (const w of words) sum += this.docs.get(w) ?? Infinity;
    return sum;
  }

  /** Words within the edit budget of `typed`, best trigram overlap first. */
  fuzzy(typed: string, prefix: boolean, limit = 8): string[] {
    if (!mayHaveTypo(typed)) return [];
    const grams = trigrams(typed).filter((g) => !prefix || !g.endsWith(' '));
    const counts = new Map<number, number>();
    for (const g of grams) {
      for (const id of this.grams.get(g) ?? []) counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    const ranked = [...counts.entries()].filter(([, c]) => c >= Math.max(1, grams.length - 6)).sort((a, b) => b[1] - a[1]);
    const out: string[] = [];
    for (const [id] of ranked.slice(0, 300)) {
      const word = this.sorted[id]!;
      if (isTypoOf(typed, word, prefix)) out.push(word);
      if (out.length >= limit) break;
    }
    return out;
  }
}
