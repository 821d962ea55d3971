import Database from 'better-sqlite3';
import { ensureDataDir } from '../../lib/data-dir.js';
import { join } from 'node:path';
import { SQLITE_INDEX_FILE } from '../store/sqlite-store.js';
import { readUpdateStatus, type OsmStateStore, type StateRecorder, type StoredArea, type StoredWay, type Tags } from './osm-state.js';

/** Rows per insert statement of a first recording. */
const MANY = 100;

/** Ids per `IN (SELECT value FROM json_each(?))` look-up. */
const CHUNK = 10_000;

function chunks<T>(items: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
}

/** The state's tables, created where missing. */
export function createSqliteOsmState(db: Database.Database): void {
  db.exec(`
    CREATE TABLE IF NOT EXISTS osm_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE IF NOT EXISTS osm_ways (id INTEGER PRIMARY KEY, tags TEXT NOT NULL, refs TEXT NOT NULL);
    CREATE TABLE IF NOT EXISTS osm_way_nodes (node_id INTEGER NOT NULL, way_id INTEGER NOT NULL, PRIMARY KEY (node_id, way_id)) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS osm_nodes (id INTEGER PRIMARY KEY, lat REAL NOT NULL, lng REAL NOT NULL);
    CREATE TABLE IF NOT EXISTS osm_areas (id INTEGER PRIMARY KEY, value TEXT NOT NULL, rings TEXT NOT NULL);
  `);
}

/**
 * A recording on `db`, in the transaction open there: its own (`own`: committed or rolled back
 * here), or an import's (record-alongside.ts: the import's commit commits it too, so the index and
 * its update state change together). A first recording fills empty tables: rather than a node
 * index row and a probe of it per reference and per node, ways are written alone, exact nodes
 * straight into place and a screened superset staged; at commit the node index is built in one
 * sorted pass, which appends to its B-tree, and the staged nodes a way uses are kept. Over earlier
 * state, row by row as an update.
 */
