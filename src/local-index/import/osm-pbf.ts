import Database from 'better-sqlite3';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ReaderItem } from '../types.js';
import type { StateBatch } from '../update/osm-state.js';
import { BoundaryCollector } from './osm-boundary-areas.js';
import { checkPbfHeader, pbfBlocks, PbfDecoder } from './pbf-blocks.js';
import { nodePass, readNodes } from './pbf-dense.js';
import { readWays, wayPass, WaysStart, type WayLike } from './pbf-ways.js';
import type { OsmRelation } from 'osm-pbf-parser';
import { NodeLocations } from './osm-node-locations.js';
import { hasAddress } from './osm-address-forms.js';
import { entranceTags, isBareEntrance } from './osm-entrances.js';
import { isInterpolation } from './osm-interpolation.js';
import { addrTags, interpolationRows, isAddrKey, osmRows } from './osm-rows.js';
import { type PlaceNode, placeNodeOf } from './osm-place-nodes.js';
import { PlaceLocator } from './osm-places.js';
import { StateRows } from './osm-state-rows.js';
import { StagedRefs } from './staged-refs.js';
import { areaWay, entranceWay, entranceWayId, withEnds } from '../update/osm-derived-ways.js';
import { isStateKey, tracked, type StoredArea } from '../update/osm-state.js';

type Tags = Record<string, string>;

/** The mean of a way's distinct nodes found in the file (a closed way lists its first node twice). */
function centre(refs: ArrayLike<number>, locations: NodeLocations): [number, number] | undefined {
  let lat = 0;
  let lng = 0;
  let n = 0;
  // Distinct without a Set per way (millions of them): a way has a handful of nodes, so an earlier
  // occurrence is looked for among them; the sums run in the same order as over a Set.
  const long = refs.length > 64 ? new Set<number>() : undefined;
  for (let i = 0; i < refs.length; i++) {
    const ref = refs[i]!;
    if (long) {
      if (long.has(ref)) continue;
      long.add(ref);
    } else {
      let seen = false;
      for (let j = 0; j < i && !seen; j++) seen = refs[j] === ref;
      if (seen) continue;
    }
    const at = locations.indexOf(ref);
    if (at < 0) continue;
    lat += locations.latAt(at);
    lng += locations.lonAt(at);
    n++;
  }
  return n > 0 ? [lat / n, lng / n] : undefined;
}

/** Ways a staging statement (osm-pbf.ts pass 1). */
const WAY_ROWS = 64;
/** A staged way's columns: id, tags, refs, at, interpolation, row, state, ends. */
const WAY_COLUMNS = 8;

/**
 * A way's tags as JSON, in one walk over them: those its rows read (addrTags: `addr:*`, `is_in*`)
 * and, for the update state (`state`), those it keeps (stateTags: `addr:*`, `building`); in the
 * tags' own order, as the two functions give them. The JSON text is written as it goes, not
 * through an object per way and JSON.stringify (two objects with keys of their own for each of a
 * country's million ways): the same text, since no such key reads as an array index (which an
 * object would put first) and an object's keys are distinct.
 */
export function wayTags(tags: Tags, state: boolean): [string, string | null] {
  let own = '';
  let kept = '';
  for (const k in tags) {
    const isOwn = isAddrKey(k);
    const isKept = state && isStateKey(k);
    if (!isOwn && !isKept) continue;
    const pair = `${quotedKey(k)}:${quotedValue(tags[k]!)}`;
    if (isOwn) own = own === '' ? pair : `${own},${pair}`;
    if (isKept) kept = kept === '' ? pair : `${kept},${pair}`;
  }
  return [`{${own}}`, state ? `{${kept}}` : null];
}

