/**
 * Values computed once per key and kept, at most `max` of them (the oldest kept go first): for
 * pure functions called on every keystroke with inputs that repeat (a label's words, a street's
 * layout). A Map lookup, not an LRU's bookkeeping: on these paths the lookups are the cost.
 */
export class Kept<V> {
  private readonly values = new Map<string, V>();
  /** How many of the oldest go at once when full (an eighth). */
  private readonly evictions: number;

  constructor(private readonly max: number) {
    this.evictions = Math.max(1, Math.floor(max / 8));
  }

  /** The value kept for `key`, else `make()`'s, kept. */
  get(key: string, make: () => V): V {
    let value = this.values.get(key);
    if (value === undefined) {
      value = make();
      if (this.values.size >= this.max) this.evictOldest();
      this.values.set(key, value);
    }
    return value;
  }

  get size(): number {
    return this.values.size;
  }

  private evictOldest(): void {
    dropOldest(this.values, this.evictions);
  }
}

/**
 * Deletes the `count` oldest entries of `map` (insertion order) in one pass. Not one per miss: a
 * Map's first live entry is found by skipping the deleted ones before it, so taking
 * `keys().next()` after each delete scanned thousands of them once the map was full (7-70 µs a
 * miss instead of 0.2: every keystroke with a new word or street, once a server had run a while).
 */
export function dropOldest<K>(map: Map<K, unknown>, count: number): void {
  let left = count;
  if (left <= 0) return;
  for (const key of map.keys()) {
    map.delete(key);
    if (--left === 0) break;
  }
}