export function sqliteRecorder(db: Database.Database, own: boolean): StateRecorder {
  createSqliteOsmState(db);
  const first = db.prepare('SELECT 1 FROM osm_ways LIMIT 1').get() === undefined;
  const q = sqliteStateStatements(db);
  db.exec('CREATE TEMP TABLE IF NOT EXISTS osm_record_nodes (id INTEGER NOT NULL, lat REAL NOT NULL, lng REAL NOT NULL); DELETE FROM temp.osm_record_nodes;');
  const stage = db.prepare('INSERT INTO temp.osm_record_nodes (id, lat, lng) VALUES (?, ?, ?)');
  // A first recording's rows go in MANY to a statement: one call into SQLite instead of one per row.
  const values = (n: number) => Array.from({ length: n }, () => '(?, ?, ?)').join(', ');
  const putWays = db.prepare(`INSERT INTO osm_ways (id, tags, refs) VALUES ${values(MANY)} ON CONFLICT (id) DO UPDATE SET tags = excluded.tags, refs = excluded.refs`);
  const putNodes = db.prepare(`INSERT INTO osm_nodes (id, lat, lng) VALUES ${values(MANY)} ON CONFLICT (id) DO UPDATE SET lat = excluded.lat, lng = excluded.lng`);
  let staged = false;
  let completed = false;
  let open = true;
  const finish = (sql: 'COMMIT' | 'ROLLBACK' | undefined) => {
    open = false;
    if (sql && db.inTransaction) db.exec(sql);
    db.exec('DROP TABLE IF EXISTS temp.osm_record_nodes');
  };
  const recorder: StateRecorder = {
    async ways({ ids, tags, refs }) {
      if (!first) {
        for (let i = 0; i < ids.length; i++) q.writeWayText(ids[i]!, tags[i]!, refs[i]!);
        return;
      }
      const whole = ids.length - (ids.length % MANY);
      const args: (number | string)[] = [];
      for (let i = 0; i < whole; i++) {
        args.push(ids[i]!, tags[i]!, refs[i]!);
        if (args.length === MANY * 3) putWays.run(args.splice(0));
      }
      for (let i = whole; i < ids.length; i++) q.putWay.run(ids[i], tags[i], refs[i]);
    },
    async nodes(packed, exact) {
      const n = packed.length / 3;
      if (first && exact) {
        const whole = n - (n % MANY);
        for (let i = 0; i < whole; i += MANY) putNodes.run(Array.from(packed.subarray(i * 3, (i + MANY) * 3)));
        for (let i = whole; i < n; i++) q.putNode.run(packed[i * 3], packed[i * 3 + 1], packed[i * 3 + 2]);
      } else if (first) {
        staged = true;
        for (let i = 0; i < n; i++) stage.run(packed[i * 3], packed[i * 3 + 1], packed[i * 3 + 2]);
      } else for (let i = 0; i < n; i++) q.putUsedNode.run({ id: packed[i * 3], lat: packed[i * 3 + 1], lng: packed[i * 3 + 2] });
    },
    async areas(rows) {
      for (const a of rows) q.putArea.run(a.id, JSON.stringify(a.value), JSON.stringify(a.rings));
    },
    async complete() {
      if (completed) return;
      completed = true;
      if (first) db.exec('INSERT OR IGNORE INTO osm_way_nodes (node_id, way_id) SELECT j.value, w.id FROM osm_ways w, json_each(w.refs) j ORDER BY 1, 2');
      if (staged) {
        db.exec(`INSERT INTO osm_nodes (id, lat, lng) SELECT id, lat, lng FROM temp.osm_record_nodes t
                   WHERE EXISTS (SELECT 1 FROM osm_way_nodes n WHERE n.node_id = t.id) ORDER BY id
                   ON CONFLICT (id) DO UPDATE SET lat = excluded.lat, lng = excluded.lng`);
      }
    },
    async commit(extract) {
      await recorder.complete();
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
  const putWay = db.prepare('INSERT INTO osm_ways (id, tags, refs) VALUES (?, ?, ?) ON CONFLICT (id) DO UPDATE SET tags = excluded.tags, refs = excluded.refs');
  // Through the way's stored node list: the node index is keyed by node, and a scan by way would read it all.
  const oldRefs = db.prepare('SELECT refs FROM osm_ways WHERE id = ?').pluck();
  const dropWayNode = db.prepare('DELETE FROM osm_way_nodes WHERE node_id = ? AND way_id = ?');
  const dropWayNodes = (id: number) => {
    const refs = oldRefs.get(id) as string | undefined;
    if (refs) for (const ref of JSON.parse(refs) as number[]) dropWayNode.run(ref, id);
  };
  const putWayNode = db.prepare('INSERT OR IGNORE INTO osm_way_nodes (node_id, way_id) VALUES (?, ?)');
  const dropWay = db.prepare('DELETE FROM osm_ways WHERE id = ?');
  const putNode = db.prepare('INSERT INTO osm_nodes (id, lat, lng) VALUES (?, ?, ?) ON CONFLICT (id) DO UPDATE SET lat = excluded.lat, lng = excluded.lng');
  const putUsedNode = db.prepare(
    `INSERT INTO osm_nodes (id, lat, lng) SELECT @id, @lat, @lng WHERE EXISTS (SELECT 1 FROM osm_way_nodes WHERE node_id = @id)
     ON CONFLICT (id) DO UPDATE SET lat = excluded.lat, lng = excluded.lng WHERE (osm_nodes.lat, osm_nodes.lng) IS NOT (excluded.lat, excluded.lng)`,
  );
  const dropUnused = db.prepare('DELETE FROM osm_nodes WHERE id = ? AND NOT EXISTS (SELECT 1 FROM osm_way_nodes WHERE node_id = ?)');
  const putArea = db.prepare('INSERT INTO osm_areas (id, value, rings) VALUES (?, ?, ?) ON CONFLICT (id) DO UPDATE SET value = excluded.value, rings = excluded.rings');

  const oldWay = db.prepare('SELECT tags, refs FROM osm_ways WHERE id = ?');
  /** A way as it now is; an unchanged one (most of a re-recorded extract) is left as stored. */
  const writeWayText = (id: number, tags: string, refs: string) => {
    const old = oldWay.get(id) as { tags: string; refs: string } | undefined;
    if (old?.refs === refs) {
      if (old.tags !== tags) putWay.run(id, tags, refs);
      return;
    }
    if (old) for (const ref of JSON.parse(old.refs) as number[]) dropWayNode.run(ref, id);
    putWay.run(id, tags, refs);
    for (const ref of JSON.parse(refs) as number[]) putWayNode.run(ref, id);
  };
  const writeWay = (id: number, w: StoredWay) => writeWayText(id, JSON.stringify(w.tags), JSON.stringify(w.refs));
  return { setMeta, dropWayNodes, dropWay, writeWay, writeWayText, putWay, putNode, putUsedNode, dropUnused, putArea };
}

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
  const { setMeta, dropWayNodes, dropWay, writeWay, putNode, dropUnused } = sqliteStateStatements(db);
  const delMeta = db.prepare('DELETE FROM osm_meta WHERE key = ? AND value = ?');
  return {
    async updateStatus() {
      return readUpdateStatus(meta);
    },
    async recordFailure(failure) {
      setMeta.run('failed', JSON.stringify(failure));
    },
    async waysUsingNodes(ids) {
      const stmt = db.prepare('SELECT DISTINCT way_id FROM osm_way_nodes WHERE node_id IN (SELECT value FROM json_each(?))').pluck();
      return [...new Set(chunks(ids).flatMap((c) => stmt.all(JSON.stringify(c)) as number[]))];
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
      const stmt = db.prepare('SELECT id, lat, lng FROM osm_nodes WHERE id IN (SELECT value FROM json_each(?))');
      const out = new Map<number, [number, number]>();
      for (const c of chunks(ids)) for (const r of stmt.all(JSON.stringify(c)) as { id: number; lat: number; lng: number }[]) out.set(r.id, [r.lat, r.lng]);
      return out;
    },
    async areas() {
      const rows = db.prepare('SELECT id, value, rings FROM osm_areas ORDER BY id').all() as { id: number; value: string; rings: string }[];
      return rows.map((r): StoredArea => ({ id: r.id, value: JSON.parse(r.value) as StoredArea['value'], rings: JSON.parse(r.rings) as StoredArea['rings'] }));
    },
    async apply(change, digest) {
      db.transaction(() => {
        for (const id of change.droppedWays) {
          dropWayNodes(id);
          dropWay.run(id);
        }
        for (const [id, w] of change.ways) writeWay(id, w);
        for (const [id, [lat, lng]] of change.nodes) putNode.run(id, lat, lng);
        for (const id of change.maybeUnused) dropUnused.run(id, id);
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
