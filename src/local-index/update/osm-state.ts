import { hasAddress } from '../import/osm-address-forms.js';
import type { Boundary } from '../import/osm-places.js';

/**
 * What `import --update` needs from an OSM extract that the address index itself does not
 * keep, recorded when the extract is imported (see record-state.ts) and kept current by
 * every update: a change file names a building's moved nodes, not the building, and a
 * modified way lists its nodes without their coordinates. So the state holds, as
 * Nominatim's and osm2pgsql's "slim" tables do, but for address ways only:
 * - each address way's `addr:*` tags and node list, and which ways use each node;
 * - the coordinates of those nodes;
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
  for (const [k, v] of Object.entries(tags)) if (k.startsWith('addr:') || k === 'building') out[k] = v;
  return out;
}

export interface StoredWay {
  tags: Tags;
  refs: number[];
}

/** A boundary as the import built it: what it tells, and its closed rings as [lat, lng] points. */
export interface StoredArea {
  id: number;
  value: Boundary;
  rings: [number, number][][];
}

/** What one change file does to the state. */
export interface StateChange {
  /** Address ways as they now are (their node lists replace the stored ones). */
  ways: Map<number, StoredWay>;
  /** Ways that are no longer addresses: deleted, or their address tags removed. */
  droppedWays: number[];
  /** Coordinates of nodes the address ways use, new or moved. */
  nodes: Map<number, [number, number]>;
  /** Nodes that may no longer be used by any address way (dropped refs, deleted nodes): removed if unused. */
  maybeUnused: number[];
}

/** Writes one full import's state (replacing what the same elements had). */
export interface StateRecorder {
  ways(rows: { id: number; tags: Tags; refs: number[] }[]): Promise<void>;
  /** Coordinates of nodes; only those an address way uses are kept. */
  nodes(rows: [number, number, number][]): Promise<void>;
  areas(rows: StoredArea[]): Promise<void>;
  commit(): Promise<void>;
  abort(): Promise<void>;
}

export interface OsmStateStore {
  /** Whether an OSM import recorded state: without it an update cannot place what it changes. */
  recorded(): Promise<boolean>;
  /** Marks the state as not recorded: before an OSM import, whose recording completes it again. */
  forget(): Promise<void>;
  /** The change file (its digest) whose update began but did not complete, if any. */
  pending(): Promise<string | null>;
  waysUsingNodes(ids: number[]): Promise<number[]>;
  ways(ids: number[]): Promise<Map<number, StoredWay>>;
  nodes(ids: number[]): Promise<Map<number, [number, number]>>;
  areas(): Promise<StoredArea[]>;
  /** Applies a change in one transaction and marks `digest` pending until `complete`. */
  apply(change: StateChange, digest: string): Promise<void>;
  complete(digest: string): Promise<void>;
  beginRecord(): Promise<StateRecorder>;
  close(): Promise<void>;
}
