import Database from 'better-sqlite3';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ReaderItem } from '../types.js';
import { checkPbfHeader, pbfElements } from './pbf-blocks.js';
import { buildAddress } from './record.js';

type Tags = Record<string, string>;

function fields(tags: Tags, lat: number | undefined, lng: number | undefined, sourceId: string, country?: string) {
  return {
    lat,
    lng,
    houseNumber: tags['addr:housenumber'],
    street: tags['addr:street'] || tags['addr:place'],
    postcode: tags['addr:postcode'],
    city: tags['addr:city'],
    state: tags['addr:state'],
    country: tags['addr:country'] || country,
    sourceId,
  };
}

/** Bitset over node ids (hashed): a cheap "maybe needed" test in front of the staging table. */
class NodeFilter {
  private readonly bits = new Uint8Array(1 << 24);
  add(id: number): void {
    const h = id % (1 << 27);
    this.bits[h >> 3]! |= 1 << (h & 7);
  }
  has(id: number): boolean {
    const h = id % (1 << 27);
    return (this.bits[h >> 3]! & (1 << (h & 7))) !== 0;
  }
}

/**
 * OpenStreetMap PBF: nodes and ways with `addr:housenumber` and `addr:street` or `addr:place`.
 * A way sits at the centre of its nodes, which the file stores before the ways; rather than
 * hold every node in memory, pass 1 stages address ways and the ids of their nodes in a
 * temporary SQLite file, and pass 2 picks up just those nodes' coordinates.
 */
export async function* readOsmPbf(path: string, country: string | undefined, onBytes?: (n: number) => void): AsyncGenerator<ReaderItem[]> {
  await checkPbfHeader(path);
  const dir = mkdtempSync(join(tmpdir(), 'local-index-osm-'));
  const stage = new Database(join(dir, 'ways.sqlite'));
  try {
    stage.pragma('journal_mode = OFF');
    stage.pragma('synchronous = OFF');
    stage.exec(`CREATE TABLE ways (id INTEGER PRIMARY KEY, tags TEXT NOT NULL, refs TEXT NOT NULL);
                CREATE TABLE need (node_id INTEGER PRIMARY KEY, lat REAL, lng REAL);`);
    const addWay = stage.prepare('INSERT OR REPLACE INTO ways (id, tags, refs) VALUES (?, ?, ?)');
    const addNeed = stage.prepare('INSERT OR IGNORE INTO need (node_id) VALUES (?)');
    const setNode = stage.prepare('UPDATE need SET lat = ?, lng = ? WHERE node_id = ?');
    const filter = new NodeFilter();
    // The file is read twice: each pass counts for half of the progress.
    const size = statSync(path).size;
    const progress = (pass: number) => (n: number) => onBytes?.(Math.round((pass * size + n) / 2));

    stage.exec('BEGIN');
    for await (const items of pbfElements(path, progress(0))) {
      const batch: ReaderItem[] = [];
      for (const item of items) {
        if (!item.tags['addr:housenumber'] || item.type === 'relation') continue;
        if (item.type === 'node') {
          batch.push(buildAddress(`n${item.id}`, fields(item.tags, item.lat, item.lon, `osm:n${item.id}`, country)));
        } else {
          addWay.run(item.id, JSON.stringify(item.tags), JSON.stringify(item.refs));
          for (const ref of item.refs) {
            filter.add(ref);
            addNeed.run(ref);
          }
        }
      }
      if (batch.length > 0) yield batch;
    }
    stage.exec('COMMIT');
    if ((stage.prepare('SELECT count(*) FROM ways').pluck().get() as number) === 0) return;

    stage.exec('BEGIN');
    for await (const items of pbfElements(path, progress(1))) {
      for (const item of items) {
        if (item.type === 'node' && filter.has(item.id)) setNode.run(item.lat, item.lon, item.id);
      }
    }
    stage.exec('COMMIT');

    const centre = stage.prepare(
      'SELECT avg(lat) AS lat, avg(lng) AS lng FROM need WHERE lat IS NOT NULL AND node_id IN (SELECT value FROM json_each(?))',
    );
    let batch: ReaderItem[] = [];
    for (const way of stage.prepare('SELECT id, tags, refs FROM ways ORDER BY id').iterate() as Iterable<{ id: number; tags: string; refs: string }>) {
      const c = centre.get(way.refs) as { lat: number | null; lng: number | null };
      const row = `w${way.id}`;
      batch.push(
        c.lat === null || c.lng === null
          ? { kind: 'bad', row, reason: 'unresolved_way', detail: 'none of its nodes is in the file' }
          : buildAddress(row, fields(JSON.parse(way.tags) as Tags, c.lat, c.lng, `osm:w${way.id}`, country)),
      );
      if (batch.length >= 2000) {
        yield batch;
        batch = [];
      }
    }
    if (batch.length > 0) yield batch;
  } finally {
    stage.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
