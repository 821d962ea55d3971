import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPgStore } from '../../src/local-index/store/pg-store.js';
import { openSqliteStore } from '../../src/local-index/store/sqlite-store.js';
import type { IndexStore } from '../../src/local-index/store/store.js';
import { STORAGE_BACKENDS } from '../support/backends.js';
import { openIndexSandbox, type IndexSandbox } from './support/local-sandbox.js';

/**
 * A postcode being typed (`Hauptstraße 3, 01`) is looked up as a prefix: whether any address's
 * postcode starts with it, in the country asked for or in any. PostgreSQL reads the range's first
 * address in the key's order (an EXISTS over the range read every entry of it first); the answers
 * are the data's, the same on both stores, for prefixes of every length, ones no postcode has, and
 * one only another country's postcodes have.
 */
const ADDRESSES: [string, string][] = [
  ['DE', '01067'],
  ['DE', '01069'],
  ['DE', '01069'],
  ['DE', '02625'],
  ['DE', '10115'],
  ['LI', '9495'],
];
const PREFIXES = ['0', '01', '010', '0106', '01067', '01068', '02', '03', '1', '10116', '9', '94', '949', '5'];

function csv(): string {
  const rows = ADDRESSES.map(([country, postcode], i) => `Weg ${i},${i + 1},${postcode},Ort ${i},,${country},${(47 + i * 0.01).toFixed(5)},${(9 + i * 0.01).toFixed(5)}`);
  return ['street,house_number,postcode,city,state,country,lat,lng', ...rows].join('\n');
}

/** What the data says: some address of `country` (of any, when undefined) has a postcode starting with `prefix`. */
const expected = (prefix: string, country: string | undefined) => ADDRESSES.some(([c, pc]) => (country === undefined || c === country) && pc.startsWith(prefix));

describe.each(STORAGE_BACKENDS)('postcode prefixes looked up (%s)', (backend) => {
  let box: IndexSandbox;
  // A store of its own for each look-up: a store keeps the prefixes it looked up.
  const fresh = async <T>(ask: (store: IndexStore) => Promise<T>): Promise<T> => {
    const store = backend === 'postgres' ? await openPgStore(box.sandbox.databaseUrl!, { schema: box.sandbox.schema }) : openSqliteStore(box.sandbox.dataDir);
    try {
      return await ask(store);
    } finally {
      await store.close();
    }
  };

  beforeAll(async () => {
    box = await openIndexSandbox(backend);
    await box.index.importFile(box.file('places.csv', csv()), { format: 'csv' });
  });
  afterAll(async () => {
    await box?.close();
  });

  it.each([['DE'], ['LI'], [undefined]])('in %s: exactly those some address has', async (country) => {
    // Several in one look-up, and each in a look-up of its own: both as the data says.
    const together = await fresh((store) => store.lookUp({ words: [], postcodes: [], postcodePrefixes: PREFIXES, country }));
    expect(together.postcodePrefixes).toEqual(PREFIXES.map((p) => expected(p, country)));
    await fresh(async (store) => {
      for (const prefix of PREFIXES) {
        const alone = await store.lookUp({ words: [], postcodes: [], postcodePrefixes: [prefix], country });
        expect(alone.postcodePrefixes, prefix).toEqual([expected(prefix, country)]);
      }
    });
  });
});
