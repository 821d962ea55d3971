/**
 * Coordinates of just the nodes the importer needs (address ways' and boundary ways' members),
 * off the V8 heap: their ids in one sorted Float64Array, coordinates in two Int32Arrays of
 * 1e-7 degrees (OSM's own precision). 16 bytes a node, no object, no hash table, nothing for
 * the garbage collector to walk. Ids are collected while reading ways, then sorted once;
 * the node pass fills coordinates by walking the sorted ids alongside the file's ascending
 * node ids (binary search when a file is not sorted); look-ups are binary searches.
 */
export class NodeLocations {
  private ids = new Float64Array(1 << 16);
  private count = 0;
  private lats = new Int32Array(0);
  private lons = new Int32Array(0);
  private sealed = false;
  private cursor = 0;
  /** The last place indexOf found. */
  private last = -1;
  private static readonly MISSING = -0x80000000;

  need(id: number): void {
    if (this.sealed) throw new Error('NodeLocations: need() after seal()');
    if (this.count === this.ids.length) {
      const grown = new Float64Array(this.ids.length * 2);
      grown.set(this.ids);
      this.ids = grown;
    }
    this.ids[this.count++] = id;
  }

  /** Sorts and de-duplicates the needed ids; coordinates can be set from now on. */
  seal(): void {
    if (this.sealed) return;
    const sorted = this.ids.subarray(0, this.count).sort();
    let n = 0;
    for (let i = 0; i < sorted.length; i++) if (i === 0 || sorted[i] !== sorted[i - 1]) sorted[n++] = sorted[i]!;
    this.ids = this.ids.slice(0, n);
    this.count = n;
    this.lats = new Int32Array(n).fill(NodeLocations.MISSING);
    this.lons = new Int32Array(n);
    this.sealed = true;
  }

  get size(): number {
    return this.count;
  }

  /** Records a node's coordinates when it is needed. */
  set(id: number, lat: number, lon: number): void {
    let i = this.cursor;
    const ids = this.ids;
    if (i > 0 && ids[i - 1]! >= id) i = this.find(id);
    else while (i < this.count && ids[i]! < id) i++;
    this.cursor = i;
    if (i < this.count && ids[i] === id) {
      this.lats[i] = Math.round(lat * 1e7);
      this.lons[i] = Math.round(lon * 1e7);
    }
  }

  /** [lat, lon] of a needed node found in the file, else undefined. */
  get(id: number): [number, number] | undefined {
    const i = this.indexOf(id);
    return i < 0 ? undefined : [this.lats[i]! / 1e7, this.lons[i]! / 1e7];
  }

  /**
   * Where a needed node found in the file is kept (for latAt / lonAt), else -1. A way's nodes
   * mostly have consecutive ids (drawn one after the other): the place next to the last one
   * found is tried before a binary search.
   */
  indexOf(id: number): number {
    const ids = this.ids;
    let i = this.last + 1;
    if (!(i < this.count && ids[i] === id)) {
      i = this.last;
      if (!(i >= 0 && i < this.count && ids[i] === id)) i = this.find(id);
    }
    if (i >= this.count || ids[i] !== id || this.lats[i] === NodeLocations.MISSING) return -1;
    this.last = i;
    return i;
  }

  latAt(i: number): number {
    return this.lats[i]! / 1e7;
  }

  lonAt(i: number): number {
    return this.lons[i]! / 1e7;
  }

  /** First position whose id is >= `id`. */
  private find(id: number): number {
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
