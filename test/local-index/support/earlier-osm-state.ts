import Database from 'better-sqlite3';
import { join } from 'node:path';
import pg from 'pg';
import { SQLITE_INDEX_FILE } from '../../../src/local-index/store/sqlite-store.js';
import type { Sandbox } from '../../support/backends.js';

/**
 * Rewrites recorded update state as earlier layouts kept it: a row per node (`osm_nodes`,
 * `local_osm_nodes`) and ways without their nodes' coordinates; on PostgreSQL, with
 * `wayNodeTable`, which ways use a node in a table of its own rather than a GIN index.
 */
export async function toEarlierLayout(sandbox: Sandbox, opts: { wayNodeTable?: boolean } = {}): Promise<void> {
  if (!sandbox.databaseUrl) {
    const db = new Database(join(sandbox.dataDir, SQLITE_INDEX_FILE));
    try {
      db.exec('CREATE TABLE osm_nodes (id INTEGER PRIMARY KEY, lat REAL NOT NULL, lng REAL NOT NULL)');
      const put = db.prepare('INSERT OR IGNORE INTO osm_nodes (id, lat, lng) VALUES (?, ?, ?)');
      for (const w of db.prepare('SELECT refs, coords FROM osm_ways').all() as { refs: string; coords: Buffer | null }[]) {
        const refs = JSON.parse(w.refs) as number[];
        const coords = new Int32Array(refs.length * 2);
        new Uint8Array(coords.buffer).set(w.coords ?? new Uint8Array(0));
        refs.forEach((id, i) => {
          if (w.coords && coords[i * 2] !== -0x80000000) put.run(id, coords[i * 2]! / 1e7, coords[i * 2 + 1]! / 1e7);
        });
      }
      db.exec(`
        ALTER TABLE osm_ways DROP COLUMN coords;
        DELETE FROM osm_way_nodes;
        INSERT OR IGNORE INTO osm_way_nodes (node_id, way_id) SELECT j.value, w.id FROM osm_ways w, json_each(w.refs) j;
        DELETE FROM osm_meta WHERE key = 'way_nodes';`);
    } finally {
      db.close();
    }
    return;
  }
  const client = new pg.Client({ connectionString: sandbox.databaseUrl });
  await client.connect();
  try {
    await client.query(`SET search_path = ${sandbox.schema}`);
    await client.query('CREATE TABLE local_osm_nodes (id BIGINT PRIMARY KEY, lat DOUBLE PRECISION NOT NULL, lng DOUBLE PRECISION NOT NULL)');
    await client.query(`
      INSERT INTO local_osm_nodes (id, lat, lng)
      SELECT DISTINCT ON (r.id) r.id, w.coords[2 * r.o - 1] / 1e7, w.coords[2 * r.o] / 1e7
      FROM local_osm_ways w, unnest(w.refs) WITH ORDINALITY AS r (id, o)
      WHERE w.coords[2 * r.o - 1] IS NOT NULL
      ORDER BY r.id`);
    await client.query('ALTER TABLE local_osm_ways DROP COLUMN coords');
    if (opts.wayNodeTable) {
      await client.query('DROP INDEX IF EXISTS local_osm_ways_refs');
      await client.query('CREATE TABLE local_osm_way_nodes (node_id BIGINT NOT NULL, way_id BIGINT NOT NULL, PRIMARY KEY (node_id, way_id))');
      await client.query('INSERT INTO local_osm_way_nodes SELECT DISTINCT r, id FROM local_osm_ways, unnest(refs) AS r');
    } else await client.query('CREATE INDEX IF NOT EXISTS local_osm_ways_refs ON local_osm_ways USING gin (refs)');
  } finally {
    await client.end();
  }
}

/** The earlier layouts' tables still there. */
export async function earlierTablesLeft(sandbox: Sandbox): Promise<string[]> {
  if (!sandbox.databaseUrl) {
    const db = new Database(join(sandbox.dataDir, SQLITE_INDEX_FILE), { readonly: true });
    try {
      return db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'osm_nodes'").pluck().all() as string[];
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: sandbox.databaseUrl });
  await client.connect();
  try {
    const res = await client.query<{ tablename: string }>('SELECT tablename FROM pg_tables WHERE schemaname = $1 AND tablename = ANY($2) ORDER BY 1', [
      sandbox.schema,
      ['local_osm_nodes', 'local_osm_way_nodes'],
    ]);
    return res.rows.map((r) => r.tablename);
  } finally {
    await client.end();
  }
}
