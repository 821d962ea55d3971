import type { OsmRelation } from 'osm-pbf-parser';
import { makeArea } from '../import/osm-areas.js';
import { relationRings } from '../import/osm-rings.js';
import { placeNodeOf } from '../import/osm-place-nodes.js';
import { isInterpolation } from '../import/osm-interpolation.js';
import { addressAreaWays, NODE_PASS_BUDGET, NodeFilter } from '../import/osm-pbf.js';
import { isBareEntrance } from '../import/osm-entrances.js';
import { addrTags } from '../import/osm-rows.js';
import { boundaryOf, type Boundary } from '../import/osm-places.js';
import type { OsmStateTap } from '../import/osm-state-tap.js';
import { SortedIds } from '../import/sorted-ids.js';
import { areaWay, entranceWay, entranceWayId, withEnds } from './osm-derived-ways.js';
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
 * What later updates of an extract need (osm-state.ts), gathered from the elements a reader
 * hands it, in the file's passes: every way and relation (pass 1), the member ways (pass 2), then
 * the nodes. The same gathering serves the state's own reader (state-reader.ts) and the import's
 * (osm-pbf.ts, through `OsmStateTap`), which then decodes the file once for both. Batches come
 * out in the order a StateRecorder writes them: ways, nodes, the ways that wait for nodes, areas.
 */
export class StateCollector implements OsmStateTap {
  private readonly budget: number;
  private filter: NodeFilter | undefined = new NodeFilter();
  private exact: SortedIds | undefined = new SortedIds();
  private readonly boundaries: { id: number; boundary: Boundary; ways: number[] }[] = [];
  private readonly memberWays = new Set<number>();
  // Address multipolygons (recorded as ways `-id` once their outer ways are read) and
  // interpolation ways (recorded with their numbered nodes' tags once the nodes are read).
  private readonly addressAreas: { id: number; tags: Tags; ways: number[] }[] = [];
  private readonly interpolations: StoredWayRow[] = [];
  private ways: StoredWayRow[] = [];
  private wayCount = 0;
  private readonly memberRefs = new Map<number, number[]>();
  private readonly boundaryNodes = new Set<number>();
  private known: SortedIds | undefined;
  private uses: (id: number) => boolean = () => false;
  private readonly ends = new Map<number, Tags>();
  // Entrances without a number on a recorded way (with the bitset a few others get through: they find no building).
  private readonly entrances: StoredWayRow[] = [];
  private endNodes = new Set<number>();
  private readonly coords = new Map<number, [number, number]>();
  // Place nodes name the town where no boundary does (osm-place-nodes.ts).
  private readonly places: StoredArea[] = [];
  private nodes: PackedNodes | undefined;
  private out: StateBatch[] = [];

  constructor(opts: StateReadOptions = {}) {
    this.budget = opts.exactNodeBudget ?? NODE_PASS_BUDGET;
  }

  private use(ref: number): void {
    this.filter?.add(ref);
    if (this.exact && this.exact.size >= this.budget) this.exact = undefined;
    this.exact?.add(ref);
  }

  /** Pass 1: a tagged way (`tags` as the file has them; `refs` read only for a way the state keeps). */
  way(id: number, tags: Tags, refs: () => number[]): void {
    if (!tracked(tags)) return;
    const row = { id, tags: stateTags(tags), refs: refs() };
    for (const ref of row.refs) this.use(ref);
    this.wayCount++;
    if (isInterpolation(tags)) this.interpolations.push(row);
    else this.ways.push(row);
    if (this.ways.length >= BATCH) this.flushWays();
  }

  private flushWays(): void {
    if (this.ways.length > 0) this.out.push({ kind: 'ways', rows: encodeWays(this.ways) });
    this.ways = [];
  }

  /** Pass 1: a relation (boundaries, address multipolygons). */
  relation(item: OsmRelation): void {
    const area = addressAreaWays(item);
    if (area) {
      this.addressAreas.push({ id: item.id, tags: item.tags, ways: area });
      for (const id of area) this.memberWays.add(id);
    }
    const boundary = boundaryOf(item.tags);
    const members = item.members.filter((m) => m.type === 'way' && m.role !== 'subarea').map((m) => m.id);
    if (!boundary || members.length === 0) return;
    this.boundaries.push({ id: item.id, boundary, ways: members });
    for (const id of members) this.memberWays.add(id);
  }

  /** After pass 1: whether pass 2 must run for the state (relations with member ways). */
  get needsMemberWays(): boolean {
    return this.memberWays.size > 0;
  }

  /** Pass 2: whether the state wants this way's node list. */
  wantsMemberWay(id: number): boolean {
    return this.memberWays.has(id);
  }

