import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { haversineMeters } from '../../src/lib/sphere.js';
import { applySqliteSpatial, cellOf, sqliteNearest } from '../../src/local-index/store/sqlite-spatial.js';

/** A table with the columns the spatial index reads, its cell index given as a file is opened. */
function addresses(points: [number, number][]): Database.Database {
  const db = new Database(':memory:');
  db.exec('CREATE TABLE addresses (id INTEGER PRIMARY KEY, lat REAL NOT NULL, lng REAL NOT NULL)');
  applySqliteSpatial(db);
  const insert = db.prepare('INSERT INTO addresses (lat, lng) VALUES (?, ?)');
  for (const [lat, lng] of points) insert.run(lat, lng);
  return db;
}

/** Points spread around `lat`, `lng`, with a seeded generator (the same every run). */
function around(lat: number, lng: number, n: number, spread: number): [number, number][] {
  let seed = 7;
  const next = () => ((seed = (seed * 48271) % 2147483647) / 2147483647 - 0.5) * spread;
  return Array.from({ length: n }, () => [Math.max(-90, Math.min(90, lat + next())), ((lng + next() + 540) % 360) - 180]);
}

describe('the SQLite spatial index', () => {
  it('numbers a point\'s cell in JavaScript as SQLite does, and reads the cells from their index alone', () => {
    const points: [number, number][] = [[52.5, 13.4], [-33.86, 151.2], [0, 0], [-0.00001, -0.00001], [90, 180], [-90, -180], [51.4999999, -0.0005]];
    const db = addresses(points);
    const cells = db.prepare('SELECT CAST((lat + 90.0) * 2000.0 AS INTEGER) * 1000000 + CAST((lng + 180.0) * 2000.0 AS INTEGER) AS cell FROM addresses ORDER BY id').pluck().all();
    expect(cells).toEqual(points.map(([lat, lng]) => cellOf(lat, lng)));
    const plan = db
      .prepare('EXPLAIN QUERY PLAN SELECT id, lat, lng FROM addresses WHERE (CAST((lat + 90.0) * 2000.0 AS INTEGER) * 1000000 + CAST((lng + 180.0) * 2000.0 AS INTEGER)) BETWEEN ? AND ?')
      .all(0, 1)
      .map((r) => (r as { detail: string }).detail);
    expect(plan.join(' ')).toMatch(/COVERING INDEX addresses_cell/);
  });

  it.each([
    ['in a town', 52.52, 13.4, 0.02, 300],
    ['across the antimeridian', -17.7, 179.999, 0.05, 3000],
    ['near a pole, the largest radius asked for spanning every longitude', 89.97, 10, 0.1, 5000],
  ])('finds the nearest addresses %s as a scan of every address does', (_, lat, lng, spread, radius) => {
    const points = around(lat, lng, 2000, spread);
    const db = addresses(points);
    const center = { lat, lng };
    const expected = points
      .map(([pLat, pLng], i) => ({ id: i + 1, d: haversineMeters(center, { lat: pLat, lng: pLng }) }))
      .filter((p) => p.d <= radius)
      .sort((a, b) => a.d - b.d || a.id - b.id)
      .slice(0, 10)
      .map((p) => p.id);
    expect(expected.length).toBeGreaterThan(3);
    expect(sqliteNearest(db, center, radius, 10).map((f) => f.id)).toEqual(expected);
  });
});
