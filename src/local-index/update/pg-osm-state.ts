import type pg from 'pg';
import { createPgPool } from '../../store/db/pg-pool.js';
import { copyBinary } from '../store/pg-copy-in.js';
import { ident } from '../store/pg-schema.js';
import { withSessionOptions } from '../store/pg-store.js';
import { readUpdateStatus, type OsmStateStore, type StateRecorder, type StoredArea, type StoredWay, type Tags, type WayRows } from './osm-state.js';
import { coordsFromArray, coordsLiteral, coordsOf, moveNodes, pointsOf, refsLiteral } from './way-coords.js';
import { wayAt } from './way-rows.js';
import { binaryWays } from './pg-way-copy.js';

/**
 * Which ways use a node: a GIN index on the ways' node lists (`refs @> ARRAY[node]`). It replaced a
 * (node, way) table whose composite key, maintained row by row for some ten rows per address,
 * cost the server more CPU than the import itself. A recording drops it and the first update
 * that asks builds it (ensureWaysByNode): built once from the loaded rows it costs the server
 * seconds a country, which an import need not wait for; updates then keep it current.
 */
const WAYS_BY_NODE = 'CREATE INDEX IF NOT EXISTS local_osm_ways_refs ON local_osm_ways USING gin (refs)';

/**
 * Each way keeps its nodes' coordinates beside its node list (`coords`, way-coords.ts). The
 * earlier layouts migrate at open: a (node, way) table is dropped (the GIN index replaces it), and
 * a row per node (`local_osm_nodes`) goes into the ways that use them.
 */
const SCHEMA = `
  CREATE TABLE IF NOT EXISTS local_osm_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
  CREATE TABLE IF NOT EXISTS local_osm_ways (id BIGINT PRIMARY KEY, tags TEXT NOT NULL, refs BIGINT[] NOT NULL, coords INTEGER[]);
  ALTER TABLE local_osm_ways ADD COLUMN IF NOT EXISTS coords INTEGER[];
  CREATE TABLE IF NOT EXISTS local_osm_areas (id BIGINT PRIMARY KEY, value TEXT NOT NULL, rings TEXT NOT NULL);
  DROP TABLE IF EXISTS local_osm_way_nodes;`;
const NODE_ROWS_INTO_WAYS = `
  UPDATE local_osm_ways w SET coords = (
    SELECT array_agg(v.e7 ORDER BY r.o, v.k)
    FROM unnest(w.refs) WITH ORDINALITY AS r (id, o)
    LEFT JOIN local_osm_nodes n ON n.id = r.id
    CROSS JOIN LATERAL (VALUES (1, round(n.lat * 1e7)::integer), (2, round(n.lng * 1e7)::integer)) AS v (k, e7))`;

/**
 * Upserts skip rows that would not change: a re-import records mostly the same extract again,
 * and rewriting each unchanged row (a new row version) doubled the cost.
 */
const PUT_WAYS = `
  INSERT INTO local_osm_ways (id, tags, refs, coords)
  SELECT id, tags, refs::bigint[], coords::integer[] FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[]) AS t (id, tags, refs, coords)
  ON CONFLICT (id) DO UPDATE SET tags = excluded.tags, refs = excluded.refs, coords = excluded.coords
  WHERE (local_osm_ways.tags, local_osm_ways.refs, local_osm_ways.coords) IS DISTINCT FROM (excluded.tags, excluded.refs, excluded.coords)`;
/** One index probe per node: `refs && $1` with thousands of ids was planned as a scan of every way (1.2 s for 2,000 ids on 50,000 ways). */
const HOLDERS = 'SELECT DISTINCT w.id, w.refs, w.coords FROM unnest($1::bigint[]) AS r, local_osm_ways w WHERE w.refs @> ARRAY[r]';

type WayRow = { id: string; refs: string[]; coords: (number | null)[] | null };

/** Ways into the (empty) ways table by a binary COPY (pg-way-copy.ts). */
async function copyWays(db: pg.PoolClient, rows: WayRows): Promise<void> {
  if (rows.ids.length > 0) await copyBinary(db, 'local_osm_ways', ['id', 'tags', 'refs', 'coords'], binaryWays(rows));
}

/** Ways by an upsert that leaves unchanged rows alone. */
async function putWays(db: pg.PoolClient, rows: WayRows): Promise<void> {
  const n = rows.ids.length;
  if (n === 0) return;
  const ids: number[] = [];
  const tags: string[] = [];
  const refs: string[] = [];
  const coords: string[] = [];
  for (let i = 0; i < n; i++) {
    const w = wayAt(rows, i);
    ids.push(w.id);
    tags.push(w.tags);
    refs.push(refsLiteral(w.refs));
    coords.push(coordsLiteral(w.coords));
  }
  await db.query(PUT_WAYS, [ids, tags, refs, coords]);
}

/** A stored way read back: its node list as numbers, its coordinates. */
const wayPoints = (w: WayRow) => ({ id: Number(w.id), refs: w.refs.map(Number), coords: coordsFromArray(w.coords, w.refs.length) });

