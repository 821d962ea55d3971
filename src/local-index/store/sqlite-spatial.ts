import type Database from 'better-sqlite3';
import { capBoxes, type GeoBox, type LatLng } from '../../lib/sphere.js';
import { type Measured, nearestFirst, type NearCandidate } from './nearest.js';

/**
 * The SQLite spatial index (reverse look-up): every address point's grid cell, 1/2000 of a degree
 * (about 55 by 35 metres at 50° north), in a B-tree index over an expression of the address's own
 * columns, with the coordinates beside it (a look-up reads the index alone). SQLite keeps an
 * expression index as it keeps any other, so imports and updates write nothing of their own for
 * it. It took the place of an R*Tree: inserting a million points into that cost about 5 of an
 * import's 17 CPU seconds on its writing thread, which the reading thread's rows wait for. A file
 * written with the R*Tree loses it, and gets this index, when it is opened.
 */
const CELLS_PER_DEGREE = 2000;
/** Cells in a row of the grid and more: a cell's number is its row (from the south pole) times this, plus its column (from 180° west). */
const ROW = 1_000_000;
/** A point's cell as SQLite computes it; `cellOf` computes the same in JavaScript (the same double arithmetic, truncated). */
const CELL = `(CAST((lat + 90.0) * ${CELLS_PER_DEGREE}.0 AS INTEGER) * ${ROW} + CAST((lng + 180.0) * ${CELLS_PER_DEGREE}.0 AS INTEGER))`;
const rowOf = (lat: number) => Math.trunc((lat + 90) * CELLS_PER_DEGREE);
const columnOf = (lng: number) => Math.trunc((lng + 180) * CELLS_PER_DEGREE);

/** Gives a file its cell index, dropping the R*Tree an earlier version kept (with its triggers). */
export function applySqliteSpatial(db: Database.Database): void {
  const has = (name: string) => db.prepare('SELECT 1 FROM sqlite_master WHERE name = ?').get(name) !== undefined;
  if (has('addresses_cell') && !has('addresses_rtree')) return;
  db.transaction(() => {
    db.exec(`DROP TRIGGER IF EXISTS addresses_rtree_ad;
             DROP TRIGGER IF EXISTS addresses_rtree_au;
             DROP TABLE IF EXISTS addresses_rtree;
             CREATE INDEX IF NOT EXISTS addresses_cell ON addresses (${CELL}, lat, lng);`);
  })();
}

/** A point's cell number, as the index has it. */
export function cellOf(lat: number, lng: number): number {
  return rowOf(lat) * ROW + columnOf(lng);
}

/** The cell range query, prepared once per connection. */
const inCellsStatements = new WeakMap<Database.Database, Database.Statement>();

/** Addresses start being looked for this close; the search doubles the distance until it has enough. */
const FIRST_RADIUS_M = 50;

/**
 * The addresses in the cells a box covers (whole cells: some lie outside it), one range of cell
 * numbers for each row of cells: the largest radius asked for (5 km) spans about 180 rows.
 */
function inBox(cells: Database.Statement, box: GeoBox, seen: Map<number, NearCandidate>): void {
  const west = columnOf(box.west);
  const east = columnOf(box.east);
  for (let row = rowOf(box.south), north = rowOf(box.north); row <= north; row++) {
    for (const r of cells.all(row * ROW + west, row * ROW + east) as NearCandidate[]) seen.set(r.id, r);
  }
}

/**
 * The `limit` addresses nearest to `center` within `radiusM`. The cells answer rectangles, not
 * nearest neighbours: the cells covering the cap of a growing radius (`capBoxes`), doubled until
 * they hold `limit` addresses within that radius or reach `radiusM`; an address within the
 * radius lies inside them, so the nearest found are the nearest there are.
 */
export function sqliteNearest(db: Database.Database, center: LatLng, radiusM: number, limit: number): Measured[] {
  let cells = inCellsStatements.get(db);
  if (!cells) {
    cells = db.prepare(`SELECT id, lat, lng FROM addresses WHERE ${CELL} BETWEEN ? AND ?`);
    inCellsStatements.set(db, cells);
  }
  let reach = Math.min(radiusM, FIRST_RADIUS_M);
  for (;;) {
    const seen = new Map<number, NearCandidate>();
    for (const box of capBoxes(center, reach)) inBox(cells, box, seen);
    const found = nearestFirst([...seen.values()], center, reach);
    if (found.length >= limit || reach >= radiusM) return found.slice(0, limit);
    reach = Math.min(radiusM, reach * 2);
  }
}
