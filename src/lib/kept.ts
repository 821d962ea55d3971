/**
 * Values computed once per key and kept, at most `max` of them (the oldest kept goes first): for
 * pure functions called on every keystroke with inputs that repeat (a label's words, a street's
 * layout). A Map lookup, not an LRU's bookkeeping: on these paths the lookups are the cost.
 */
export class Kept<V> {
  private readonly values = new Map<string, V>();

  constructor(private readonly max: number) {}

  /** The value kept for `key`, else `make()`'s, kept. */
  get(key: string, make: () => V): V {
    let value = this.values.get(key);
    if (value === undefined) {
      value = make();
      if (this.values.size >= this.max) this.values.delete(this.values.keys().next().value as string);
      this.values.set(key, value);
    }
    return value;
  }
}
