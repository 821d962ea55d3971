import type { WayRows } from './osm-state.js';
import { MISSING } from './way-coords.js';
import { wayAt } from './way-rows.js';

/** COPY's binary format: its signature, flags and header extension length; the end marker. */
const HEADER = Buffer.concat([Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1'), Buffer.alloc(8)]);
const END = 0xffff;
/** Element types of the arrays (pg_type oids): bigint, integer. */
const INT8 = 20;
const INT4 = 23;

/**
 * Ways as rows of `local_osm_ways (id, tags, refs, coords)` in COPY's binary format: the node lists
 * and coordinates go as binary arrays, where the text form had the server parse ten million array
 * elements of a country's state back into numbers (array_in per element: most of the state's
 * server CPU). Ids must be integers within ±2^53.
 */
export function binaryWays(rows: WayRows): Buffer {
  const n = rows.ids.length;
  const tags = rows.tags.map((t) => Buffer.from(t, 'utf8'));
  // A row: its field count; id; tags; refs (header 20 bytes, 12 an element); coords (20, 8 an element).
  let size = HEADER.length + 2;
  for (let i = 0; i < n; i++) {
    const nodes = rows.ends[i + 1]! - rows.ends[i]!;
    size += 2 + 12 + 4 + tags[i]!.length + 4 + 20 + nodes * 12 + 4 + 20 + nodes * 16;
  }
  const out = Buffer.allocUnsafe(size);
  HEADER.copy(out, 0);
  let at = HEADER.length;
  const int8 = (v: number) => {
    // As two 32-bit halves (exact for |v| < 2^53; a negative value's high half is negative).
    out.writeInt32BE(Math.floor(v / 2 ** 32), at);
    out.writeUInt32BE(v >>> 0, at + 4);
    at += 8;
  };
  const int4 = (v: number) => {
    out.writeInt32BE(v, at);
    at += 4;
  };
  /** A one-dimensional array's header (an empty one has no dimension). */
  const arrayHeader = (bytes: number, elements: number, nulls: boolean, oid: number) => {
    int4(bytes);
    int4(elements > 0 ? 1 : 0);
    int4(nulls ? 1 : 0);
    int4(oid);
    if (elements > 0) {
      int4(elements);
      int4(1);
    }
  };
  for (let i = 0; i < n; i++) {
    const w = wayAt(rows, i);
    const nodes = w.refs.length;
    out.writeInt16BE(4, at);
    at += 2;
    int4(8);
    int8(w.id);
    int4(tags[i]!.length);
    tags[i]!.copy(out, at);
    at += tags[i]!.length;
    arrayHeader(nodes > 0 ? 20 + nodes * 12 : 12, nodes, false, INT8);
    for (let k = 0; k < nodes; k++) {
      int4(8);
      int8(w.refs[k]!);
    }
    let missing = 0;
    for (let k = 0; k < nodes * 2; k++) if (w.coords[k] === MISSING) missing++;
    arrayHeader(nodes > 0 ? 20 + nodes * 16 - missing * 4 : 12, nodes * 2, missing > 0, INT4);
    for (let k = 0; k < nodes * 2; k++) {
      const v = w.coords[k]!;
      if (v === MISSING) int4(-1);
      else {
        int4(4);
        int4(v);
      }
    }
  }
  out.writeUInt16BE(END, at);
  return out.subarray(0, at + 2);
}
