/**
 * A set of OSM ids off the V8 heap: appended to a growing Float64Array (8 bytes an id), then
 * sorted and de-duplicated once by `seal`. Two ways to look one up, for the two ways the OSM
 * passes ask: `seek` for ids that come in ascending order (a node pass: the file's order), which
 * walks a cursor forward; `find` for any order (a way's nodes), which tries the place after the
 * last one found (a way's nodes mostly have consecutive ids) before a binary search.
 */
export class SortedIds {
  private ids = new Float64Array(1 << 16);
  private count = 0;
  private sealed = false;
  private cursor = 0;
  private last = -1;

  add(id: number): void {
    if (this.sealed) throw new Error('SortedIds: add() after seal()');
    if (this.count === this.ids.length) {
      const grown = new Float64Array(this.ids.length * 2);
      grown.set(this.ids);
      this.ids = grown;
    }
    this.ids[this.count++] = id;
  }

  /** Ids added (before `seal`, repeats included), or distinct ids (after). */
  get size(): number {
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

  /** The place of `id`, or -1; fastest when asked in ascending order (a binary search when not). */
  seek(id: number): number {
    const ids = this.ids;
    let i = this.cursor;
    if (i > 0 && ids[i - 1]! >= id) i = this.lowerBound(id);
    else while (i < this.count && ids[i]! < id) i++;
    this.cursor = i;
    return i < this.count && ids[i] === id ? i : -1;
  }

  /** The place of `id`, or -1, in any order. */
  find(id: number): number {
    const ids = this.ids;
    let i = this.last + 1;
    if (!(i < this.count && ids[i] === id)) {
      i = this.last;
      if (!(i >= 0 && ids[i] === id)) i = this.lowerBound(id);
    }
    if (i >= this.count || ids[i] !== id) return -1;
    this.last = i;
    return i;
  }

  /** First place whose id is >= `id`. */
  private lowerBound(id: number): number {
    let lo = 0;
    let hi = this.count;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.ids[mid]! < id) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