/** The OSM update state in PostgreSQL (`local_osm_*`), always on the primary (see osm-state.ts). */
export async function openPgOsmState(databaseUrl: string, schema: string | undefined): Promise<OsmStateStore> {
  const pool = createPgPool({ connectionString: withSessionOptions(databaseUrl, schema), max: 2, allowExitOnIdle: true });
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
  const lockSchema = (db: pg.PoolClient) => db.query("SELECT pg_advisory_xact_lock(hashtext('addressd_local_osm_schema'))");
  await transaction(async (db) => {
    await lockSchema(db);
    if (schema) await db.query(`CREATE SCHEMA IF NOT EXISTS ${ident(schema)}`);
    await db.query(SCHEMA);
    if ((await db.query("SELECT to_regclass('local_osm_nodes') IS NOT NULL AS present")).rows[0]?.present) {
      await db.query(NODE_ROWS_INTO_WAYS);
      await db.query('DROP TABLE local_osm_nodes');
    }
  });
  const setMeta = (db: pg.PoolClient, key: string, value: string) =>
    db.query('INSERT INTO local_osm_meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value', [key, value]);
  const waysByNodeMissing = async (db: pg.Pool | pg.PoolClient) =>
    Boolean((await db.query<{ missing: boolean }>("SELECT to_regclass('local_osm_ways_refs') IS NULL AS missing")).rows[0]?.missing);
  /** Asked each time: a recording in another process may have dropped the index since. */
  const ensureWaysByNode = async () => {
    if (!(await waysByNodeMissing(pool))) return;
    await transaction(async (db) => {
      await lockSchema(db);
      if (!(await waysByNodeMissing(db))) return;
      await db.query(WAYS_BY_NODE);
      // Statistics for the updates' plans, with the index they now have.
      await db.query('ANALYZE local_osm_ways');
    });
  };
  const holders = async (db: pg.Pool | pg.PoolClient, ids: number[]) => (ids.length === 0 ? [] : (await db.query<WayRow>(HOLDERS, [ids])).rows.map(wayPoints));

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
      await ensureWaysByNode();
      const res = await pool.query<{ id: string }>('SELECT DISTINCT w.id FROM unnest($1::bigint[]) AS r, local_osm_ways w WHERE w.refs @> ARRAY[r]', [ids]);
      return res.rows.map((r) => Number(r.id));
    },
    async ways(ids) {
      const res = await pool.query<{ id: string; tags: string; refs: string[] }>('SELECT id, tags, refs FROM local_osm_ways WHERE id = ANY($1::bigint[])', [ids]);
      return new Map(res.rows.map((r): [number, StoredWay] => [Number(r.id), { tags: JSON.parse(r.tags) as Tags, refs: r.refs.map(Number) }]));
    },
    async nodes(ids) {
      await ensureWaysByNode();
      return pointsOf(await holders(pool, ids), ids);
    },
    async areas() {
      const res = await pool.query<{ id: string; value: string; rings: string }>('SELECT id, value, rings FROM local_osm_areas ORDER BY id');
      return res.rows.map((r): StoredArea => ({ id: Number(r.id), value: JSON.parse(r.value) as StoredArea['value'], rings: JSON.parse(r.rings) as StoredArea['rings'] }));
    },
    async apply(change, digest) {
      await ensureWaysByNode();
      await transaction(async (db) => {
        // Nodes a written way uses that the change does not move: where the stored ways have them (before any is dropped).
        const unmoved = [...new Set([...change.ways.values()].flatMap((w) => w.refs.filter((r) => !change.nodes.has(r))))];
        const kept = pointsOf(await holders(db, unmoved), unmoved);
        const at = (ref: number) => change.nodes.get(ref) ?? kept.get(ref);
        if (change.droppedWays.length > 0) {
          await db.query('DELETE FROM local_osm_ways WHERE id = ANY($1::bigint[])', [change.droppedWays]);
        }
        const written = [...change.ways].map(([id, w]) => ({ id, tags: JSON.stringify(w.tags), refs: refsLiteral(w.refs), coords: coordsLiteral(coordsOf(w.refs, at)) }));
        if (written.length > 0) {
          await db.query(PUT_WAYS, [written.map((w) => w.id), written.map((w) => w.tags), written.map((w) => w.refs), written.map((w) => w.coords)]);
        }
        // Every other stored way that uses a moved node takes its new coordinates.
        const moved: { id: number; coords: string }[] = [];
        for (const w of await holders(db, [...change.nodes.keys()])) {
          if (!change.ways.has(w.id) && moveNodes(w, change.nodes)) moved.push({ id: w.id, coords: coordsLiteral(w.coords) });
        }
        if (moved.length > 0) {
          await db.query('UPDATE local_osm_ways w SET coords = t.coords::integer[] FROM unnest($1::bigint[], $2::text[]) AS t (id, coords) WHERE w.id = t.id', [
            moved.map((m) => m.id),
            moved.map((m) => m.coords),
          ]);
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
      const first = (await db.query('SELECT 1 FROM local_osm_ways LIMIT 1')).rowCount === 0;
      // Left for the first update to build (ensureWaysByNode): maintained row by row it would cost
      // the recording far more than one build. Inside this transaction: an abort keeps it.
      await db.query('DROP INDEX IF EXISTS local_osm_ways_refs');
      // Into an empty table the key is built once at the end, from the loaded rows, rather than row by row.
      if (first) await db.query('ALTER TABLE local_osm_ways DROP CONSTRAINT local_osm_ways_pkey');
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
      let completed = false;
      const recorder: StateRecorder = {
        // Into empty tables (a first recording: each way once) by COPY: the server's fast path,
        // and no parameter arrays to build and parse.
        ways: (rows) => (first ? copyWays(db, rows) : putWays(db, rows)),
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
