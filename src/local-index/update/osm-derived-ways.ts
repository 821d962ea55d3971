import { stateTags, type StoredWay, type Tags } from './osm-state.js';

/**
 * The state keeps three kinds of address objects as ways of their own (osm-state.ts), with what
 * an update needs to place them again beside their tags (keys starting with `@`, never OSM's):
 * - an address multipolygon `r9` as the way `-9`: its outer ways' nodes in one list, and
 *   `@ways` = `11:5;12:7` (each outer way and how many of the nodes are its), so a change of
 *   one outer way replaces just its part;
 * - an interpolation way with `@ends`: the address tags of its numbered nodes by node id, so a
 *   change that names the way but not its end nodes still knows their numbers;
 * - an entrance without a number (osm-entrances.ts) `n5` as the way `-(1e15 + 5)` of that one
 *   node, tagged `@entrance`: a change of its building (found by its nodes) places it again.
 */

/** Entrance pseudo-ways' ids lie below this (OSM ids stay far under 1e15; relations' are small). */
const ENTRANCE_OFFSET = 1e15;
export const entranceWayId = (node: number): number => -(ENTRANCE_OFFSET + node);
/** The entrance node of a pseudo-way id; undefined for any other id. */
export const entranceNode = (id: number): number | undefined => (id <= -ENTRANCE_OFFSET ? -id - ENTRANCE_OFFSET : undefined);

/** An entrance as the state keeps it. */
export const entranceWay = (node: number, tags: Tags): StoredWay => ({ tags: { ...tags, '@entrance': '1' }, refs: [node] });

/** An address multipolygon as the state keeps it; a member way whose nodes are unknown adds none. */
export function areaWay(tags: Tags, members: number[], refsOf: (way: number) => number[] | undefined): StoredWay {
  const parts = members.map((w) => [w, refsOf(w) ?? []] as const);
  return { tags: { ...stateTags(tags), '@ways': parts.map(([w, r]) => `${w}:${r.length}`).join(';') }, refs: parts.flatMap(([, r]) => r) };
}

/** The outer ways of a stored address multipolygon, each with its nodes. */
export function areaMembers(way: StoredWay): Map<number, number[]> {
  const out = new Map<number, number[]>();
  let at = 0;
  for (const part of (way.tags['@ways'] ?? '').split(';').filter(Boolean)) {
    const [id, count] = part.split(':').map(Number) as [number, number];
    out.set(id, way.refs.slice(at, (at += count)));
  }
  return out;
}

/** The numbered nodes' address tags an interpolation way was stored with, by node id. */
export const storedEnds = (way: StoredWay): Record<string, Tags> => (way.tags['@ends'] ? (JSON.parse(way.tags['@ends']) as Record<string, Tags>) : {});

/** An interpolation way with the address tags of its numbered nodes (`numbered` gives them, undefined for a node without a number). */
export function withEnds(way: StoredWay, numbered: (id: number) => Tags | undefined): StoredWay {
  const ends: Record<string, Tags> = {};
  for (const ref of way.refs) {
    const t = numbered(ref);
    if (t) ends[ref] = t;
  }
  const { '@ends': _, ...tags } = way.tags;
  return { tags: { ...tags, '@ends': JSON.stringify(ends) }, refs: way.refs };
}
