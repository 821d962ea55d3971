import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ReaderItem, RowItem } from '../types.js';
import { NeighbourIndex } from './derive-neighbours.js';

const PAGE = 2000;

/**
 * A reader's rows with the towns and postcodes their neighbours give (derive-neighbours.ts).
 * Complete rows pass straight through and teach the index; a row missing its town or
 * postcode waits, staged on disk (a country's worth would not fit in memory), until every
 * row has been read, then comes out filled. One pass, no scan per row: the look-ups go
 * through per-street lists and a grid.
 */
export async function* deriveFromNeighbours(source: AsyncIterable<ReaderItem[]>): AsyncGenerator<ReaderItem[]> {
  const index = new NeighbourIndex();
  let stash: { db: Database.Database; dir: string; put: Database.Statement } | undefined;
  try {
    for await (const items of source) {
      const out: ReaderItem[] = [];
      for (const item of items) {
        if (item.kind === 'address') index.add(item.address);
        if (item.kind !== 'address' || (item.address.city && item.address.postcode)) {
          out.push(item);
          continue;
        }
        if (!stash) {
          const dir = mkdtempSync(join(tmpdir(), 'local-index-derive-'));
          const db = new Database(join(dir, 'rows.sqlite'));
          db.pragma('journal_mode = OFF');
          db.pragma('synchronous = OFF');
          db.exec('CREATE TABLE rows (item TEXT NOT NULL)');
          stash = { db, dir, put: db.prepare('INSERT INTO rows (item) VALUES (?)') };
        }
        stash.put.run(JSON.stringify(item));
      }
      if (out.length > 0) yield out;
    }
    if (!stash) return;
    const page = stash.db.prepare('SELECT rowid AS id, item FROM rows WHERE rowid > ? ORDER BY rowid LIMIT ?');
    for (let after = 0; ; ) {
      const rows = page.all(after, PAGE) as { id: number; item: string }[];
      if (rows.length === 0) break;
      after = rows[rows.length - 1]!.id;
      yield rows.map((r) => {
        const item = JSON.parse(r.item) as Extract<RowItem, { kind: 'address' }>;
        return { ...item, address: index.fill(item.address) };
      });
    }
  } finally {
    if (stash) {
      stash.db.close();
      rmSync(stash.dir, { recursive: true, force: true });
    }
  }
}
