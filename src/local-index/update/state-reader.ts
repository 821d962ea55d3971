import { makeArea } from '../import/osm-areas.js';
import { relationRings } from '../import/osm-rings.js';
import { placeNodeOf } from '../import/osm-place-nodes.js';
import { isInterpolation } from '../import/osm-interpolation.js';
import { addressAreaWays, NODE_PASS_BUDGET, NodeFilter } from '../import/osm-pbf.js';
import { isBareEntrance } from '../import/osm-entrances.js';
import { addrTags } from '../import/osm-rows.js';
import { boundaryOf, type Boundary } from '../import/osm-places.js';
import { checkPbfHeader } from '../import/pbf-blocks.js';
import { nodePass } from '../import/pbf-dense.js';
import { wayPass, WaysStart, type WayLike } from '../import/pbf-ways.js';
import type { OsmRelation } from 'osm-pbf-parser';
import { areaWay, entranceWay, entranceWayId, withEnds } from './osm-derived-ways.js';
import { SortedIds } from '../import/sorted-ids.js';
import { encodeWays, stateTags, tracked, type StateBatch, type StoredArea, type StoredWayRow, type Tags } from './osm-state.js';

const BATCH = 5000;
/**
 * Nodes go in larger batches than ways: a batch is one COPY (binary, 38 bytes a node), and a
 * country has four node rows per way; at 5,000 a batch the per-COPY round trip and setup cost
 * the server about 5 % of the recording's CPU. 50,000 is under 2 MiB a batch.
 */
const NODE_BATCH = 50_000;

/** Node coordinates, packed `id, lat, lng` (a typed array: handed between threads without copying each node). */
class PackedNodes {
  private buf = new Float64Array(NODE_BATCH * 3);
  private n = 0;
  push(id: number, lat: number, lng: number): void {
    const at = this.n * 3;
    if (at + 3 > this.buf.length) {
      const grown = new Float64Array(this.buf.length * 2);
      grown.set(this.buf);
      this.buf = grown;
    }
    this.buf[at] = id;
    this.buf[at + 1] = lat;
    this.buf[at + 2] = lng;
    this.n++;
  }
  get length(): number {
    return this.n;
  }
  take(): Float64Array {
    const out = this.buf.slice(0, this.n * 3);
    this.n = 0;
    return out;
  }
}

export interface StateReadOptions {
  /**
   * Up to this many node references of recorded ways, the node ids they use are kept in a sorted
   * set (8 bytes a reference) and exactly those nodes are sent (`exact`): the store writes them
   * straight into place. Beyond it, a 16 MiB bitset screens them (lossy) and the store keeps the
   * used ones at commit.
   */
  exactNodeBudget?: number;
}

/**
 * What later updates of this extract need (osm-state.ts), read from the PBF file the index is
 * built from: every element (address and building ways, boundary relations), then ways (the
 * boundaries' member ways), then nodes (the coordinates of both). It yields batches for a
 * StateRecorder and writes nothing itself, so it can run on a thread of its own beside the
 * import (state-worker.ts). Each way is yielded once.
 */
