import { hasAddress } from '../import/osm-address-forms.js';
import type { PlaceNode } from '../import/osm-place-nodes.js';
import type { Boundary } from '../import/osm-places.js';

/**
 * What `import --update` needs from an OSM extract that the address index itself does not
 * keep, recorded when the extract is imported (see record-alongside.ts) and kept current by
 * every update: a change file names a building's moved nodes, not the building, and a
 * modified way lists its nodes without their coordinates. So the state holds, as
 * Nominatim's and osm2pgsql's "slim" tables do, but for address ways only:
 * - each address way's `addr:*` tags, its node list, and those nodes' coordinates in the same
 *   row (way-coords.ts): no row per node, so recording writes one row a way, which the import's
 *   own reading of the file hands over (osm-pbf.ts, state-rows.ts);
 * - which ways use a node (a moved node: which ways to place again?), an index over the ways'
 *   node lists that the first update builds (SQLite: `osm_way_nodes`; PostgreSQL: a GIN index);
 * - the boundary areas (municipality, postal code, country) that place a new address.
 * Both stores keep it beside the index (SQLite: `osm_*` tables in the index file;
 * PostgreSQL: `local_osm_*`).
 */

export type Tags = Record<string, string>;

/**
 * Ways the state follows: addresses, interpolation ways, and buildings (most addresses are
 * added to a building that exists); address multipolygons and entrances too, as ways of their own (osm-derived-ways.ts).
 */
export const tracked = (tags: Tags): boolean => Boolean(hasAddress(tags) || tags['addr:interpolation'] || tags.building || tags['@entrance']);

/** The tags the state keeps of a way: its address, and whether it is a building. */
export function stateTags(tags: Tags): Tags {
  const out: Tags = {};
  for (const [k, v] of Object.entries(tags)) if (isStateKey(k)) out[k] = v;
  return out;
}

/** The tags the state keeps: `addr:*` and `building`. */
export const isStateKey = (k: string): boolean => k.startsWith('addr:') || k === 'building';

export interface StoredWay {
  tags: Tags;
  refs: number[];
}

/**
 * A boundary as the import built it: what it tells, and its closed rings as [lat, lng] points.
 * A place node (osm-place-nodes.ts) is kept alike, under its negated id, its one point the only ring.
 */
export interface StoredArea {
  id: number;
  value: Boundary | ({ kind: 'place' } & PlaceNode);
  rings: [number, number][][];
}

/**
 * What one change file does to the state. The store writes each way with its nodes'
 * coordinates (the change's, else those stored), and puts a moved node's new coordinates into
 * every stored way that uses it.
 */
export interface StateChange {
  /** Address ways as they now are (their node lists replace the stored ones). */
  ways: Map<number, StoredWay>;
  /** Ways that are no longer addresses: deleted, or their address tags removed. */
  droppedWays: number[];
  /** Coordinates of nodes the address ways use, new or moved. */
  nodes: Map<number, [number, number]>;
}

/**
 * Ways as a recording writes them, in columns a thread hands over without copying row by row:
 * way `i` is `ids[i]` with tags `tags[i]` (JSON), node ids `refs[ends[i] .. ends[i + 1])` and
 * their coordinates at twice those places in `coords` (way-coords.ts).
 */
export interface WayRows {
  ids: Float64Array;
  tags: string[];
  ends: Uint32Array;
  refs: Float64Array;
  coords: Int32Array;
}

/** What a recording reads from an extract (the import's reader, osm-pbf.ts), in the order it writes it. */
export type StateBatch =
  | { kind: 'ways'; rows: WayRows }
  /** The last batch: the boundaries, and how many ways the recording holds. */
  | { kind: 'areas'; rows: StoredArea[]; ways: number };

/** The buffers of a batch that move to another thread rather than being copied. */
export const batchBuffers = (batch: StateBatch): ArrayBuffer[] =>
  batch.kind === 'ways' ? [batch.rows.ids, batch.rows.ends, batch.rows.refs, batch.rows.coords].map((a) => a.buffer as ArrayBuffer) : [];

/** Writes one full import's state (replacing what the same elements had). */
export interface StateRecorder {
  ways(rows: WayRows): Promise<void>;
  areas(rows: StoredArea[]): Promise<void>;
  /**
   * After the last batch: what a first recording put off (its key, statistics), so the commit
   * has nothing left to do. Beside an import, that work overlaps with the import's (record-alongside.ts).
   */
  complete(): Promise<void>;
  /** Marks the state recorded for this extract, and clears a failure noted before (completing it first if needed). */
  commit(extract: ExtractMark): Promise<void>;
  abort(): Promise<void>;
}

/** The extract the state was recorded from (meta `recorded`). */
export interface ExtractMark {
  file: string;
  at: string;
}

/** An OSM import that withdrew the update state and did not record it again (meta `failed`). */
export interface ImportFailure extends ExtractMark {
  error: string;
}

export interface OsmUpdateStatus {
  /** null: updates cannot run until an extract is imported (and recorded) in full. */
  extract: ExtractMark | null;
  /** The change file (its digest) whose update began but did not complete. */
  pending: string | null;
  failed: ImportFailure | null;
}

/** Meta values as stored: JSON; a `recorded` mark from before named no file (just its time). */
export function readUpdateStatus(meta: (key: string) => string | undefined): OsmUpdateStatus {
  const json = <T>(v: string | undefined): T | null => {
    if (v === undefined) return null;
    try {
      return JSON.parse(v) as T;
    } catch {
      return null;
    }
  };
  const recorded = meta('recorded');
  return {
    extract: recorded === undefined ? null : (json<ExtractMark>(recorded) ?? { file: '(an earlier extract)', at: recorded }),
    pending: meta('pending') ?? null,
    failed: json<ImportFailure>(meta('failed')),
  };
}

export interface OsmStateStore {
  /** Whether an OSM import recorded state (without it an update cannot place what it changes), an unfinished update, a failure. */
  updateStatus(): Promise<OsmUpdateStatus>;
  /** Notes why the state is not recorded, for the refusal of later updates and the status command. */
  recordFailure(failure: ImportFailure): Promise<void>;
  /** Builds the index of which ways use a node first if a recording left it to the first update. */
  waysUsingNodes(ids: number[]): Promise<number[]>;
  ways(ids: number[]): Promise<Map<number, StoredWay>>;
  /** Coordinates of nodes, as the stored ways that use them hold them. */
  nodes(ids: number[]): Promise<Map<number, [number, number]>>;
  areas(): Promise<StoredArea[]>;
  /** Applies a change in one transaction and marks `digest` pending until `complete`. */
  apply(change: StateChange, digest: string): Promise<void>;
  complete(digest: string): Promise<void>;
  beginRecord(): Promise<StateRecorder>;
  close(): Promise<void>;
}
