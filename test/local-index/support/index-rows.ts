import Database from 'better-sqlite3';
import { join } from 'node:path';
import pg from 'pg';
import { SQLITE_INDEX_FILE } from '../../../src/local-index/store/sqlite-store.js';
import type { Sandbox } from '../../support/backends.js';

export interface Row {
  source: string;
  country: string;
  street: string;
  city: string | null;
  municipality: string | null;
  hn: string;
  postcode: string | null;
  lat: number;
  lng: number;
  units: string | null;
}

const ROWS_SQL = (t: string) => `SELECT a.source_id AS source, s.country, s.street, s.city, s.municipality, a.hn, a.postcode, a.lat, a.lng, a.units
  FROM ${t}addresses a JOIN ${t}streets s ON s.id = a.street_id ORDER BY a.source_id`;

/** Every address row the index holds, with its street, in source order. */
export async function addressRows(sandbox: Sandbox): Promise<Row[]> {
  if (!sandbox.databaseUrl) {
    const db = new Database(join(sandbox.dataDir, SQLITE_INDEX_FILE), { readonly: true });
    try {
      return db.prepare(ROWS_SQL('')).all() as Row[];
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: sandbox.databaseUrl });
  await client.connect();
  try {
    return (await client.query<Row>(ROWS_SQL('local_'))).rows;
  } finally {
    await client.end();
  }
}

/** A node's coordinates from PBF and from XML (decimal text) agree to 1e-7 degrees, not to the last bit. */
export const comparable = (rows: Row[]) => rows.map((r) => ({ ...r, lat: r.lat.toFixed(7), lng: r.lng.toFixed(7) }));