/** Characters a JSON string escapes (quote, backslash, controls) or JSON.stringify writes as an escape (lone surrogates). */
const ESCAPED = /["\\\u0000-\u001f\ud800-\udfff]/;
/** A tag value as JSON: most need no escape, so no second pass over them. */
const quotedValue = (v: string): string => (ESCAPED.test(v) ? JSON.stringify(v) : `"${v}"`);
/** Tag keys as JSON, memoised: a file uses a few hundred keys millions of times. */
const quotedKeys = new Map<string, string>();
function quotedKey(k: string): string {
  let q = quotedKeys.get(k);
  if (q === undefined) {
    q = JSON.stringify(k);
    if (quotedKeys.size < 10_000) quotedKeys.set(k, q);
  }
  return q;
}

/** A way's node list as stored in the staging file: the ids' bytes (no JSON to write and parse twice). */
const packRefs = (refs: number[]): Buffer => Buffer.from(new Float64Array(refs).buffer);
// A view where the bytes sit on an 8-byte boundary (SQLite's blobs arrive in buffers of their own),
// not a copy of each list (the lists past StagedRefs' cap: a large country's).
const unpackRefs = (blob: Buffer): Float64Array =>
  blob.byteOffset % 8 === 0
    ? new Float64Array(blob.buffer, blob.byteOffset, blob.length / 8)
    : new Float64Array(blob.buffer.slice(blob.byteOffset, blob.byteOffset + blob.length));

/** The outer ways of a multipolygon relation with an address (a building with courtyards); undefined for any other relation. */
export function addressAreaWays(relation: { tags: Tags; members: { type: string; id: number; role: string }[] }): number[] | undefined {
  if (relation.tags.type !== 'multipolygon' || !hasAddress(relation.tags)) return undefined;
  return relation.members.filter((m) => m.type === 'way' && (m.role === 'outer' || m.role === '')).map((m) => m.id);
}

/** Bitset over node ids (hashed): a cheap "maybe needed" test in front of the staging table. */
export class NodeFilter {
  private readonly bits = new Uint8Array(1 << 24);
  add(id: number): void {
    const h = id % (1 << 27);
    this.bits[h >> 3]! |= 1 << (h & 7);
  }
  has(id: number): boolean {
    const h = id % (1 << 27);
    return (this.bits[h >> 3]! & (1 << (h & 7))) !== 0;
  }
}

/**
 * Node coordinates one node pass collects for address ways: 16 bytes each, so 32M nodes hold
 * 512 MiB. A file whose address ways need more (a large country: Germany's ~17M building
 * addresses need ~90M nodes) is read in more node passes, one per group of ways, so memory
 * stays bounded whatever the file's size.
 */
export const NODE_PASS_BUDGET = 32_000_000;

export interface OsmReadOptions {
  /** Node references located per node pass (NODE_PASS_BUDGET). */
  nodeBudget?: number;
  /** Gather the `--update` state too (`state` items). */
  recordState?: boolean;
  /** false: the state alone (a recording without an import), no rows made. */
  rows?: boolean;
}

/**
 * OpenStreetMap PBF: nodes, ways and multipolygon relations with an address (osm-rows.ts), and
 * interpolation ways. The file stores nodes, then ways, then relations. Rather than hold it in
 * memory, pass 1 stages the addresses (nodes with their coordinates, ways with their node ids)
 * and the boundary relations in a temporary SQLite file; pass 2 (ways only) stages the boundaries'
 * and address multipolygons' outer ways; node passes then pick up the coordinates of just the
 * nodes those ways need (NodeLocations, off the V8 heap), for the boundaries and for as many
 * address ways as `nodeBudget` allows at a time. The address nodes' rows come once the first node
 * pass has located the boundaries; each way's rows as its group's pass has located its nodes, at
 * their mean (an interpolation way: along them), read from the staging file once. Node blocks are
 * read by pbf-dense.ts without making an object per node; the few other blocks by osm-pbf-parser.
 *
 * `recordState`: the same reading gathers the `--update` state (update/osm-state.ts, yielded as
 * `state` items among the rows): the ways the state follows that are no address (buildings)
 * are staged too, their nodes located with the others', and each way goes out with its nodes'
 * coordinates as its centre is made; the areas, last, are the boundaries the import builds.
 */
export async function* readOsmPbf(path: string, country: string | undefined, onBytes?: (n: number) => void, opts: OsmReadOptions = {}): AsyncGenerator<ReaderItem[]> {
  const { nodeBudget = NODE_PASS_BUDGET, recordState = false, rows: rowsWanted = true } = opts;
  await checkPbfHeader(path);
  const dir = mkdtempSync(join(tmpdir(), 'local-index-osm-'));
  const stage = new Database(join(dir, 'ways.sqlite'));
  try {
    stage.pragma('journal_mode = OFF');
    stage.pragma('synchronous = OFF');
    stage.exec(`CREATE TABLE nodes (id INTEGER PRIMARY KEY, tags TEXT NOT NULL, lat REAL, lng REAL);
                CREATE TABLE ways (id INTEGER PRIMARY KEY, tags TEXT NOT NULL, refs BLOB, at INTEGER, interpolation INTEGER,
                                   row INTEGER NOT NULL, state TEXT, ends INTEGER);
                CREATE TABLE entrances (id INTEGER PRIMARY KEY, tags TEXT NOT NULL, lat REAL, lng REAL, way INTEGER, tracked INTEGER);`);
    const addNode = stage.prepare('INSERT OR REPLACE INTO nodes (id, tags, lat, lng) VALUES (?, ?, ?, ?)');
    // Entrances without a number (osm-entrances.ts) and the first address way found holding each.
    const addEntrance = stage.prepare('INSERT OR REPLACE INTO entrances (id, tags, lat, lng) VALUES (?, ?, ?, ?)');
    const setEntranceWay = stage.prepare('UPDATE entrances SET way = ? WHERE id = ? AND way IS NULL');
    // The state keeps an entrance on any way it follows (a building without an address too).
    const setEntranceTracked = stage.prepare('UPDATE entrances SET tracked = 1 WHERE id = ?');
    const entranceIds = new Set<number>();
    const trackEntrances = (refs: readonly number[]) => {
      if (entranceIds.size > 0) for (const ref of refs) if (entranceIds.has(ref)) setEntranceTracked.run(ref);
    };
    // Place nodes name the town where no municipality boundary does (osm-place-nodes.ts).
    const placeNodes: [number, number, PlaceNode, number][] = [];
    const node = (id: number, tags: Tags, lat: number, lon: number) => {
      if (tags.place) {
        const place = placeNodeOf(tags);
        if (place) placeNodes.push([lat, lon, place, id]);
      }
      if (hasAddress(tags)) addNode.run(id, JSON.stringify(addrTags(tags)), lat, lon);
      else if (isBareEntrance(tags)) {
        addEntrance.run(id, JSON.stringify(addrTags(tags)), lat, lon);
        entranceIds.add(id);
      }
    };
    // Address ways, interpolation ways, and address multipolygons under their negated id (`r9` is -9).
    // `row`: the way has rows of its own (0: a way only the state follows); `state`: its tags as the
    // state keeps them (when recording), `ends` set where they take its numbered nodes' (osm-derived-ways.ts).
    // Staged WAY_ROWS to a statement: one call into SQLite for a page of a million ways, not one each.
    // A way's node list is kept in memory (`at`, StagedRefs) while half a node pass's budget
    // holds them all, else in the file (`refs`).
    const insertSql = (n: number) =>
      `INSERT OR REPLACE INTO ways (id, tags, refs, at, interpolation, row, state, ends) VALUES ${Array.from({ length: n }, () => '(?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}`;
    const insertWay = stage.prepare(insertSql(1));
    const insertWays = stage.prepare(insertSql(WAY_ROWS));
    const pendingWays: (number | string | Buffer | null)[] = [];
    const stagedRefs = new StagedRefs(Math.floor(nodeBudget / 2));
    // While every staged way's nodes fit one node pass (most files), their ids are gathered as the
    // ways are staged, rather than read back from the staging file afterwards.
    let prefill: NodeLocations | undefined = new NodeLocations();
    let prefilled = 0;
    const addWay = {
      run(id: number, tags: string, refs: number[], interpolation: 1 | null, row: 0 | 1 = 1, state: string | null = null, ends: 1 | null = null) {
        const at = stagedRefs.put(refs);
        pendingWays.push(id, tags, at < 0 ? packRefs(refs) : null, at < 0 ? null : at, interpolation, row, state, ends);
        if (pendingWays.length === WAY_ROWS * WAY_COLUMNS) insertWays.run(pendingWays.splice(0));
        prefilled += refs.length;
        if (prefilled > nodeBudget) prefill = undefined;
        if (prefill) for (const ref of refs) prefill.need(ref);
      },
      /** The ways still waiting for a full statement. */
      flush() {
        for (let i = 0; i < pendingWays.length; i += WAY_COLUMNS) insertWay.run(pendingWays.slice(i, i + WAY_COLUMNS));
        pendingWays.length = 0;
      },
    };
    /** Address multipolygons (buildings with courtyards): their outer ways, whose nodes pass 2 stages. */
    const addressAreas: { id: number; tags: Tags; raw: Tags; ways: number[] }[] = [];
    const areaWays = new Set<number>();
    const boundaries = new BoundaryCollector(stage);
    const boundaryNodes = new NodeLocations();
    // Pass 1 is half of the progress; pass 2 and the first node pass stop early (at the ways, at the relations) and share the rest.
    const size = statSync(path).size;
    const progress = (from: number, share: number) => (n: number) => onBytes?.(Math.round(size * from + n * share));
    const decoder = new PbfDecoder();
    const way = (w: WayLike) => {
      if (!w.tagged) return;
      const tags = w.tags();
      const kept = recordState && tracked(tags);
      const address = hasAddress(tags);
      const interpolation = isInterpolation(tags);
      if (!kept && !address && !interpolation) return;
      const refs = w.refs();
      const [own, state] = wayTags(tags, kept);
      const ends = kept && interpolation ? 1 : null;
      if (address) {
        addWay.run(w.id, own, refs, null, 1, state, ends);
        if (entranceIds.size > 0) for (const ref of refs) if (entranceIds.has(ref)) setEntranceWay.run(w.id, ref);
      } else if (interpolation) addWay.run(w.id, own, refs, 1, 1, state, ends);
      else addWay.run(w.id, '{}', refs, null, 0, state, ends);
      if (kept) trackEntrances(refs);
    };
    const relation = (item: OsmRelation) => {
      boundaries.relation(item);
      const ways = addressAreaWays(item);
      if (ways) addressAreas.push({ id: item.id, tags: addrTags(item.tags), raw: item.tags, ways });
      for (const id of ways ?? []) areaWays.add(id);
    };

    // Pass 1 notes where the node blocks end; pass 2 skips them unread.
    const start = new WaysStart();
    stage.exec('BEGIN');
    for await (const block of pbfBlocks(path, progress(0, 0.5))) {
      const isNodes = readNodes(block, (id, lat, lon, tags) => {
        if (tags) node(id, tags, lat, lon);
      });
      if (isNodes) continue;
      if (block.type === 'OSMData') start.see(block.offset);
      if (readWays(block, way)) continue;
      for (const item of decoder.decode(block)) {
        if (item.type === 'relation') relation(item);
        else if (item.type === 'node') node(item.id, item.tags, item.lat, item.lon);
        else way({ id: item.id, tagged: true, tags: () => item.tags, refs: () => item.refs });
      }
    }
    addWay.flush();
    // Pass 2 also stages the outer ways of address multipolygons: an address at the mean of their nodes.
    const areaRefs = new Map<number, number[]>();
    if (boundaries.size > 0 || addressAreas.length > 0) {
      for await (const _ of wayPass(path, (w) => {
        if (!boundaries.isMember(w.id) && !areaWays.has(w.id)) return;
        const refs = w.refs();
        for (const ref of boundaries.way(w.id, refs) ?? []) boundaryNodes.need(ref);
        if (areaWays.has(w.id)) {
          areaRefs.set(w.id, refs);
          if (recordState) trackEntrances(refs);
        }
      }, { onBytes: progress(0.5, 0.25), from: start }));
    }
    for (const a of addressAreas) {
      const state = recordState ? areaWay(a.raw, a.ways, (w) => areaRefs.get(w)) : undefined;
      addWay.run(-a.id, JSON.stringify(a.tags), a.ways.flatMap((w) => areaRefs.get(w) ?? []), null, 1, state ? JSON.stringify(state.tags) : null);
    }
    addWay.flush();
    boundaryNodes.seal();

    // The state's entrances (ways of their own, below every other id) need no node pass: their point is their node's.
    const gather = recordState ? new StateRows() : undefined;
    // Rows and the state's batches go out together, some 2,000 at a time.
    let batch: ReaderItem[] = [];
    /** The batch, once `items` filled it (the caller yields it), else undefined: a plain call, no generator per row. */
    const take = (items: ReaderItem[]): ReaderItem[] | undefined => {
      for (const item of items) batch.push(item);
      if (batch.length < 2000) return undefined;
      const full = batch;
      batch = [];
      return full;
    };
    const hand = (state: StateBatch | undefined) => {
      if (state) batch.push({ kind: 'state', batch: state });
    };
    if (gather) {
      type Entrance = { id: number; tags: string; lat: number; lng: number };
      for (const e of stage.prepare('SELECT id, tags, lat, lng FROM entrances WHERE tracked ORDER BY id DESC').all() as Entrance[]) {
        hand(gather.point(entranceWayId(e.id), JSON.stringify(entranceWay(e.id, JSON.parse(e.tags) as Tags).tags), e.id, e.lat, e.lng));
      }
      hand(gather.flush());
    }
    const nodeTags = stage.prepare('SELECT tags FROM nodes WHERE id = ?').pluck();
    const numbered = (id: number) => {
      const tags = nodeTags.get(id) as string | undefined;
      return tags === undefined ? undefined : (JSON.parse(tags) as Tags);
    };
    /** An interpolation way's state tags with its numbered nodes' (osm-derived-ways.ts). */
    const withEndTags = (state: string, refs: Float64Array) =>
      JSON.stringify(withEnds({ tags: JSON.parse(state) as Tags, refs: Array.from(refs) }, (id) => {
        const t = numbered(id);
        return t?.['addr:housenumber'] ? t : undefined;
      }).tags);

    // The boundaries, once the first node pass has located their nodes: they place every row.
    let areas: ReturnType<BoundaryCollector['areas']> | undefined;
    let places: PlaceLocator | undefined;
    const locate = () => {
      areas = boundaries.size > 0 ? boundaries.areas((id) => boundaryNodes.get(id)) : undefined;
      places = areas || placeNodes.length > 0 ? new PlaceLocator() : undefined;
      for (const b of areas?.built ?? []) places!.add(b.area);
      for (const [lat, lng, place] of placeNodes) places!.addPlaceNode(lat, lng, place);
      batch.push(...(areas?.unclosed ?? []).map((area): ReaderItem => ({ kind: 'area', area })));
    };
    /** A way's rows, made where its nodes are located (`group`): at their mean, an interpolation way's numbers along it. */
    const wayRows = (id: number, tags: string, refs: Float64Array, interpolation: boolean, group: NodeLocations): ReaderItem[] => {
      const row = id < 0 ? `r${-id}` : `w${id}`;
      if (interpolation) return interpolationRows(row, JSON.parse(tags) as Tags, Array.from(refs), (ref) => group.get(ref), numbered, places, country);
      const c = centre(refs, group);
      if (!c) return [{ kind: 'bad', row, reason: 'unresolved_way', detail: 'none of its nodes is in the file' }];
      return osmRows(row, JSON.parse(tags) as Tags, c[0], c[1], places, country);
    };

    // Address ways in groups of at most `nodeBudget` node references, one node pass per group
    // (the first also fills the boundaries' nodes, before any row: the address nodes' rows come
    // first, then each group's ways' rows as its node pass has located their nodes).
    // Rows as arrays (raw): no object with seven named properties made for each of a million ways.
    const page = stage.prepare('SELECT id, tags, refs, at, interpolation, row, state, ends FROM ways WHERE id > ? ORDER BY id LIMIT 5000').raw();
    type PageRow = [id: number, tags: string, refs: Buffer | null, at: number | null, interpolation: number | null, row: number, state: string | null, ends: number | null];
    const refsOf = (row: PageRow): Float64Array => (row[3] !== null ? stagedRefs.at(row[3]) : unpackRefs(row[2]!));
    let done = Number.MIN_SAFE_INTEGER;
    const lastWay = stage.prepare('SELECT max(id) FROM ways').pluck().get() as number | null;
    for (let pass = 0; ; pass++) {
      const all = pass === 0 ? prefill : undefined;
      const group = all ?? new NodeLocations();
      let end = all && lastWay !== null ? lastWay : done;
      let refs = 0;
      let full = false;
      for (let rows = all ? [] : (page.all(end) as PageRow[]); rows.length > 0 && !full; rows = page.all(end) as PageRow[]) {
        for (const row of rows) {
          const ids = refsOf(row);
          if (refs > 0 && refs + ids.length > nodeBudget) {
            full = true;
            break;
          }
          for (const ref of ids) group.need(ref);
          refs += ids.length;
          end = row[0];
        }
      }
      const first = pass === 0;
      if (end !== done || (first && boundaryNodes.size > 0)) {
        group.seal();
        for await (const _ of nodePass(
          path,
          first && boundaryNodes.size > 0 ? (id, lat, lon) => (group.set(id, lat, lon), boundaryNodes.set(id, lat, lon)) : (id, lat, lon) => group.set(id, lat, lon),
          first ? progress(boundaries.size > 0 ? 0.75 : 0.5, boundaries.size > 0 ? 0.25 : 0.5) : undefined,
        ));
      }
      if (first) {
        locate();
        if (rowsWanted) {
          for (const n of stage.prepare('SELECT id, tags, lat, lng FROM nodes ORDER BY id').iterate() as Iterable<{ id: number; tags: string; lat: number; lng: number }>) {
            const full = take(osmRows(`n${n.id}`, JSON.parse(n.tags) as Tags, n.lat, n.lng, places, country));
            if (full) yield full;
          }
        }
      }
      if (end === done) break;
      for (let at = done, rows = page.all(at) as PageRow[]; rows.length > 0 && at < end; rows = page.all(at) as PageRow[]) {
        for (const row of rows) {
          const [id, tags, , , interpolation, hasRows, state, ends] = row;
          if (id > end) break;
          const refs = refsOf(row);
          at = id;
          if (gather && state !== null) hand(gather.way(id, ends ? withEndTags(state, refs) : state, refs, group));
          const full = hasRows && rowsWanted ? take(wayRows(id, tags, refs, interpolation === 1, group)) : undefined;
          if (full) yield full;
        }
        // The state's batches go out as they fill, rows or not.
        if (!rowsWanted && batch.length > 0) {
          yield batch;
          batch = [];
        }
      }
      done = end;
    }
    onBytes?.(size);

    if (gather) {
      // Place nodes (under their negated id, their point the only ring), then the boundaries, as the update state has always kept them.
      const stored: StoredArea[] = placeNodes.map(([lat, lng, place, id]) => ({ id: -id, value: { kind: 'place', ...place }, rings: [[[lat, lng]]] }));
      for (const b of areas?.built ?? []) stored.push({ id: b.relation, value: b.boundary, rings: b.rings });
      for (const state of gather.end(stored)) hand(state);
    }
    if (rowsWanted) {
      type EntranceRow = { id: number; tags: string; lat: number; lng: number; building: string };
      for (const e of stage.prepare('SELECT e.id, e.tags, e.lat, e.lng, w.tags AS building FROM entrances e JOIN ways w ON w.id = e.way ORDER BY e.id').iterate() as Iterable<EntranceRow>) {
        const full = take(osmRows(`n${e.id}`, entranceTags(JSON.parse(e.building) as Tags, JSON.parse(e.tags) as Tags), e.lat, e.lng, places, country));
        if (full) yield full;
      }
    }
    stage.exec('COMMIT');
    if (batch.length > 0) yield batch;
  } finally {
    stage.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
