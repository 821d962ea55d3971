import type Database from 'better-sqlite3';
import { coordsBlob, coordsOf } from './way-coords.js';

const PAGE = 5000;

/**
 * State recorded before the ways kept their nodes' coordinates (osm-state.ts) had a row per node
 * in `osm_nodes`: each way takes its nodes' coordinates from there, once, and the table goes.
 * `osm_way_nodes` is left for the first update to build again (its mark was never set). In a
 * transaction of its own, or in the one open on `db` (an import's).
 */
export function migrateSqliteNodeRows(db: Database.Database): void {
  const columns = db.prepare("SELECT name FROM pragma_table_info('osm_ways')").pluck().all() as string[];
  if (!columns.includes('coords')) db.exec('ALTER TABLE osm_ways ADD COLUMN coords BLOB');
  if (!db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'osm_nodes'").get()) return;
  const migrate = () => {
    const page = db.prepare('SELECT id, refs FROM osm_ways WHERE id > ? ORDER BY id LIMIT ?');
    const node = db.prepare('SELECT lat, lng FROM osm_nodes WHERE id = ?');
    const set = db.prepare('UPDATE osm_ways SET coords = ? WHERE id = ?');
    for (let after = Number.MIN_SAFE_INTEGER; ; ) {
      const rows = page.all(after, PAGE) as { id: number; refs: string }[];
      if (rows.length === 0) break;
      for (const w of rows) {
        const coords = coordsOf(JSON.parse(w.refs) as number[], (id) => {
          const n = node.get(id) as { lat: number; lng: number } | undefined;
          return n ? [n.lat, n.lng] : undefined;
        });
        set.run(coordsBlob(coords), w.id);
      }
      after = rows[rows.length - 1]!.id;
    }
    db.exec('DROP TABLE osm_nodes');
  };
  if (db.inTransaction) migrate();
  else db.transaction(migrate).immediate();
}