export async function* readOsmState(path: string, opts: StateReadOptions = {}): AsyncGenerator<StateBatch> {
  await checkPbfHeader(path);
  const budget = opts.exactNodeBudget ?? NODE_PASS_BUDGET;
  const filter = new NodeFilter();
  let exact: SortedIds | undefined = new SortedIds();
  const use = (ref: number) => {
    filter.add(ref);
    if (exact && exact.size >= budget) exact = undefined;
    exact?.add(ref);
  };
  const boundaries: { id: number; boundary: Boundary; ways: number[] }[] = [];
  const memberWays = new Set<number>();
  // Address multipolygons (recorded as ways `-id` once their outer ways are read) and
  // interpolation ways (recorded with their numbered nodes' tags once the nodes are read).
  const addressAreas: { id: number; tags: Tags; ways: number[] }[] = [];
  const interpolations: StoredWayRow[] = [];
  let ways: StoredWayRow[] = [];
  let wayCount = 0;
  const relation = (item: OsmRelation) => {
    const area = addressAreaWays(item);
    if (area) {
      addressAreas.push({ id: item.id, tags: item.tags, ways: area });
      for (const id of area) memberWays.add(id);
    }
    const boundary = boundaryOf(item.tags);
    const members = item.members.filter((m) => m.type === 'way' && m.role !== 'subarea').map((m) => m.id);
    if (!boundary || members.length === 0) return;
    boundaries.push({ id: item.id, boundary, ways: members });
    for (const id of members) memberWays.add(id);
  };
  const way = (w: WayLike) => {
    if (!w.tagged) return;
    const tags = w.tags();
    if (!tracked(tags)) return;
    const row = { id: w.id, tags: stateTags(tags), refs: w.refs() };
    for (const ref of row.refs) use(ref);
    wayCount++;
    if (isInterpolation(tags)) interpolations.push(row);
    else ways.push(row);
  };
  // The first pass notes where the node blocks end; the second skips them unread.
  const start = new WaysStart();
  for await (const _ of wayPass(path, way, { relation, from: start })) {
    if (ways.length >= BATCH) {
      yield { kind: 'ways', rows: encodeWays(ways) };
      ways = [];
    }
  }
  if (ways.length > 0) yield { kind: 'ways', rows: encodeWays(ways) };

  const memberRefs = new Map<number, number[]>();
  const boundaryNodes = new Set<number>();
  if (memberWays.size > 0) {
    for await (const _ of wayPass(path, (w) => {
      if (!memberWays.has(w.id)) return;
      const refs = w.refs();
      memberRefs.set(w.id, refs);
      for (const ref of refs) boundaryNodes.add(ref);
    }, { from: start }));
  }
  const areaWays = addressAreas.map((a) => ({ id: -a.id, ...areaWay(a.tags, a.ways, (w) => memberRefs.get(w)) }));
  for (const a of areaWays) for (const ref of a.refs) use(ref);
  if (areaWays.length > 0) yield { kind: 'ways', rows: encodeWays(areaWays) };
  wayCount += areaWays.length;
  const known: SortedIds | undefined = exact;
  known?.seal();
  const uses = known ? (id: number) => known.seek(id) >= 0 : (id: number) => filter.has(id);
  const ends = new Map<number, Tags>();
  // Entrances without a number on a recorded way (with the bitset a few others get through: they find no building).
  const entrances: StoredWayRow[] = [];
  const endNodes = new Set(interpolations.flatMap((w) => w.refs));
  const coords = new Map<number, [number, number]>();
  // Place nodes name the town where no boundary does (osm-place-nodes.ts).
  const places: StoredArea[] = [];
  if (wayCount > 0 || boundaries.length > 0) {
    const nodes = new PackedNodes();
    for await (const _ of nodePass(path, (id, lat, lon, tags) => {
      if (boundaryNodes.has(id)) coords.set(id, [lat, lon]);
      const place = tags?.place ? placeNodeOf(tags) : undefined;
      if (place) places.push({ id: -id, value: { kind: 'place', ...place }, rings: [[[lat, lon]]] });
      if (tags?.['addr:housenumber'] && endNodes.has(id)) ends.set(id, addrTags(tags));
      if (!uses(id)) return;
      if (tags && isBareEntrance(tags)) entrances.push({ id: entranceWayId(id), ...entranceWay(id, addrTags(tags)) });
      // As the import keeps a way's nodes (osm-node-locations.ts): a moved way is placed to the bit.
      nodes.push(id, Math.round(lat * 1e7) / 1e7, Math.round(lon * 1e7) / 1e7);
    })) {
      if (nodes.length >= NODE_BATCH) yield { kind: 'nodes', packed: nodes.take(), exact: known !== undefined };
    }
    if (nodes.length > 0) yield { kind: 'nodes', packed: nodes.take(), exact: known !== undefined };
  }
  const withEndTags = interpolations.map((w) => ({ id: w.id, ...withEnds(w, (ref) => ends.get(ref)) }));
  // Entrances' nodes are kept: the building ways they are on use them.
  if (withEndTags.length + entrances.length > 0) yield { kind: 'ways', rows: encodeWays([...withEndTags, ...entrances]) };
  wayCount += entrances.length;

  // The areas as the import builds them (osm-boundary-areas.ts, osm-rings.ts); one that does not close is left out.
  const areas: StoredArea[] = [...places];
  for (const b of boundaries) {
    const built = relationRings(b.ways, (id) => memberRefs.get(id), (id) => coords.get(id));
    if ('rings' in built && makeArea(b.boundary, built.rings)) areas.push({ id: b.id, value: b.boundary, rings: built.rings });
  }
  yield { kind: 'areas', rows: areas, ways: wayCount };
}
