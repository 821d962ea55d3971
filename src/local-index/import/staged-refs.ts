/**
 * Staged ways' node lists kept in memory, up to `cap` numbers in all, beside the staging file's
 * rows that point at them (osm-pbf.ts): a way read back is then a view of these bytes, where a
 * list stored in the file came back as a buffer of its own per way, each copied into an array
 * (most of the cost of reading a million staged ways). Past `cap` the lists go to the file, so
 * memory stays bounded whatever the file's size.
 */
export class StagedRefs {
  /** Each list as its length, then its ids. */
  private data = new Float64Array(1024);
  private length = 0;

  constructor(private readonly cap: number) {}

  /** Keeps `refs`, returning where (for `at`); -1 when they would pass the cap (the caller stores them itself). */
  put(refs: readonly number[]): number {
    const need = this.length + 1 + refs.length;
    if (need > this.cap) return -1;
    if (need > this.data.length) {
      const next = new Float64Array(Math.min(Math.max(need, this.data.length * 2), this.cap));
      next.set(this.data.subarray(0, this.length));
      this.data = next;
    }
    const at = this.length;
    this.data[at] = refs.length;
    for (let i = 0; i < refs.length; i++) this.data[at + 1 + i] = refs[i]!;
    this.length = need;
    return at;
  }

  /** The list kept at `at`: a view, valid until the next put. */
  at(at: number): Float64Array {
    return this.data.subarray(at + 1, at + 1 + this.data[at]!);
  }
}
