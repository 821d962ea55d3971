import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ReaderItem, RowItem } from '../types.js';
import { NeighbourIndex } from './derive-neighbours.js';

const PAGE = 2000;
/** Rows a staging statement: one call into SQLite for many of the hundreds of thousands that wait on a country. */
const MANY = 64;
/** Rows kept waiting in memory; beyond this many they wait on disk (a country's worth would not fit). */
const IN_MEMORY = 100_000;

type AddressItem = Extract<RowItem, { kind: 'address' }>;

/** Rows waiting for every row to be read: in memory up to IN_MEMORY, then in a temporary SQLite file. */
class Waiting {
  private readonly memory: AddressItem[] = [];
  private disk: { db: Database.Database; dir: string; put: Database.Statement; putMany: Database.Statement; pending: string[] } | undefined;

  constructor(private readonly inMemory: number) {}

  put(item: AddressItem): void {
    if (this.memory.length < this.inMemory) {
      this.memory.push(item);
      return;
    }
    if (!this.disk) {
      const dir = mkdtempSync(join(tmpdir(), 'local-index-derive-'));
      const db = new Database(join(dir, 'rows.sqlite'));
      db.pragma('journal_mode = OFF');
      db.pragma('synchronous = OFF');
      db.exec('CREATE TABLE rows (item TEXT NOT NULL)');
      // One transaction for the whole staging: a commit per row would cost a file write per row.
      db.exec('BEGIN');
      const values = Array.from({ length: MANY }, () => '(?)').join(', ');
      this.disk = { db, dir, put: db.prepare('INSERT INTO rows (item) VALUES (?)'), putMany: db.prepare(`INSERT INTO rows (item) VALUES ${values}`), pending: [] };
    }
    const { pending, putMany } = this.disk;
    pending.push(JSON.stringify(item));
    if (pending.length === MANY) putMany.run(pending.splice(0));
  }

  /** The rows in the order they were put, a page at a time. */
  *pages(): Generator<AddressItem[]> {
    for (let i = 0; i < this.memory.length; i += PAGE) yield this.memory.slice(i, i + PAGE);
    if (!this.disk) return;
    for (const item of this.disk.pending.splice(0)) this.disk.put.run(item);
    this.disk.db.exec('COMMIT');
    const page = this.disk.db.prepare('SELECT rowid AS id, item FROM rows WHERE rowid > ? ORDER BY rowid LIMIT ?');
    for (let after = 0; ; ) {
      const rows = page.all(after, PAGE) as { id: number; item: string }[];
      if (rows.length === 0) return;
      after = rows[rows.length - 1]!.id;
      yield rows.map((r) => JSON.parse(r.item) as AddressItem);
    }
  }

  close(): void {
    if (!this.disk) return;
    this.disk.db.close();
    rmSync(this.disk.dir, { recursive: true, force: true });
  }
}

/**
 * A reader's rows with the towns and postcodes their neighbours give (derive-neighbours.ts).
 * Complete rows pass straight through and teach the index; a row missing its town or
 * postcode waits until every row has been read, then comes out filled. One pass, no scan per
 * row: the look-ups go through per-street lists and grids.
 */
export async function* deriveFromNeighbours(source: AsyncIterable<ReaderItem[]>, inMemory = IN_MEMORY): AsyncGenerator<ReaderItem[]> {
  const index = new NeighbourIndex();
  const waiting = new Waiting(inMemory);
  try {
    for await (const items of source) {
      const out: ReaderItem[] = [];
      for (const item of items) {
        if (item.kind === 'address') index.add(item.address);
        if (item.kind !== 'address' || (item.address.city && item.address.postcode)) out.push(item);
        else waiting.put(item);
      }
      if (out.length > 0) yield out;
    }
    for (const page of waiting.pages()) yield page.map((item) => ({ ...item, address: index.fill(item.address) }));
  } finally {
    waiting.close();
  }
}
