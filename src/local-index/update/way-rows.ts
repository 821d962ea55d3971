import type { WayRows } from './osm-state.js';

/**
 * Builds WayRows (osm-state.ts) a way at a time into growing typed arrays: a batch of thousands
 * of ways is a handful of buffers, handed to the writing thread without a copy.
 */
export class WayRowsBuilder {
  private ids = new Float64Array(1024);
  private tags: string[] = [];
  private ends = new Uint32Array(1025);
  private refs = new Float64Array(8192);
  private coords = new Int32Array(16384);
  private n = 0;
  private m = 0;

  get length(): number {
    return this.n;
  }

  /** A way; `coord(i, out, at)` writes node `i`'s latitude and longitude (1e-7 degrees) to `out[at]`, `out[at + 1]`. */
  push(id: number, tags: string, refs: ArrayLike<number>, coord: (i: number, out: Int32Array, at: number) => void): void {
    if (this.n + 1 >= this.ids.length) {
      this.ids = grow(this.ids, this.ids.length * 2);
      this.ends = grow(this.ends, this.ids.length + 1);
    }
    const need = this.m + refs.length;
    if (need > this.refs.length) {
      const size = Math.max(need, this.refs.length * 2);
      this.refs = grow(this.refs, size);
      this.coords = grow(this.coords, size * 2);
    }
    for (let i = 0; i < refs.length; i++) {
      this.refs[this.m + i] = refs[i]!;
      coord(i, this.coords, (this.m + i) * 2);
    }
    this.ids[this.n] = id;
    this.tags.push(tags);
    this.m = need;
    this.ends[++this.n] = this.m;
  }

  /** The ways pushed since the last take, in buffers of their own. */
  take(): WayRows {
    const rows: WayRows = {
      ids: this.ids.slice(0, this.n),
      tags: this.tags,
      ends: this.ends.slice(0, this.n + 1),
      refs: this.refs.slice(0, this.m),
      coords: this.coords.slice(0, this.m * 2),
    };
    this.tags = [];
    this.n = 0;
    this.m = 0;
    return rows;
  }
}

function grow<T extends Float64Array | Uint32Array | Int32Array>(a: T, size: number): T {
  const out = new (a.constructor as new (n: number) => T)(size);
  out.set(a);
  return out;
}

/** Way `i` of a batch: its id, tags, node ids and coordinates (views, not copies). */
export function wayAt(rows: WayRows, i: number): { id: number; tags: string; refs: Float64Array; coords: Int32Array } {
  const from = rows.ends[i]!;
  const to = rows.ends[i + 1]!;
  return { id: rows.ids[i]!, tags: rows.tags[i]!, refs: rows.refs.subarray(from, to), coords: rows.coords.subarray(from * 2, to * 2) };
}
