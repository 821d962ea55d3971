import Database from 'better-sqlite3';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openLocalIndex } from '../../src/local-index/index.js';
import { SQLITE_INDEX_FILE } from '../../src/local-index/store/sqlite-store.js';
import { haversineMeters } from '../../src/lib/sphere.js';
import { STORAGE_BACKENDS, type Sandbox } from '../support/backends.js';
import { type IndexSandbox, openIndexSandbox } from './support/local-sandbox.js';

interface Point {
  street: string;
  hn: string;
  country: string;
  lat: number;
  lng: number;
}

const HEADER = 'street,house_number,postcode,city,state,country,lat,lng';
const csv = (points: Point[]) => [HEADER, ...points.map((p) => `${p.street},${p.hn},,Town ${p.country},,${p.country},${p.lat},${p.lng}`)].join('\n');

/** A town of a few hundred houses, spread unevenly (a deterministic walk), in Germany. */
function town(): Point[] {
  const points: Point[] = [];
  let seed = 7;
  const next = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
  for (let i = 0; i < 300; i++) {
    const lat = 52.5 + (next() - 0.5) * 0.02;
    const lng = 13.4 + (next() - 0.5) * 0.03;
    points.push({ street: `Weg ${i % 17}`, hn: String(i + 1), country: 'DE', lat: Number(lat.toFixed(7)), lng: Number(lng.toFixed(7)) });
  }
  return points;
}

/** The answer worked out by hand: every address measured, nearest first. */
function bruteForce(points: Point[], at: { lat: number; lng: number }, radius: number, limit: number) {
  return points
    .map((p) => ({ p, d: haversineMeters(at, p) }))
    .filter((x) => x.d <= radius)
    .sort((a, b) => a.d - b.d)
    .slice(0, limit)
    .map((x) => `${x.p.street} ${x.p.hn}`);
}

const labels = (hits: { components: { street?: string; houseNumber?: string } }[]) => hits.map((h) => `${h.components.street} ${h.components.houseNumber}`);

