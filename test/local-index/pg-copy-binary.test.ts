import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { binaryIdPairs, copyBinary } from '../../src/local-index/store/pg-copy-in.js';
import { POSTGRES_URL } from '../support/backends.js';

/** The OSM update state's node coordinates go to PostgreSQL in COPY's binary format (issue 30 item 3). */
describe('binary COPY of (id, lat, lng) rows', () => {
  const pool = new pg.Pool({ connectionString: POSTGRES_URL, max: 1 });
  let client: pg.PoolClient;
  beforeAll(async () => {
    client = await pool.connect();
    await client.query('CREATE TEMP TABLE copy_nodes (id BIGINT NOT NULL, lat DOUBLE PRECISION NOT NULL, lng DOUBLE PRECISION NOT NULL)');
  });
  afterAll(async () => {
    client.release();
    await pool.end();
  });

  it('stores every id and coordinate exactly: large and negative ids, 7-decimal and extreme coordinates', async () => {
    const rows: [number, number, number][] = [
      [1, 52.3702157, 4.8951679],
      [2 ** 32 - 1, -33.8688197, 151.2092955],
      [2 ** 32, 0, -0],
      [12_345_678_901, 89.9999999, -179.9999999],
      [2 ** 53 - 1, 1e-7, -1e-7],
      [-1_000_000_000_000_005, 47.1410303, 9.5209277],
    ];
    const many = Array.from({ length: 5_000 }, (_, i): [number, number, number] => [10_000_000 + i * 7, 47 + i / 1e5, 9 + i / 3e5]);
    const all = [...rows, ...many];
    await copyBinary(client, 'copy_nodes', ['id', 'lat', 'lng'], binaryIdPairs(new Float64Array(all.flat())));
    const back = await client.query<{ id: string; lat: number; lng: number }>('SELECT id::text, lat, lng FROM copy_nodes');
    const got = back.rows.map((r) => [r.id, r.lat, r.lng]);
    expect(got).toEqual(all.map(([id, lat, lng]) => [BigInt(id).toString(), lat, lng]));
  });

  it('refuses a row the table cannot hold, and the connection goes on', async () => {
    await expect(copyBinary(client, 'copy_nodes', ['id', 'lat'], binaryIdPairs(new Float64Array([1, 2, 3])))).rejects.toThrow();
    expect((await client.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
  });
});
