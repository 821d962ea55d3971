/**
 * A way's nodes' coordinates as the state keeps them, in the way's own row beside its node list
 * (osm-state.ts): for each node, in the list's order, latitude and longitude in integer 1e-7
 * degrees (OSM's own precision, what the import places a way with: osm-node-locations.ts). A node
 * the extract lacks is MISSING in both. No row per node: a recording writes one row a way, and a
 * node two ways share is kept in both (an update that moves it writes both).
 */
export const MISSING = -0x80000000;

/** Degrees to integer 1e-7 degrees. */
export const toE7 = (v: number): number => Math.round(v * 1e7);

/** The point of node `i` of a way's coordinates, undefined where it is MISSING. */
export function pointAt(coords: Int32Array, i: number): [number, number] | undefined {
  const lat = coords[i * 2];
  return lat === undefined || lat === MISSING ? undefined : [lat / 1e7, coords[i * 2 + 1]! / 1e7];
}

/** Coordinates of `refs` from points by node id (`at`), MISSING where it gives none. */
export function coordsOf(refs: readonly number[], at: (id: number) => [number, number] | undefined): Int32Array {
  const out = new Int32Array(refs.length * 2).fill(MISSING);
  refs.forEach((ref, i) => {
    const p = at(ref);
    if (p) [out[i * 2], out[i * 2 + 1]] = [toE7(p[0]), toE7(p[1])];
  });
  return out;
}

/**
 * SQLite keeps the coordinates as a BLOB of the Int32Array's bytes (little-endian, as every
 * platform Node runs on stores them): written and read without any text.
 */
export const coordsBlob = (coords: Int32Array): Buffer => Buffer.from(coords.buffer, coords.byteOffset, coords.byteLength);

/** A stored BLOB back as coordinates; a row without any (none stored) has every node MISSING. */
export function coordsFromBlob(blob: Buffer | null, nodes: number): Int32Array {
  if (blob === null || blob.length !== nodes * 8) return new Int32Array(nodes * 2).fill(MISSING);
  // Copied: the Buffer's offset need not be a multiple of four.
  const out = new Int32Array(nodes * 2);
  new Uint8Array(out.buffer).set(blob);
  return out;
}

/** PostgreSQL keeps them as an `integer[]`: this is its text form (COPY, or a parameter cast), NULL where MISSING. */
export function coordsLiteral(coords: Int32Array): string {
  let out = '{';
  for (let i = 0; i < coords.length; i++) {
    const v = coords[i]!;
    out += (i > 0 ? ',' : '') + (v === MISSING ? 'NULL' : String(v));
  }
  return `${out}}`;
}

/** An `integer[]` as node-postgres reads it, back as coordinates. */
export function coordsFromArray(values: (number | null)[] | null, nodes: number): Int32Array {
  const out = new Int32Array(nodes * 2).fill(MISSING);
  if (values === null || values.length !== nodes * 2) return out;
  values.forEach((v, i) => (out[i] = v ?? MISSING));
  return out;
}

/** Node ids `[1,2,3]` (SQLite's JSON) and `{1,2,3}` (PostgreSQL's array text). */
export const refsJson = (refs: ArrayLike<number>): string => `[${Array.prototype.join.call(refs, ',')}]`;
export const refsLiteral = (refs: ArrayLike<number>): string => `{${Array.prototype.join.call(refs, ',')}}`;

/** A stored way's node list and coordinates, as either store reads them back. */
export interface WayPoints {
  refs: ArrayLike<number>;
  coords: Int32Array;
}

/** Coordinates of the nodes `ids` as the ways that use them hold them (a node two ways share: the first's). */
export function pointsOf(ways: Iterable<WayPoints>, ids: Iterable<number>): Map<number, [number, number]> {
  const wanted = new Set(ids);
  const out = new Map<number, [number, number]>();
  for (const w of ways) {
    for (let i = 0; i < w.refs.length; i++) {
      const ref = w.refs[i]!;
      const p = wanted.has(ref) && !out.has(ref) ? pointAt(w.coords, i) : undefined;
      if (p) out.set(ref, p);
    }
  }
  return out;
}

/** Writes the moved nodes' new coordinates into a way's (in place); whether any changed. */
export function moveNodes(way: WayPoints, moved: ReadonlyMap<number, [number, number]>): boolean {
  let changed = false;
  for (let i = 0; i < way.refs.length; i++) {
    const p = moved.get(way.refs[i]!);
    if (!p) continue;
    const [lat, lng] = [toE7(p[0]), toE7(p[1])];
    changed ||= way.coords[i * 2] !== lat || way.coords[i * 2 + 1] !== lng;
    [way.coords[i * 2], way.coords[i * 2 + 1]] = [lat, lng];
  }
  return changed;
}
