import Database from 'better-sqlite3';
import { ensureDataDir } from '../../lib/data-dir.js';
import { join } from 'node:path';
import { SQLITE_INDEX_FILE } from '../store/sqlite-store.js';
import { readUpdateStatus, type OsmStateStore, type StateRecorder, type StoredArea, type StoredWay, type Tags } from './osm-state.js';
import { coordsBlob, coordsFromBlob, coordsOf, moveNodes, pointsOf, refsJson } from './way-coords.js';
import { wayAt } from './way-rows.js';
import { migrateSqliteNodeRows } from './sqlite-state-migrate.js';

/** Rows per insert statement of a first recording. */
const MANY = 100;

/** Ids per `IN (SELECT value FROM json_each(?))` look-up. */
const CHUNK = 10_000;

function chunks<T>(items: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
}

/** osm_meta's mark that osm_way_nodes holds every stored way's nodes. */
const WAY_NODES_BUILT = 'way_nodes';

/** The state's tables, created where missing; state in the earlier layout (a row per node) migrates. */
export function createSqliteOsmState(db: Database.Database): void {
  db.exec(`
    CREATE TABLE IF NOT EXISTS osm_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE IF NOT EXISTS osm_ways (id INTEGER PRIMARY KEY, tags TEXT NOT NULL, refs TEXT NOT NULL, coords BLOB);
    CREATE TABLE IF NOT EXISTS osm_way_nodes (node_id INTEGER NOT NULL, way_id INTEGER NOT NULL, PRIMARY KEY (node_id, way_id)) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS osm_areas (id INTEGER PRIMARY KEY, value TEXT NOT NULL, rings TEXT NOT NULL);
  `);
  migrateSqliteNodeRows(db);
}

/**
 * Which ways use a node (osm_way_nodes): built from the stored node lists, in one sorted pass
 * that appends to its B-tree, by the first update that asks, not by the recording. Row by row
 * beside the import it was a row and a probe for each of a country's millions of node
 * references; built at once it is still seconds a country, which an import need not wait for.
 * Updates then keep it current.
 */
