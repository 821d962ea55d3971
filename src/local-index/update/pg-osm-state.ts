import type pg from 'pg';
import { createPgPool } from '../../store/db/pg-pool.js';
import { binaryIdPairs, copyBinary, copyText, copyThen } from '../store/pg-copy-in.js';
import { ident } from '../store/pg-schema.js';
import { withSessionOptions } from '../store/pg-store.js';
import { encodeWays, readUpdateStatus, type OsmStateStore, type StateRecorder, type StoredArea, type StoredWay, type Tags, type WayRows } from './osm-state.js';

/**
 * Which ways use a node: a GIN index on the ways' node lists (`refs @> ARRAY[node]`). It replaced a
 * (node, way) table whose composite key, maintained row by row for some ten rows per address,
 * cost the server more CPU than the import itself. The earlier layout migrates at open: the
 * ways already hold their node lists, so the index is built from them and the table dropped.
 */
const WAYS_BY_NODE = 'CREATE INDEX IF NOT EXISTS local_osm_ways_refs ON local_osm_ways USING gin (refs)';

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS local_osm_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
  CREATE TABLE IF NOT EXISTS local_osm_ways (id BIGINT PRIMARY KEY, tags TEXT NOT NULL, refs BIGINT[] NOT NULL);
  CREATE TABLE IF NOT EXISTS local_osm_nodes (id BIGINT PRIMARY KEY, lat DOUBLE PRECISION NOT NULL, lng DOUBLE PRECISION NOT NULL);
  CREATE TABLE IF NOT EXISTS local_osm_areas (id BIGINT PRIMARY KEY, value TEXT NOT NULL, rings TEXT NOT NULL);
  ${WAYS_BY_NODE};
  DROP TABLE IF EXISTS local_osm_way_nodes;`;

/**
 * Upserts skip rows that would not change: a re-import records mostly the same extract again,
 * and rewriting each unchanged row (a new row version, its index entries) doubled the cost.
 */
const SAME_NODE = `
  WHERE (local_osm_nodes.lat, local_osm_nodes.lng) IS DISTINCT FROM (excluded.lat, excluded.lng)`;
const PUT_WAYS = `
  INSERT INTO local_osm_ways (id, tags, refs) SELECT id, tags, refs::bigint[] FROM unnest($1::bigint[], $2::text[], $3::text[]) AS t (id, tags, refs)
  ON CONFLICT (id) DO UPDATE SET tags = excluded.tags, refs = excluded.refs
  WHERE (local_osm_ways.tags, local_osm_ways.refs) IS DISTINCT FROM (excluded.tags, excluded.refs)`;
const PUT_NODES = `
  INSERT INTO local_osm_nodes (id, lat, lng)
  SELECT DISTINCT ON (id) id, lat, lng FROM unnest($1::bigint[], $2::float8[], $3::float8[]) AS t (id, lat, lng)
  ON CONFLICT (id) DO UPDATE SET lat = excluded.lat, lng = excluded.lng${SAME_NODE}`;

/**
 * A first recording whose nodes come exactly (state-reader.ts) copies them into place. Otherwise
 * it stages node coordinates (a superset, screened by a lossy bitset; or a re-recording's, which
 * upserts) without any index, then keeps those a way uses in one set-based statement at commit:
 * per node, that check would need the GIN index, which a first recording builds only at the end.
 */
const STAGE_NODES = 'CREATE TEMP TABLE osm_record_nodes (id BIGINT NOT NULL, lat DOUBLE PRECISION NOT NULL, lng DOUBLE PRECISION NOT NULL) ON COMMIT DROP';
/** Into empty tables (a first recording) no row can conflict: a plain insert, in key order, costs half an upsert. */
const KEEP_USED_STAGED = (upsert: boolean) => `
  INSERT INTO local_osm_nodes (id, lat, lng)
  SELECT DISTINCT ON (id) id, lat, lng FROM pg_temp.osm_record_nodes t
  WHERE t.id IN (SELECT r FROM local_osm_ways w, unnest(w.refs) AS r)
  ORDER BY id
  ${upsert ? `ON CONFLICT (id) DO UPDATE SET lat = excluded.lat, lng = excluded.lng${SAME_NODE}` : ''}`;

/** `[1,2,3]` → `{1,2,3}`: a JSON node list as a PostgreSQL array literal. */
const jsonArrayLiteral = (refs: string) => `{${refs.slice(1, -1)}}`;

/** Ways into the (empty) ways table by COPY: tags as JSON text, node lists as array literals. */
async function copyWays(db: pg.PoolClient, { ids, tags, refs }: WayRows): Promise<void> {
  if (ids.length === 0) return;
  await copyThen(db, 'local_osm_ways', ['id', 'tags', 'refs'], ids.map((id, i) => `${id}\t${copyText(tags[i]!)}\t${jsonArrayLiteral(refs[i]!)}`), '');
}

/** Packed `id, lat, lng` nodes into `table` by a binary COPY (coordinates never written out as text). */
async function copyNodes(db: pg.PoolClient, table: string, packed: Float64Array): Promise<void> {
  if (packed.length > 0) await copyBinary(db, table, ['id', 'lat', 'lng'], binaryIdPairs(packed));
}

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
  const setMeta = (db: pg.PoolClient, key: string, value: string) =>
    db.query('INSERT INTO local_osm_meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value', [key, value]);
  const putWays = async (db: pg.PoolClient, { ids, tags, refs }: WayRows) => {
    if (ids.length === 0) return;
    await db.query(PUT_WAYS, [ids, tags, refs.map(jsonArrayLiteral)]);
  };
  const putNodes = async (db: pg.PoolClient, rows: [number, number, number][]) => {
    if (rows.length === 0) return;
    await db.query(PUT_NODES, [rows.map((r) => r[0]), rows.map((r) => r[1]), rows.map((r) => r[2])]);
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
    async updateStatus() {
      const rows = (await pool.query<{ key: string; value: string }>('SELECT key, value FROM local_osm_meta')).rows;
      return readUpdateStatus((key) => rows.find((r) => r.key === key)?.value);
    },
    async recordFailure(failure) {
      const db = await pool.connect();
      try {
        await setMeta(db, 'failed', JSON.stringify(failure));
      } finally {
        db.release();
      }
    },
    async waysUsingNodes(ids) {
      // One index probe per node: `refs && $1` with thousands of ids was planned as a scan of
      // every way, each compared with the whole list (1.2 s for 2,000 ids on 50,000 ways).
      const res = await pool.query<{ id: string }>(
        'SELECT DISTINCT w.id FROM unnest($1::bigint[]) AS r, local_osm_ways w WHERE w.refs @> ARRAY[r]',
        [ids],
      );
      return res.rows.map((r) => Number(r.id));
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
          await db.query('DELETE FROM local_osm_ways WHERE id = ANY($1::bigint[])', [change.droppedWays]);
        }
        await putWays(db, encodeWays([...change.ways].map(([id, w]) => ({ id, ...w }))));
        await putNodes(db, [...change.nodes].map(([id, [lat, lng]]) => [id, lat, lng]));
        if (change.maybeUnused.length > 0) {
          await db.query(
            `DELETE FROM local_osm_nodes o WHERE o.id = ANY($1::bigint[]) AND NOT EXISTS (SELECT 1 FROM local_osm_ways w WHERE w.refs @> ARRAY[o.id])`,
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
      // A first recording fills empty tables: building the GIN index once at the end costs a
      // fraction of maintaining it row by row (both inside this transaction, so an abort keeps
      // the index). A recording over earlier state keeps it maintained.
      const first = (await db.query('SELECT 1 FROM local_osm_ways LIMIT 1')).rowCount === 0;
      const noNodes = (await db.query('SELECT 1 FROM local_osm_nodes LIMIT 1')).rowCount === 0;
      if (first) await db.query('DROP INDEX IF EXISTS local_osm_ways_refs');
      // Into an empty table the key is built once at the end, from the loaded rows, rather than
      // row by row (6.8M nodes of a 2M-address country: 8.5 s against 5.8 s of server time).
      if (first) await db.query('ALTER TABLE local_osm_ways DROP CONSTRAINT local_osm_ways_pkey');
      if (noNodes) await db.query('ALTER TABLE local_osm_nodes DROP CONSTRAINT local_osm_nodes_pkey');
      // The semi-join at commit hashes every stored node reference: in memory rather than in
      // batches on disk at an extract's size, still bounded on a country's.
      await db.query("SET LOCAL work_mem = '64MB'");
      await db.query(STAGE_NODES);
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
      let staged = false;
      let completed = false;
      const recorder: StateRecorder = {
        // Into empty tables (a first recording: each way once, exact nodes in id order) by COPY:
        // the server's fast path, and no parameter arrays to build and parse.
        ways: (rows) => (first ? copyWays(db, rows) : putWays(db, rows)),
        async nodes(packed, exact) {
          if (first && noNodes && exact) return copyNodes(db, 'local_osm_nodes', packed);
          staged = true;
          return copyNodes(db, 'pg_temp.osm_record_nodes', packed);
        },
        async areas(rows) {
          if (rows.length === 0) return;
          await db.query(
            `INSERT INTO local_osm_areas (id, value, rings) SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[])
             ON CONFLICT (id) DO UPDATE SET value = excluded.value, rings = excluded.rings`,
            [rows.map((a) => a.id), rows.map((a) => JSON.stringify(a.value)), rows.map((a) => JSON.stringify(a.rings))],
          );
        },
        async complete() {
          if (completed) return;
          completed = true;
          if (first) await db.query('ALTER TABLE local_osm_ways ADD PRIMARY KEY (id)');
          if (first) await db.query(WAYS_BY_NODE);
          // Statistics for the semi-join below (and for updates' plans after a bulk load).
          await db.query('ANALYZE local_osm_ways');
          if (staged) {
            await db.query('ANALYZE pg_temp.osm_record_nodes');
            await db.query(KEEP_USED_STAGED(!noNodes));
          }
          if (noNodes) await db.query('ALTER TABLE local_osm_nodes ADD PRIMARY KEY (id)');
        },
        async commit(extract) {
          await recorder.complete();
          await setMeta(db, 'recorded', JSON.stringify(extract));
          await db.query("DELETE FROM local_osm_meta WHERE key = 'failed'");
          await end('COMMIT');
        },
        abort: () => end('ROLLBACK'),
      };
      return recorder;
    },
    async close() {
      await pool.end();
    },
  };
}
