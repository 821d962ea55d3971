import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStore, SQLITE_INDEX_FILE } from '../../src/local-index/store/sqlite-store.js';
import type { AddressInput, IndexStore } from '../../src/local-index/store/store.js';

const street = { key: 'DE|haupt strasse|berlin', country: 'DE', street: 'Hauptstraße', city: 'Berlin', municipality: null, state: null, streetWords: 'haupt strasse', cityWords: 'berlin' };
const row = (n: number, sourceId: string | null = `osm:n${n}`): AddressInput => ({
  sourceId, street, hn: String(n), hnKey: String(n), hnBase: n, postcode: '10115', pcKey: '10115', lat: 52.52 + n / 1e5, lng: 13.4, units: null,
});

/** The addresses table's indexes as the file holds them (what another connection sees). */
const indexes = (dir: string) => {
  const db = new Database(join(dir, SQLITE_INDEX_FILE), { readonly: true });
  try {
    return db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'addresses' AND sql IS NOT NULL ORDER BY name").pluck().all();
  } finally {
    db.close();
  }
};

describe('a first import into an empty SQLite index', () => {
  let dir: string;
  let store: IndexStore;
  let all: unknown[];
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'first-import-'));
    store = openSqliteStore(dir);
    all = indexes(dir);
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('has every index of the addresses again once it commits, and finds repeats of what its earlier batches wrote', async () => {
    expect(all).toEqual(expect.arrayContaining(['addresses_cell', 'addresses_postcode', 'addresses_source', 'addresses_street']));
    const session = await store.beginImport();
    expect(await session.write([row(1), row(2), row(3, null)])).toMatchObject({ imported: 3, duplicates: [] });
    // A later batch naming the same source id, and the same house without one: repeats, found by their look-up.
    expect(await session.write([row(4), row(2), row(3, null)])).toMatchObject({ imported: 1, duplicates: [1, 2] });
    expect(await session.finish(['DE'], false, { kind: 'import', file: 'x', at: new Date().toISOString(), covered: ['DE'], withdrawsUpdates: false })).toEqual({ removed: 0, notInFile: 0 });
    expect(indexes(dir)).toEqual(all);
    const [near] = await store.nearest({ lat: 52.52002, lng: 13.4 }, 100, 1);
    expect(near?.hn).toBe('2');
  });

  it('leaves the index as it was, every index in place, when it fails', async () => {
    const session = await store.beginImport();
    await session.write([row(1), row(2)]);
    await session.abort();
    expect(indexes(dir)).toEqual(all);
    expect(await store.count()).toBe(0);
  });
});