  /** Pass 2: a member way's node list. */
  memberWay(id: number, refs: number[]): void {
    this.memberRefs.set(id, refs);
    for (const ref of refs) this.boundaryNodes.add(ref);
  }

  /** After pass 2: the address multipolygons become ways, and the node set is fixed. */
  endWays(): void {
    this.flushWays();
    const areaWays = this.addressAreas.map((a) => ({ id: -a.id, ...areaWay(a.tags, a.ways, (w) => this.memberRefs.get(w)) }));
    for (const a of areaWays) for (const ref of a.refs) this.use(ref);
    if (areaWays.length > 0) this.out.push({ kind: 'ways', rows: encodeWays(areaWays) });
    this.wayCount += areaWays.length;
    const known = this.exact;
    this.known = known;
    known?.seal();
    const filter = this.filter;
    this.uses = known ? (id: number) => known.seek(id) >= 0 : (id: number) => filter?.has(id) ?? false;
    this.endNodes = new Set(this.interpolations.flatMap((w) => w.refs));
    if (this.needsNodes) this.nodes = new PackedNodes();
  }

  /** After pass 2: whether a node pass must run for the state. */
  get needsNodes(): boolean {
    return this.wayCount > 0 || this.boundaries.length > 0;
  }

  /** The node pass: every node of the file, in file order (`tags` for tagged nodes). */
  node(id: number, lat: number, lon: number, tags: Tags | undefined): void {
    const nodes = this.nodes;
    if (!nodes) return;
    if (this.boundaryNodes.has(id)) this.coords.set(id, [lat, lon]);
    const place = tags?.place ? placeNodeOf(tags) : undefined;
    if (place) this.places.push({ id: -id, value: { kind: 'place', ...place }, rings: [[[lat, lon]]] });
    if (tags?.['addr:housenumber'] && this.endNodes.has(id)) this.ends.set(id, addrTags(tags));
    if (!this.uses(id)) return;
    if (tags && isBareEntrance(tags)) this.entrances.push({ id: entranceWayId(id), ...entranceWay(id, addrTags(tags)) });
    // As the import keeps a way's nodes (osm-node-locations.ts): a moved way is placed to the bit.
    nodes.push(id, Math.round(lat * 1e7) / 1e7, Math.round(lon * 1e7) / 1e7);
    if (nodes.length >= NODE_BATCH) this.out.push({ kind: 'nodes', packed: nodes.take(), exact: this.known !== undefined });
  }

  /** After the node pass (or at once when none ran): the last ways and the areas. */
  end(): void {
    if (this.nodes && this.nodes.length > 0) this.out.push({ kind: 'nodes', packed: this.nodes.take(), exact: this.known !== undefined });
    const withEndTags = this.interpolations.map((w) => ({ id: w.id, ...withEnds(w, (ref) => this.ends.get(ref)) }));
    // Entrances' nodes are kept: the building ways they are on use them.
    if (withEndTags.length + this.entrances.length > 0) this.out.push({ kind: 'ways', rows: encodeWays([...withEndTags, ...this.entrances]) });
    this.wayCount += this.entrances.length;
    // The areas as the import builds them (osm-boundary-areas.ts, osm-rings.ts); one that does not close is left out.
    const areas: StoredArea[] = [...this.places];
    for (const b of this.boundaries) {
      const built = relationRings(b.ways, (id) => this.memberRefs.get(id), (id) => this.coords.get(id));
      if ('rings' in built && makeArea(b.boundary, built.rings)) areas.push({ id: b.id, value: b.boundary, rings: built.rings });
    }
    this.out.push({ kind: 'areas', rows: areas, ways: this.wayCount });
    this.release();
  }

  /**
   * What the gathering held goes once its batches are out: beside an import the collector lives
   * until the last row is written, and its node sets (the screening bitset alone is 16 MiB) would
   * stay through the import's own busiest part.
   */
  private release(): void {
    this.filter = undefined;
    this.exact = this.known = undefined;
    this.uses = () => false;
    this.nodes = undefined;
    for (const held of [this.memberRefs, this.coords, this.ends]) held.clear();
    this.boundaryNodes.clear();
    this.endNodes = new Set();
    for (const list of [this.boundaries, this.addressAreas, this.interpolations, this.entrances, this.places]) list.length = 0;
  }

  /** Whether batches wait to be taken. */
  get pending(): boolean {
    return this.out.length > 0;
  }

  /** The batches gathered since the last call. */
  take(): StateBatch[] {
    const out = this.out;
    this.out = [];
    return out;
  }
}