async function pgPlan(sandbox: Sandbox, sql: string): Promise<string> {
  const client = new pg.Client({ connectionString: sandbox.databaseUrl });
  await client.connect();
  try {
    return (await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`)).rows.map((r) => r['QUERY PLAN']).join('\n');
  } finally {
    await client.end();
  }
}

describe.each(STORAGE_BACKENDS)('reverse look-up in the local index (%s)', (backend) => {
  let box: IndexSandbox;
  beforeEach(async () => {
    box = await openIndexSandbox(backend);
  });
  afterEach(async () => {
    await box.close();
  });

  it('answers the nearest addresses first, with their distance, as measuring every address would', async () => {
    const points = town();
    await box.index.importFile(box.file('town.csv', csv(points)), { format: 'csv' });
    for (const at of [
      { lat: 52.5, lng: 13.4 },
      { lat: 52.509, lng: 13.414 },
      { lat: 52.4905, lng: 13.386 },
    ]) {
      const hits = await box.index.reverse({ ...at, radiusMeters: 5000, limit: 10 });
      expect(labels(hits)).toEqual(bruteForce(points, at, 5000, 10));
      for (const hit of hits) expect(hit.distanceMeters).toBeCloseTo(haversineMeters(at, hit.location), 6);
      expect(hits.map((h) => h.distanceMeters)).toEqual([...hits.map((h) => h.distanceMeters)].sort((a, b) => a - b));
      expect(hits[0]).toMatchObject({ precision: 'address', components: { country: 'DE', city: 'Town DE' } });
    }
  });

  it('keeps to the radius, and finds nothing in the empty sea', async () => {
    const points = town();
    await box.index.importFile(box.file('town.csv', csv(points)), { format: 'csv' });
    const at = { lat: 52.5, lng: 13.4 };
    const near = await box.index.reverse({ ...at, radiusMeters: 150, limit: 10 });
    expect(labels(near)).toEqual(bruteForce(points, at, 150, 10));
    expect(near.every((h) => h.distanceMeters <= 150)).toBe(true);
    // The North Sea, 150 km off the coast: nothing within the largest radius.
    expect(await box.index.reverse({ lat: 54.5, lng: 4.5, radiusMeters: 5000, limit: 5 })).toEqual([]);
  });

  it('finds across the antimeridian and at the poles', async () => {
    const points: Point[] = [
      { street: 'East Road', hn: '1', country: 'FJ', lat: -16.5, lng: -179.99 },
      { street: 'West Road', hn: '2', country: 'FJ', lat: -16.5, lng: 179.95 },
      { street: 'Pole Station', hn: '1', country: 'AQ', lat: -89.998, lng: 139.27 },
      { street: 'Pole Station', hn: '2', country: 'AQ', lat: -89.999, lng: -40 },
      { street: 'Top Camp', hn: '7', country: 'GL', lat: 89.995, lng: 0 },
    ];
    await box.index.importFile(box.file('edges.csv', csv(points)), { format: 'csv' });
    const fiji = await box.index.reverse({ lat: -16.5, lng: 179.99, radiusMeters: 5000, limit: 5 });
    expect(labels(fiji)).toEqual(['East Road 1', 'West Road 2']);
    expect(fiji[0]!.distanceMeters).toBeCloseTo(2133, -1);
    const south = await box.index.reverse({ lat: -90, lng: 0, radiusMeters: 1000, limit: 5 });
    expect(labels(south)).toEqual(['Pole Station 2', 'Pole Station 1']);
    const north = await box.index.reverse({ lat: 89.999, lng: 180, radiusMeters: 1000, limit: 5 });
    expect(labels(north)).toEqual(['Top Camp 7']);
    expect(north[0]!.distanceMeters).toBeCloseTo(haversineMeters({ lat: 89.999, lng: 180 }, { lat: 89.995, lng: 0 }), 3);
  });

  it('follows imports: new, moved and removed addresses', async () => {
    const first: Point[] = [
      { street: 'Alte Gasse', hn: '1', country: 'DE', lat: 50.0, lng: 8.0 },
      { street: 'Alte Gasse', hn: '2', country: 'DE', lat: 50.0003, lng: 8.0 },
    ];
    await box.index.importFile(box.file('a.csv', csv(first)), { format: 'csv' });
    expect(labels(await box.index.reverse({ lat: 50, lng: 8, radiusMeters: 200, limit: 5 }))).toEqual(['Alte Gasse 1', 'Alte Gasse 2']);
    // Number 1 moved 3 km away, number 2 gone (replaced), number 3 new.
    const second: Point[] = [
      { street: 'Alte Gasse', hn: '1', country: 'DE', lat: 50.027, lng: 8.0 },
      { street: 'Alte Gasse', hn: '3', country: 'DE', lat: 50.0001, lng: 8.0 },
    ];
    await box.index.importFile(box.file('b.csv', csv(second)), { format: 'csv', replace: true });
    expect(labels(await box.index.reverse({ lat: 50, lng: 8, radiusMeters: 200, limit: 5 }))).toEqual(['Alte Gasse 3']);
    expect(labels(await box.index.reverse({ lat: 50.027, lng: 8, radiusMeters: 200, limit: 5 }))).toEqual(['Alte Gasse 1']);
  });

  it('gives an index from before the spatial index one when opened, without a re-import', async () => {
    const points = town();
    await box.index.importFile(box.file('town.csv', csv(points)), { format: 'csv' });
    await box.index.close();
    if (backend === 'sqlite') {
      // As an earlier version left it: an R*Tree of the points, kept by triggers, in place of the cells.
      const db = new Database(join(box.sandbox.dataDir, SQLITE_INDEX_FILE));
      db.exec(`DROP INDEX addresses_cell;
        CREATE VIRTUAL TABLE addresses_rtree USING rtree_i32 (id, min_lat, max_lat, min_lng, max_lng);
        INSERT INTO addresses_rtree SELECT id, lat * 1e7, lat * 1e7, lng * 1e7, lng * 1e7 FROM addresses;
        CREATE TRIGGER addresses_rtree_ad AFTER DELETE ON addresses BEGIN DELETE FROM addresses_rtree WHERE id = old.id; END;`);
      db.close();
    } else {
      const client = new pg.Client({ connectionString: box.sandbox.databaseUrl });
      await client.connect();
      await client.query('DROP INDEX local_addresses_point');
      await client.end();
    }
    box.index = await openLocalIndex({
      dataDir: box.sandbox.dataDir,
      ...(box.sandbox.databaseUrl ? { databaseUrl: box.sandbox.databaseUrl, schema: box.sandbox.schema } : {}),
    });
    const at = { lat: 52.503, lng: 13.41 };
    expect(labels(await box.index.reverse({ ...at, radiusMeters: 5000, limit: 5 }))).toEqual(bruteForce(points, at, 5000, 5));
    if (backend === 'sqlite') {
      // The R*Tree and its trigger are gone (a delete no longer needs it); the cells are read from their index alone.
      const db = new Database(join(box.sandbox.dataDir, SQLITE_INDEX_FILE), { readonly: true });
      expect(db.prepare("SELECT name FROM sqlite_master WHERE name LIKE 'addresses_rtree%'").all()).toEqual([]);
      db.close();
    }
    if (backend === 'postgres') {
      // The rectangle's nearest-first search reads the GiST index, never the whole table.
      const plan = await pgPlan(
        box.sandbox,
        'SELECT id FROM local_addresses a WHERE point(a.lng, a.lat) <@ box(point(13.3, 52.4), point(13.5, 52.6)) ORDER BY point(a.lng, a.lat) <-> point(13.41, 52.503) LIMIT 20',
      );
      expect(plan).toMatch(/Index Scan using local_de_addresses_point/);
      expect(plan).not.toMatch(/Seq Scan/);
    }
  });
});
