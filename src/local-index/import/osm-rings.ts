/**
 * Rings of an OSM area relation as osmium's multipolygon assembler builds them: from the
 * member ways' segments, not their ends, so ways in any order and direction, rings made of
 * many ways, several outers, inners and rings that touch (at a node or along a way shared
 * twice) all close. A segment drawn twice cancels out, as in osmium; every node must then be
 * met by an even number of segments, or the relation cannot be closed (a boundary cut by the
 * extract's edge, a member way missing): it is reported, never closed by a guess.
 */

/** Closed rings of node ids (first = last), or why the relation cannot be closed. */
export type Assembled = { rings: number[][] } | { error: string };

/** Segments are keyed by their two node ids, smaller first. */
const segmentKey = (a: number, b: number) => (a < b ? `${a},${b}` : `${b},${a}`);

/**
 * Joins the member ways (node id lists) of one relation into closed rings. With every node
 * of even degree, a walk along unused segments can only stop where it started, so each walk
 * is a ring; how touching rings are split among walks changes nothing for even-odd tests.
 */
export function assembleRings(ways: readonly (readonly number[])[]): Assembled {
  const count = new Map<string, [number, number, number]>();
  for (const w of ways) {
    for (let i = 1; i < w.length; i++) {
      const [a, b] = [w[i - 1]!, w[i]!];
      if (a === b) continue;
      const key = segmentKey(a, b);
      const c = count.get(key);
      if (c) c[2]++;
      else count.set(key, [a, b, 1]);
    }
  }
  const ends: number[] = [];
  for (const [a, b, n] of count.values()) if (n % 2 === 1) ends.push(a, b);
  if (ends.length === 0) return ways.length === 0 ? { error: 'no member ways' } : { error: 'no segment left once shared ones cancel out' };
  const at = new Map<number, number[]>();
  for (let s = 0; s < ends.length / 2; s++) {
    for (const node of [ends[2 * s]!, ends[2 * s + 1]!]) {
      const list = at.get(node);
      if (list) list.push(s);
      else at.set(node, [s]);
    }
  }
  const open = [...at].filter(([, segments]) => segments.length % 2 === 1).map(([node]) => node);
  if (open.length > 0) return { error: `ring not closed at node${open.length > 1 ? 's' : ''} ${open.slice(0, 4).map((n) => `n${n}`).join(', ')}${open.length > 4 ? ', …' : ''}` };
  const used = new Uint8Array(ends.length / 2);
  const rings: number[][] = [];
  for (let first = 0; first < used.length; first++) {
    if (used[first]) continue;
    used[first] = 1;
    const start = ends[2 * first]!;
    const ring = [start];
    let node = ends[2 * first + 1]!;
    while (node !== start) {
      ring.push(node);
      const list = at.get(node)!;
      let next = list.pop();
      while (next !== undefined && used[next]) next = list.pop();
      // Cannot happen with even degrees; kept as a guard against an endless loop.
      if (next === undefined) return { error: `ring not closed at node n${node}` };
      used[next] = 1;
      node = ends[2 * next] === node ? ends[2 * next + 1]! : ends[2 * next]!;
    }
    ring.push(start);
    if (ring.length >= 4) rings.push(ring);
  }
  return { rings };
}

/** A relation's rings as coordinates, or why it has none: a member way or node missing from the file, a ring left open. */
export function relationRings(
  ways: readonly number[],
  refsOf: (way: number) => readonly number[] | undefined,
  node: (id: number) => [number, number] | undefined,
): { rings: [number, number][][] } | { error: string } {
  const lists: (readonly number[])[] = [];
  const missing: number[] = [];
  for (const id of ways) {
    const refs = refsOf(id);
    if (refs) lists.push(refs);
    else missing.push(id);
  }
  if (missing.length > 0) return { error: `member way${missing.length > 1 ? 's' : ''} ${missing.slice(0, 4).map((w) => `w${w}`).join(', ')}${missing.length > 4 ? ', …' : ''} not in the file` };
  const assembled = assembleRings(lists);
  if ('error' in assembled) return assembled;
  const rings: [number, number][][] = [];
  for (const ring of assembled.rings) {
    const points: [number, number][] = [];
    for (const id of ring) {
      const c = node(id);
      if (!c) return { error: `node n${id} not in the file` };
      points.push(c);
    }
    rings.push(points);
  }
  return { rings };
}