function ensureWayNodes(db: Database.Database): void {
  if (db.prepare('SELECT 1 FROM osm_meta WHERE key = ?').get(WAY_NODES_BUILT)) return;
  const build = () => {
    db.exec('DELETE FROM osm_way_nodes');
    db.exec('INSERT OR IGNORE INTO osm_way_nodes (node_id, way_id) SELECT j.value, w.id FROM osm_ways w, json_each(w.refs) j ORDER BY 1, 2');
    db.prepare('INSERT INTO osm_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(WAY_NODES_BUILT, 'built');
  };
  if (db.inTransaction) build();
  else db.transaction(build).immediate();
}

/**
 * A recording on `db`, in the transaction open there: its own (`own`: committed or rolled back
 * here), or an import's (record-alongside.ts: the import's commit commits it too, so the index and
 * its update state change together). Each way is one row with its nodes' coordinates; the index
 * of which ways use a node is dropped, for the first update to build again (ensureWayNodes). A
 * first recording fills empty tables, many rows a statement; over earlier state, an unchanged
 * way is left as stored.
 */
export function sqliteRecorder(db: Database.Database, own: boolean): StateRecorder {
  createSqliteOsmState(db);
  const first = db.prepare('SELECT 1 FROM osm_ways LIMIT 1').get() === undefined;
  db.prepare('DELETE FROM osm_meta WHERE key = ?').run(WAY_NODES_BUILT);
  if (!first) db.exec('DELETE FROM osm_way_nodes');
  const q = sqliteStateStatements(db);
  // A first recording's rows go in MANY to a statement: one call into SQLite instead of one per row.
  const values = Array.from({ length: MANY }, () => '(?, ?, ?, ?)').join(', ');
  const putWays = db.prepare(`INSERT INTO osm_ways (id, tags, refs, coords) VALUES ${values}`);
  let open = true;
  const finish = (sql: 'COMMIT' | 'ROLLBACK' | undefined) => {
    open = false;
    if (sql && db.inTransaction) db.exec(sql);
  };
  const recorder: StateRecorder = {
    async ways(rows) {
      const n = rows.ids.length;
      const whole = first ? n - (n % MANY) : 0;
      const args: (number | string | Buffer)[] = [];
      for (let i = 0; i < whole; i++) {
        const w = wayAt(rows, i);
        args.push(w.id, w.tags, refsJson(w.refs), coordsBlob(w.coords));
        if (args.length === MANY * 4) putWays.run(args.splice(0));
      }
      for (let i = whole; i < n; i++) {
        const w = wayAt(rows, i);
        q.putWay.run(w.id, w.tags, refsJson(w.refs), coordsBlob(w.coords));
      }
    },
    async areas(rows) {
      for (const a of rows) q.putArea.run(a.id, JSON.stringify(a.value), JSON.stringify(a.rings));
    },
    // Nothing was put off: every row went into place as it came.
    async complete() {},
    async commit(extract) {
      q.setMeta.run('recorded', JSON.stringify(extract));
      db.prepare("DELETE FROM osm_meta WHERE key = 'failed'").run();
      finish(own ? 'COMMIT' : undefined);
    },
    async abort() {
      if (open) finish(own ? 'ROLLBACK' : undefined);
    },
  };
  return recorder;
}

/** The statements a recording and an update write the state with. */
function sqliteStateStatements(db: Database.Database) {
  const setMeta = db.prepare('INSERT INTO osm_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value');
  // A re-recorded extract is mostly the same again: an unchanged row is not rewritten.
  const putWay = db.prepare(
    `INSERT INTO osm_ways (id, tags, refs, coords) VALUES (?, ?, ?, ?)
     ON CONFLICT (id) DO UPDATE SET tags = excluded.tags, refs = excluded.refs, coords = excluded.coords
     WHERE (osm_ways.tags, osm_ways.refs, osm_ways.coords) IS NOT (excluded.tags, excluded.refs, excluded.coords)`,
  );
  const putArea = db.prepare('INSERT INTO osm_areas (id, value, rings) VALUES (?, ?, ?) ON CONFLICT (id) DO UPDATE SET value = excluded.value, rings = excluded.rings');
  return { setMeta, putWay, putArea };
}

type WayRow = { id: number; tags: string; refs: string; coords: Buffer | null };

/** The OSM update state in the SQLite index file, on its own connection (see osm-state.ts). */
export function openSqliteOsmState(dataDir: string): OsmStateStore {
  ensureDataDir(dataDir);
  const db = new Database(join(dataDir, SQLITE_INDEX_FILE));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  // An import in another process holds the write lock for its whole transaction.
  db.pragma('busy_timeout = 600000');
  createSqliteOsmState(db);
  const meta = (key: string) => db.prepare('SELECT value FROM osm_meta WHERE key = ?').pluck().get(key) as string | undefined;
  const { setMeta, putWay } = sqliteStateStatements(db);
  const delMeta = db.prepare('DELETE FROM osm_meta WHERE key = ? AND value = ?');
  const wayNodesOf = db.prepare('SELECT DISTINCT way_id FROM osm_way_nodes WHERE node_id IN (SELECT value FROM json_each(?))').pluck();
  const holdersOf = db.prepare(
    'SELECT id, tags, refs, coords FROM osm_ways WHERE id IN (SELECT way_id FROM osm_way_nodes WHERE node_id IN (SELECT value FROM json_each(?)))',
  );
  const oldWay = db.prepare('SELECT refs FROM osm_ways WHERE id = ?').pluck();
  const dropWayNode = db.prepare('DELETE FROM osm_way_nodes WHERE node_id = ? AND way_id = ?');
  const putWayNode = db.prepare('INSERT OR IGNORE INTO osm_way_nodes (node_id, way_id) VALUES (?, ?)');
  const dropWay = db.prepare('DELETE FROM osm_ways WHERE id = ?');
  const setCoords = db.prepare('UPDATE osm_ways SET coords = ? WHERE id = ?');

  /** The stored ways that use any of `ids`, with their node lists and coordinates. */
  const holders = (ids: number[]) =>
    chunks(ids).flatMap((c) =>
      (holdersOf.all(JSON.stringify(c)) as WayRow[]).map((w) => {
        const refs = JSON.parse(w.refs) as number[];
        return { id: w.id, refs, coords: coordsFromBlob(w.coords, refs.length) };
      }),
    );
  /** Its rows in the node index go (before its node list changes or it is dropped). */
  const dropWayNodes = (id: number) => {
    const old = oldWay.get(id) as string | undefined;
    if (old !== undefined) for (const ref of JSON.parse(old) as number[]) dropWayNode.run(ref, id);
  };
  /** A way as it now is, its node index rows kept in step with its node list. */
  const writeWay = (id: number, w: StoredWay, coords: Int32Array) => {
    dropWayNodes(id);
    putWay.run(id, JSON.stringify(w.tags), refsJson(w.refs), coordsBlob(coords));
    for (const ref of w.refs) putWayNode.run(ref, id);
  };

  return {
    async updateStatus() {
      return readUpdateStatus(meta);
    },
    async recordFailure(failure) {
      setMeta.run('failed', JSON.stringify(failure));
    },
    async waysUsingNodes(ids) {
      ensureWayNodes(db);
      return [...new Set(chunks(ids).flatMap((c) => wayNodesOf.all(JSON.stringify(c)) as number[]))];
    },
    async ways(ids) {
      const stmt = db.prepare('SELECT id, tags, refs FROM osm_ways WHERE id IN (SELECT value FROM json_each(?))');
      const out = new Map<number, StoredWay>();
      for (const c of chunks(ids)) {
        for (const r of stmt.all(JSON.stringify(c)) as { id: number; tags: string; refs: string }[]) {
          out.set(r.id, { tags: JSON.parse(r.tags) as Tags, refs: JSON.parse(r.refs) as number[] });
        }
      }
      return out;
    },
    async nodes(ids) {
      ensureWayNodes(db);
      return pointsOf(holders(ids), ids);
    },
    async areas() {
      const rows = db.prepare('SELECT id, value, rings FROM osm_areas ORDER BY id').all() as { id: number; value: string; rings: string }[];
      return rows.map((r): StoredArea => ({ id: r.id, value: JSON.parse(r.value) as StoredArea['value'], rings: JSON.parse(r.rings) as StoredArea['rings'] }));
    },
    async apply(change, digest) {
      db.transaction(() => {
        ensureWayNodes(db);
        // Nodes a written way uses that the change does not move: where the stored ways have them (before any is dropped).
        const unmoved = [...new Set([...change.ways.values()].flatMap((w) => w.refs.filter((r) => !change.nodes.has(r))))];
        const kept = pointsOf(holders(unmoved), unmoved);
        const at = (ref: number) => change.nodes.get(ref) ?? kept.get(ref);
        for (const id of change.droppedWays) {
          dropWayNodes(id);
          dropWay.run(id);
        }
        for (const [id, w] of change.ways) writeWay(id, w, coordsOf(w.refs, at));
        // Every other stored way that uses a moved node takes its new coordinates.
        for (const w of holders([...change.nodes.keys()])) {
          if (!change.ways.has(w.id) && moveNodes(w, change.nodes)) setCoords.run(coordsBlob(w.coords), w.id);
        }
        setMeta.run('pending', digest);
      }).immediate();
    },
    async complete(digest) {
      delMeta.run('pending', digest);
    },
    async beginRecord(): Promise<StateRecorder> {
      db.exec('BEGIN IMMEDIATE');
      return sqliteRecorder(db, true);
    },
    async close() {
      db.close();
    },
  };
}
