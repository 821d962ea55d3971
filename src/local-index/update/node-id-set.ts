/**
 * The exact set of node ids the recorded ways use, off the V8 heap: ids appended to a growing
 * Float64Array (8 bytes a reference), sorted and de-duplicated once by `seal`. Membership tests
 * come in the file's ascending node order, so a cursor walks the ids and a binary search is only
 * the fallback (an unsorted file).
 */
export class NodeIdSet {
  private ids = new Float64Array(1 << 16);
  private count = 0;
  private sealed = false;
  private cursor = 0;

  add(id: number): void {
    if (this.sealed) throw new Error('NodeIdSet: add() after seal()');
    if (this.count === this.ids.length) {
      const grown = new Float64Array(this.ids.length * 2);
      grown.set(this.ids);
      this.ids = grown;
    }
    this.ids[this.count++] = id;
  }

  /** References added so far (repeats included). */
  get pending(): number {
    return this.count;
  }

  seal(): void {
    if (this.sealed) return;
    const sorted = this.ids.subarray(0, this.count).sort();
    let n = 0;
    for (let i = 0; i < sorted.length; i++) if (i === 0 || sorted[i] !== sorted[i - 1]) sorted[n++] = sorted[i]!;
    this.ids = this.ids.slice(0, n);
    this.count = n;
    this.sealed = true;
  }

  has(id: number): boolean {
    const ids = this.ids;
    let i = this.cursor;
    if (i > 0 && ids[i - 1]! >= id) {
      let lo = 0;
      let hi = this.count;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (ids[mid]! < id) lo = mid + 1;
        else hi = mid;
      }
      i = lo;
    } else while (i < this.count && ids[i]! < id) i++;
    this.cursor = i;
    return i < this.count && ids[i] === id;
  }
}
