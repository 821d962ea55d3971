import type Database from 'better-sqlite3';
import { nodePass } from './pbf-dense.js';
import { wayPass } from './pbf-ways.js';
import type { OsmRelation } from 'osm-pbf-parser';
import type { UnclosedArea } from '../types.js';
import { type Area, makeArea } from './osm-areas.js';
import { boundaryOf, type Boundary, PlaceLocator } from './osm-places.js';
import { relationRings } from './osm-rings.js';

/** A boundary relation met in the file, waiting for its ways' nodes. */
interface PendingBoundary {
  id: number;
  boundary: Boundary;
  ways: number[];
}

/** A boundary whose rings close: its area, and what it was built from (the update state keeps that, osm-state.ts). */
export interface BuiltBoundary {
  relation: number;
  area: Area<Boundary>;
  boundary: Boundary;
  rings: [number, number][][];
}

/** The relation as a report names it. */
export const unclosed = (id: number, b: Boundary, reason: string): UnclosedArea => {
  const name = b.name ?? (b.kind === 'postal' ? b.postcode : b.country);
  return { relation: id, ...(name ? { name } : {}), reason };
};

/**
 * Collects the boundary relations of an OSM file and turns them into a PlaceLocator. The
 * file stores nodes, then ways, then relations, so the importer reads it in up to three
 * passes: relations (with the addresses), then the member ways' node lists, then those
 * nodes' coordinates. Only boundary ways and their nodes are kept, staged in the
 * importer's temporary SQLite file, so memory stays bounded on a large file.
 */
export class BoundaryCollector {
  private readonly pending: PendingBoundary[] = [];
  /** Member ways of the boundaries, for the second pass. */
  readonly memberWays = new Set<number>();
  private readonly addWay: Database.Statement;

  constructor(private readonly stage: Database.Database) {
    stage.exec('CREATE TABLE bways (id INTEGER PRIMARY KEY, refs TEXT NOT NULL)');
    this.addWay = stage.prepare('INSERT OR IGNORE INTO bways (id, refs) VALUES (?, ?)');
  }

  get size(): number {
    return this.pending.length;
  }

  /** Pass 1: a relation that draws a boundary the importer uses is remembered with its ways. */
  relation(item: OsmRelation): void {
    const boundary = boundaryOf(item.tags);
    if (!boundary) return;
    const ways = item.members.filter((m) => m.type === 'way' && m.role !== 'subarea').map((m) => m.id);
    if (ways.length === 0) return;
    this.pending.push({ id: item.id, boundary, ways });
    for (const id of ways) this.memberWays.add(id);
  }

  /** Whether way `id` is a member of a boundary (pass 2 reads the node lists of just those). */
  isMember(id: number): boolean {
    return this.memberWays.has(id);
  }

  /** Pass 2: stages a member way's node list; returns its node ids (their coordinates are needed). */
  way(id: number, refs: number[]): number[] | undefined {
    if (!this.memberWays.has(id)) return undefined;
    this.addWay.run(id, JSON.stringify(refs));
    return refs;
  }

  /**
   * After pass 3: every boundary whose rings close, as areas by relation id, and those that do
   * not close (reported by the import); `node` gives a staged node's coordinates.
   */
  areas(node: (id: number) => [number, number] | undefined): { built: BuiltBoundary[]; unclosed: UnclosedArea[] } {
    const built: BuiltBoundary[] = [];
    const open: UnclosedArea[] = [];
    const refsOf = this.stage.prepare('SELECT refs FROM bways WHERE id = ?').pluck();
    for (const p of this.pending) {
      const rings = relationRings(p.ways, (id) => {
        const refs = refsOf.get(id) as string | undefined;
        return refs ? (JSON.parse(refs) as number[]) : undefined;
      }, node);
      const area = 'rings' in rings ? makeArea(p.boundary, rings.rings) : undefined;
      if (area && 'rings' in rings) built.push({ relation: p.id, area, boundary: p.boundary, rings: rings.rings });
      else open.push(unclosed(p.id, p.boundary, 'error' in rings ? rings.error : 'no ring encloses anything'));
    }
    return { built, unclosed: open };
  }

  /** The areas as a PlaceLocator, and the boundaries that do not close. */
  locator(node: (id: number) => [number, number] | undefined): { locator: PlaceLocator; unclosed: UnclosedArea[] } {
    const { built, unclosed: open } = this.areas(node);
    const locator = new PlaceLocator();
    for (const b of built) locator.add(b.area);
    return { locator, unclosed: open };
  }
}

/**
 * The boundaries of a PBF file alone (three passes, boundaries only): for tools and tests that
 * check an import against the file's own areas (bench/li-places.ts, osmium's reading).
 */
export async function readBoundaryAreas(path: string, stage: Database.Database): Promise<ReturnType<BoundaryCollector['areas']>> {
  const collector = new BoundaryCollector(stage);
  stage.exec('CREATE TABLE IF NOT EXISTS bnodes (id INTEGER PRIMARY KEY, lat REAL NOT NULL, lng REAL NOT NULL)');
  for await (const _ of wayPass(path, () => undefined, { relation: (r) => collector.relation(r) }));
  const wanted = new Set<number>();
  for await (const _ of wayPass(path, (w) => {
    if (collector.isMember(w.id)) for (const ref of collector.way(w.id, w.refs()) ?? []) wanted.add(ref);
  }));
  const add = stage.prepare('INSERT OR IGNORE INTO bnodes (id, lat, lng) VALUES (?, ?, ?)');
  for await (const _ of nodePass(path, (id, lat, lon) => {
    if (wanted.has(id)) add.run(id, lat, lon);
  }));
  const at = stage.prepare('SELECT lat, lng FROM bnodes WHERE id = ?');
  return collector.areas((id) => {
    const c = at.get(id) as { lat: number; lng: number } | undefined;
    return c ? [c.lat, c.lng] : undefined;
  });
}

/** readBoundaryAreas as a PlaceLocator. */
export async function readPlaceLocator(path: string, stage: Database.Database): Promise<{ locator: PlaceLocator; unclosed: UnclosedArea[] }> {
  const { built, unclosed: open } = await readBoundaryAreas(path, stage);
  const locator = new PlaceLocator();
  for (const b of built) locator.add(b.area);
  return { locator, unclosed: open };
}
