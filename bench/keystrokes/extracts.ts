import { join } from 'node:path';
import Database from 'better-sqlite3';
import { SQLITE_INDEX_FILE } from '../../src/local-index/store/sqlite-store.js';
import type { Target } from './typing.js';

/**
 * Addresses of the OpenStreetMap extracts imported beside the corpus (`--pbf`), read back from the
 * SQLite index: those with a postcode and a town whose street and number are unique in their
 * country (one address to offer), in source order. PostgreSQL runs import the extracts but type
 * only the corpus.
 */
export function extractTargets(dataDir: string): Target[] {
  const db = new Database(join(dataDir, SQLITE_INDEX_FILE), { readonly: true });
  try {
    const rows = db
      .prepare(
        `SELECT s.country, s.street, a.hn, coalesce(a.postcode, s.postcode) AS postcode, s.city, a.lat, a.lng FROM addresses a JOIN streets s ON s.id = a.street_id
         WHERE a.source_id LIKE 'osm:%' ORDER BY a.source_id`,
      )
      .all() as { country: string; street: string; hn: string; postcode: string | null; city: string | null; lat: number; lng: number }[];
    const count = new Map<string, number>();
    const id = (r: (typeof rows)[number]) => `${r.country}|${r.street}|${r.hn}`;
    for (const r of rows) count.set(id(r), (count.get(id(r)) ?? 0) + 1);
    return rows
      .filter((r) => r.postcode && r.city && count.get(id(r)) === 1)
      .map((r) => ({ street: r.street, houseNumber: r.hn, postcode: r.postcode!, city: r.city!, country: r.country, lat: r.lat, lng: r.lng }));
  } finally {
    db.close();
  }
}
