import type pg from 'pg';
import { createPgPool } from '../../store/db/pg-pool.js';
import { ident } from '../store/pg-schema.js';
import { withSessionOptions } from '../store/pg-store.js';
import type { OsmStateStore, StateRecorder, StoredArea, StoredWay, Tags } from './osm-state.js';

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS local_osm_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
  CREATE TABLE IF NOT EXISTS local_osm_ways (id BIGINT PRIMARY KEY, tags TEXT NOT NULL, refs BIGINT[] NOT NULL);
  CREATE TABLE IF NOT EXISTS local_osm_way_nodes (node_id BIGINT NOT NULL, way_id BIGINT NOT NULL, PRIMARY KEY (node_id, way_id));
  CREATE TABLE IF NOT EXISTS local_osm_nodes (id BIGINT PRIMARY KEY, lat DOUBLE PRECISION NOT NULL, lng DOUBLE PRECISION NOT NULL);
  CREATE TABLE IF NOT EXISTS local_osm_areas (id BIGINT PRIMARY KEY, value TEXT NOT NULL, rings TEXT NOT NULL);`;

/**
 * Drops the node index entries of ways, found through their stored node lists (the index is
 * keyed by node: a look-up by way would scan it); before their lists are replaced or deleted.
 */
const DROP_WAY_NODES = `
  DELETE FROM local_osm_way_nodes n USING local_osm_ways o, unnest(o.refs) AS r
  WHERE o.id = ANY($1::bigint[]) AND n.node_id = r AND n.way_id = o.id`;
const PUT_WAYS = `
  INSERT INTO local_osm_ways (id, tags, refs) SELECT id, tags, refs::bigint[] FROM unnest($1::bigint[], $2::text[], $3::text[]) AS t (id, tags, refs)
  ON CONFLICT (id) DO UPDATE SET tags = excluded.tags, refs = excluded.refs`;
const PUT_WAY_NODES = `
  INSERT INTO local_osm_way_nodes (node_id, way_id)
  SELECT DISTINCT r, w.id FROM unnest($1::bigint[], $2::text[]) AS w (id, refs), unnest(w.refs::bigint[]) AS r
  ON CONFLICT DO NOTHING`;
const PUT_NODES = (onlyUsed: boolean) => `
  INSERT INTO local_osm_nodes (id, lat, lng)
  SELECT DISTINCT ON (id) id, lat, lng FROM unnest($1::bigint[], $2::float8[], $3::float8[]) AS t (id, lat, lng)
  ${onlyUsed ? 'WHERE EXISTS (SELECT 1 FROM local_osm_way_nodes n WHERE n.node_id = t.id)' : ''}
  ON CONFLICT (id) DO UPDATE SET lat = excluded.lat, lng = excluded.lng`;

/** `{1,2,3}`: a node list as a PostgreSQL array literal. */
const arrayLiteral = (refs: number[]) => `{${refs.join(',')}}`;

/** The OSM update state in PostgreSQL (`local_osm_*`), always on the primary (see osm-state.ts). */
export async function openPgOsmState(databaseUrl: string, schema: string | undefined): Promise<OsmStateStore> {
  const pool = createPgPool({ connectionString: withSessionOptions(databaseUrl, schema), max: 2, allowExitOnIdle: true });
  const setup = await pool.connect();
  try {
    await setup.query('BEGIN');
    await setup.query("SELECT pg_advisory_xact_lock(hashtext('addressd_local_osm_schema'))");
    if (schema) await setup.query(`CREATE SCHEMA IF NOT EXISTS ${ident(schema)}`);
    await setup.query(SCHEMA);
    await setup.query('COMMIT');
  } catch (err) {
    await setup.query('ROLLBACK');
    throw err;
  } finally {
    setup.release();
  }
  const meta = async (key: string) => (await pool.query<{ value: string }>('SELECT value FROM local_osm_meta WHERE key = $1', [key])).rows[0]?.value;
  const setMeta = (db: pg.PoolClient, key: string, value: string) =>
    db.query('INSERT INTO local_osm_meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value', [key, value]);
  const putWays = async (db: pg.PoolClient, rows: { id: number; tags: Tags; refs: number[] }[]) => {
    if (rows.length === 0) return;
    const ids = rows.map((r) => r.id);
    const refs = rows.map((r) => arrayLiteral(r.refs));
    await db.query(DROP_WAY_NODES, [ids]);
    await db.query(PUT_WAYS, [ids, rows.map((r) => JSON.stringify(r.tags)), refs]);
    await db.query(PUT_WAY_NODES, [ids, refs]);
  };
  const putNodes = async (db: pg.PoolClient, rows: [number, number, number][], onlyUsed: boolean) => {
    if (rows.length === 0) return;
    await db.query(PUT_NODES(onlyUsed), [rows.map((r) => r[0]), rows.map((r) => r[1]), rows.map((r) => r[2])]);
  };
  const transaction = async <T>(work: (db: pg.PoolClient) => Promise<T>): Promise<T> => {
    const db = await pool.connect();
    try {
      await db.query('BEGIN');
      const out = await work(db);
      await db.query('COMMIT');
      return out;
    } catch (err) {
      await db.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      db.release();
    }
  };

  return {
    async recorded() {
      return (await meta('recorded')) !== undefined;
    },
    async forget() {
      await pool.query("DELETE FROM local_osm_meta WHERE key = 'recorded'");
    },
    async pending() {
      return (await meta('pending')) ?? null;
    },
    async waysUsingNodes(ids) {
      const res = await pool.query<{ way_id: string }>('SELECT DISTINCT way_id FROM local_osm_way_nodes WHERE node_id = ANY($1::bigint[])', [ids]);
      return res.rows.map((r) => Number(r.way_id));
    },
    async ways(ids) {
      const res = await pool.query<{ id: string; tags: string; refs: string[] }>('SELECT id, tags, refs FROM local_osm_ways WHERE id = ANY($1::bigint[])', [ids]);
      return new Map(res.rows.map((r): [number, StoredWay] => [Number(r.id), { tags: JSON.parse(r.tags) as Tags, refs: r.refs.map(Number) }]));
    },
    async nodes(ids) {
      const res = await pool.query<{ id: string; lat: number; lng: number }>('SELECT id, lat, lng FROM local_osm_nodes WHERE id = ANY($1::bigint[])', [ids]);
      return new Map(res.rows.map((r): [number, [number, number]] => [Number(r.id), [r.lat, r.lng]]));
    },
    async areas() {
      const res = await pool.query<{ id: string; value: string; rings: string }>('SELECT id, value, rings FROM local_osm_areas ORDER BY id');
      return res.rows.map((r): StoredArea => ({ id: Number(r.id), value: JSON.parse(r.value) as StoredArea['value'], rings: JSON.parse(r.rings) as StoredArea['rings'] }));
    },
    async apply(change, digest) {
      await transaction(async (db) => {
        if (change.droppedWays.length > 0) {
          await db.query(DROP_WAY_NODES, [change.droppedWays]);
          await db.query('DELETE FROM local_osm_ways WHERE id = ANY($1::bigint[])', [change.droppedWays]);
        }
        await putWays(db, [...change.ways].map(([id, w]) => ({ id, ...w })));
        await putNodes(db, [...change.nodes].map(([id, [lat, lng]]) => [id, lat, lng]), false);
        if (change.maybeUnused.length > 0) {
          await db.query(
            `DELETE FROM local_osm_nodes o WHERE o.id = ANY($1::bigint[]) AND NOT EXISTS (SELECT 1 FROM local_osm_way_nodes n WHERE n.node_id = o.id)`,
            [change.maybeUnused],
          );
        }
        await setMeta(db, 'pending', digest);
      });
    },
    async complete(digest) {
      await pool.query('DELETE FROM local_osm_meta WHERE key = $1 AND value = $2', ['pending', digest]);
    },
    async beginRecord(): Promise<StateRecorder> {
      const db = await pool.connect();
      await db.query('BEGIN');
      // Every statement here probes the primary keys row by row. The tables grow inside this
      // transaction, without statistics: the planner took them for tiny and scanned them for
      // each row (0.6 s a batch of 5,000 at 100,000 rows, growing with the table).
      await db.query('SET LOCAL enable_seqscan = off');
      let open = true;
      const end = async (sql: 'COMMIT' | 'ROLLBACK') => {
        if (!open) return;
        open = false;
        try {
          await db.query(sql);
        } finally {
          db.release();
        }
      };
      return {
        ways: (rows) => putWays(db, rows),
        nodes: (rows) => putNodes(db, rows, true),
        async areas(rows) {
          if (rows.length === 0) return;
          await db.query(
            `INSERT INTO local_osm_areas (id, value, rings) SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[])
             ON CONFLICT (id) DO UPDATE SET value = excluded.value, rings = excluded.rings`,
            [rows.map((a) => a.id), rows.map((a) => JSON.stringify(a.value)), rows.map((a) => JSON.stringify(a.rings))],
          );
        },
        async commit() {
          await setMeta(db, 'recorded', new Date().toISOString());
          await end('COMMIT');
        },
        abort: () => end('ROLLBACK'),
      };
    },
    async close() {
      await pool.end();
    },
  };
}
