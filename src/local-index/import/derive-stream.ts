import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ReaderItem, RowItem } from '../types.js';
import { NeighbourIndex } from './derive-neighbours.js';

const PAGE = 2000;
/** Rows kept waiting in memory; beyond this many they wait on disk (a country's worth would not fit). */
const IN_MEMORY = 100_000;

type AddressItem = Extract<RowItem, { kind: 'address' }>;

/**
 * Rows waiting for every row to be read: in memory up to IN_MEMORY, then in a temporary SQLite
 * file, a page of rows to a file row (one JSON array): a file row each cost a statement's worth
 * of binding and a string to make again for each of a country's hundreds of thousands.
 */
class Waiting {
  private readonly memory: AddressItem[] = [];
  private disk: { db: Database.Database; dir: string; put: Database.Statement } | undefined;
  /** Rows past the memory's share not yet in the file: less than a page. */
  private pending: AddressItem[] = [];

  constructor(private readonly inMemory: number) {}

  put(item: AddressItem): void {
    if (this.memory.length < this.inMemory) {
      this.memory.push(item);
      return;
    }
    this.pending.push(item);
    if (this.pending.length < PAGE) return;
    if (!this.disk) {
      const dir = mkdtempSync(join(tmpdir(), 'local-index-derive-'));
      const db = new Database(join(dir, 'rows.sqlite'));
      db.pragma('journal_mode = OFF');
      db.pragma('synchronous = OFF');
      db.exec('CREATE TABLE pages (items TEXT NOT NULL)');
      // One transaction for the whole staging: a commit per page would cost a file write each.
      db.exec('BEGIN');
      this.disk = { db, dir, put: db.prepare('INSERT INTO pages (items) VALUES (?)') };
    }
    this.disk.put.run(JSON.stringify(this.pending));
    this.pending = [];
  }

  /** The rows in the order they were put, a page at a time. */
  *pages(): Generator<AddressItem[]> {
    for (let i = 0; i < this.memory.length; i += PAGE) yield this.memory.slice(i, i + PAGE);
    if (this.disk) {
      this.disk.db.exec('COMMIT');
      for (const items of this.disk.db.prepare('SELECT items FROM pages ORDER BY rowid').pluck().iterate() as Iterable<string>) {
        yield JSON.parse(items) as AddressItem[];
      }
    }
    if (this.pending.length > 0) yield this.pending;
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
