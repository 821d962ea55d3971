import type Database from 'better-sqlite3';
import { capBoxes, type LatLng } from '../../lib/sphere.js';
import { type Measured, nearestFirst, type NearCandidate } from './nearest.js';

/**
 * The SQLite spatial index (reverse look-up): an R*Tree of every address point, in 1e-7-degree
 * integers (`rtree_i32`: a third cheaper to build than float boxes, exact to a centimetre).
 * Deletes and moves follow the addresses through triggers; new addresses are added in bulk, one
 * statement for each of the import's batches and the rest before it commits (SpatialMark): an
 * R*Tree insert per row inside the import cost twice the bulk insert, and one fill of all rows at
 * the commit kept the import waiting seconds on it after its last row was read, while the
 * batches' writes leave time over. An index file written before the R*Tree gets it, filled, when
 * it is opened.
 */
const SCALE = 1e7;

const SPATIAL = `
  CREATE VIRTUAL TABLE addresses_rtree USING rtree_i32 (id, min_lat, max_lat, min_lng, max_lng);
  CREATE TRIGGER addresses_rtree_ad AFTER DELETE ON addresses BEGIN
    DELETE FROM addresses_rtree WHERE id = old.id;
  END;
  CREATE TRIGGER addresses_rtree_au AFTER UPDATE OF lat, lng ON addresses BEGIN
    UPDATE addresses_rtree SET min_lat = CAST(round(new.lat * ${SCALE}) AS INTEGER), max_lat = CAST(round(new.lat * ${SCALE}) AS INTEGER),
      min_lng = CAST(round(new.lng * ${SCALE}) AS INTEGER), max_lng = CAST(round(new.lng * ${SCALE}) AS INTEGER) WHERE id = new.id;
  END;`;

/** Adds the addresses with ids from `fromId` that the R*Tree lacks (an import's new rows). */
const fillSql = `
  INSERT OR REPLACE INTO addresses_rtree (id, min_lat, max_lat, min_lng, max_lng)
  SELECT id, CAST(round(lat * ${SCALE}) AS INTEGER), CAST(round(lat * ${SCALE}) AS INTEGER), CAST(round(lng * ${SCALE}) AS INTEGER), CAST(round(lng * ${SCALE}) AS INTEGER)
  FROM addresses WHERE id >= ?`;

/** Creates the R*Tree in a file that lacks it and fills it from the addresses there (once, on open). */
export function applySqliteSpatial(db: Database.Database): void {
  if (db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'addresses_rtree'").get()) return;
  db.transaction(() => {
    db.exec(SPATIAL);
    db.prepare(fillSql).run(0);
  })();
}

/**
 * Where an import's new rows start: SQLite gives a new row the largest id plus one, so every row
 * inserted from now on has an id above the current largest, unless rows at the top are deleted
 * first (an update's removals): `lowered` moves the mark down to the smallest id removed.
 */
export class SpatialMark {
  private from: number;
  constructor(private readonly db: Database.Database) {
    this.from = (db.prepare('SELECT coalesce(max(id), 0) + 1 FROM addresses').pluck().get() as number);
  }

  lowered(ids: readonly number[]): void {
    for (const id of ids) if (id < this.from) this.from = id;
  }

  /**
   * In the import's transaction: the rows inserted since the last fill join the R*Tree (after a
   * batch's writes, and once more before the commit). A row filled already that changes later
   * follows through the triggers.
   */
  fill(): void {
    this.db.prepare(fillSql).run(this.from);
    this.from = (this.db.prepare('SELECT coalesce(max(id), 0) + 1 FROM addresses').pluck().get() as number);
  }
}

/** The rectangle query, prepared once per connection. */
const inBoxStatements = new WeakMap<Database.Database, Database.Statement>();

/** Addresses start being looked for this close; the search doubles the distance until it has enough. */
const FIRST_RADIUS_M = 50;

/**
 * The `limit` addresses nearest to `center` within `radiusM`. The R*Tree answers rectangles, not
 * nearest neighbours: rectangles holding the cap of a growing radius (`capBoxes`), doubled until
 * they hold `limit` addresses within that radius or reach `radiusM`; an address within the
 * radius lies inside them, so the nearest found are the nearest there are.
 */
export function sqliteNearest(db: Database.Database, center: LatLng, radiusM: number, limit: number): Measured[] {
  let inBox = inBoxStatements.get(db);
  if (!inBox) {
    inBox = db.prepare(
      `SELECT r.id, a.lat, a.lng FROM addresses_rtree r JOIN addresses a ON a.id = r.id
       WHERE r.max_lat >= ? AND r.min_lat <= ? AND r.max_lng >= ? AND r.min_lng <= ?`,
    );
    inBoxStatements.set(db, inBox);
  }
  let reach = Math.min(radiusM, FIRST_RADIUS_M);
  for (;;) {
    const seen = new Map<number, NearCandidate>();
    for (const box of capBoxes(center, reach)) {
      const rows = inBox.all(Math.floor(box.south * SCALE), Math.ceil(box.north * SCALE), Math.floor(box.west * SCALE), Math.ceil(box.east * SCALE)) as { id: number; lat: number; lng: number }[];
      for (const r of rows) seen.set(r.id, { id: r.id, lat: r.lat, lng: r.lng });
    }
    const found = nearestFirst([...seen.values()], center, reach);
    if (found.length >= limit || reach >= radiusM) return found.slice(0, limit);
    reach = Math.min(radiusM, reach * 2);
  }
}
