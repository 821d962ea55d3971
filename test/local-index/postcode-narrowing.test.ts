import Database from 'better-sqlite3';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { LocalHit } from '../../src/local-index/index.js';
import { autocomplete, geocode } from '../../src/local-index/search/search.js';
import { openPgStore } from '../../src/local-index/store/pg-store.js';
import { openSqliteStore, SQLITE_INDEX_FILE } from '../../src/local-index/store/sqlite-store.js';
import type { IndexStore, WordQuery } from '../../src/local-index/store/store.js';
import { streetTokens } from '../../src/local-index/text.js';
import { STORAGE_BACKENDS, type Sandbox } from '../support/backends.js';
import { openIndexSandbox, type IndexSandbox } from './support/local-sandbox.js';

/**
 * A street name in far more towns than one search fetches (Hauptstraße), asked with a postcode
 * but no house number the postcode has (none typed, or one that does not exist): the postcode
 * alone narrows the street search to its streets (streets' postcodes), so the right town's street
 * is found whatever the number of namesakes imported before it.
 */
const TOWNS = 150;
const town = (i: number) => `${String.fromCharCode(65 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}dorf`;
const postcode = (i: number) => String(30000 + i * 7);

function csv(): string {
  const rows = Array.from({ length: TOWNS }, (_, i) =>
    ['Amselweg', 'Hauptstraße', 'Hauptweg'].flatMap((street, k) =>
      [1, 2, 3].map((n) => `${(9 + i * 0.01).toFixed(5)},${(51 + k * 0.001 + n * 0.0001).toFixed(5)},${n},${street},,${town(i)},,,${postcode(i)},,`),
    ),
  ).flat();
  return ['LON,LAT,NUMBER,STREET,UNIT,CITY,DISTRICT,REGION,POSTCODE,ID,HASH', ...rows].join('\n');
}

const where = (h: LocalHit | undefined) => (h ? `${h.components.street} ${h.components.houseNumber ?? '-'} ${h.components.postcode ?? ''} ${h.components.city ?? ''}` : undefined);
const nameTerm = (name: string): WordQuery[] => streetTokens(name, 'DE').map((word) => ({ word, prefix: false }));
// Beyond the first 60 namesakes in import order (the wide search's pool), and one within it.
const probes = [3, 77, 120, TOWNS - 1];

function openStore(sandbox: Sandbox): Promise<IndexStore> | IndexStore {
  return sandbox.databaseUrl ? openPgStore(sandbox.databaseUrl, { schema: sandbox.schema }) : openSqliteStore(sandbox.dataDir);
}

/** What an index written before streets' postcodes looks like: the table (and its partitions) gone. */
async function dropStreetPostcodes(sandbox: Sandbox): Promise<void> {
  if (sandbox.databaseUrl) {
    const client = new pg.Client({ connectionString: sandbox.databaseUrl });
    await client.connect();
    try {
      await client.query(`DROP TABLE ${sandbox.schema}.local_street_postcodes`);
    } finally {
      await client.end();
    }
    return;
  }
  const db = new Database(join(sandbox.dataDir, SQLITE_INDEX_FILE));
  db.exec('DROP TABLE street_postcodes');
  db.close();
}

describe.each(STORAGE_BACKENDS)('street search narrowed by postcode alone (%s)', (backend) => {
  let box: IndexSandbox;
  let store: IndexStore;

  beforeAll(async () => {
    box = await openIndexSandbox(backend);
    await box.index.importFile(box.file('de.csv', csv()), { format: 'openaddresses', country: 'DE' });
    store = await openStore(box.sandbox);
  });
  afterAll(async () => {
    await store?.close();
    await box?.close();
  });

  it('the store finds the streets of those words in that postcode, and none in another country or postcode', async () => {
    for (const i of probes) {
      const streets = await store.findStreetsInPostcode([nameTerm('Hauptstraße')], 'DE', 60, postcode(i));
      expect(streets.map((s) => [s.street, s.city])).toEqual([['Hauptstraße', town(i)]]);
    }
    expect((await store.findStreetsInPostcode([[{ word: 'haupt', prefix: true }]], 'DE', 60, postcode(5))).map((s) => s.street).sort()).toEqual(['Hauptstraße', 'Hauptweg']);
    expect(await store.findStreetsInPostcode([nameTerm('Hauptstraße'), nameTerm(town(6))], 'DE', 60, postcode(5))).toEqual([]);
    expect(await store.findStreetsInPostcode([nameTerm('Hauptstraße')], 'NL', 60, postcode(5))).toEqual([]);
    expect(await store.findStreetsInPostcode([nameTerm('Hauptstraße')], 'DE', 60, '99999')).toEqual([]);
  });

  it('geocode with a number the postcode does not have, and autocomplete of street and postcode, reach the postcode’s street', async () => {
    for (const i of probes) {
      expect(where((await geocode(store, { query: `Hauptstraße 9, ${postcode(i)}`, country: 'DE' }))[0])).toBe(`Hauptstraße - ${postcode(i)} ${town(i)}`);
      expect(where((await geocode(store, { components: { street: 'Hauptstraße', postcode: postcode(i) }, country: 'DE' }))[0])).toBe(`Hauptstraße - ${postcode(i)} ${town(i)}`);
      // (A bare number after the street is read as its house number, so the number comes first here.)
      const typed = await autocomplete(store, { query: `Hauptstraße 9, ${postcode(i)}`, country: 'DE', limit: 5 });
      expect(where(typed[0])).toBe(`Hauptstraße - ${postcode(i)} ${town(i)}`);
    }
  });

  it('several street searches in one call answer each as it is answered alone, in the same order', async () => {
    const variants = [[nameTerm('Hauptstraße')], [[{ word: 'haupt', prefix: true }]], [nameTerm('Amselweg'), nameTerm(town(9))], [[{ word: 'nirgendwo', prefix: false }]]];
    const alone = await Promise.all(variants.map((v) => store.findStreets(v, 'DE', 60)));
    expect(alone[0]).toHaveLength(60);
    expect(alone[3]).toEqual([]);
    expect(await store.findStreetsEach(variants, 'DE', 60)).toEqual(alone);
    expect(await store.findStreetsEach(variants, undefined, 60)).toEqual(await Promise.all(variants.map((v) => store.findStreets(v, undefined, 60))));
  });

  it('an index from before streets’ postcodes gets them when opened, and later imports keep them', async () => {
    await store.close();
    await dropStreetPostcodes(box.sandbox);
    store = await openStore(box.sandbox);
    expect((await store.findStreetsInPostcode([nameTerm('Hauptstraße')], 'DE', 60, postcode(120))).map((s) => s.city)).toEqual([town(120)]);
    // A re-import moves one town's Hauptstraße to another postcode: the pairs follow.
    const moved = csv().replace(new RegExp(`,${postcode(120)},`, 'g'), ',39999,');
    await box.index.importFile(box.file('moved.csv', moved), { format: 'openaddresses', country: 'DE', replace: true });
    expect(await store.findStreetsInPostcode([nameTerm('Hauptstraße')], 'DE', 60, postcode(120))).toEqual([]);
    expect((await store.findStreetsInPostcode([nameTerm('Hauptstraße')], 'DE', 60, '39999')).map((s) => s.city)).toEqual([town(120)]);
  });
});

describe('round trips to PostgreSQL per search', () => {
  let box: IndexSandbox;
  let store: IndexStore;
  const query = vi.spyOn(pg.Pool.prototype, 'query');

  beforeAll(async () => {
    box = await openIndexSandbox('postgres');
    await box.index.importFile(box.file('de.csv', csv()), { format: 'openaddresses', country: 'DE' });
  });
  afterEach(() => query.mockClear());
  afterAll(async () => {
    query.mockRestore();
    await store?.close();
    await box?.close();
  });

  /** Statements sent while `work` runs (each pool.query is one round trip). */
  async function count(work: () => Promise<unknown>): Promise<number> {
    query.mockClear();
    await work();
    return query.mock.calls.length;
  }

  it('a fresh geocode takes one, a fresh autocomplete of a word being typed one; repeated, one and none (words, postcodes and the wide match kept)', async () => {
    store = await openStore(box.sandbox);
    // Words and postcode in one statement, with the street with its number in that postcode (pg-search-function.ts).
    const fresh = () => geocode(store, { query: `Hauptstraße 2, ${postcode(77)}`, country: 'DE' });
    expect(await count(fresh)).toBe(1);
    expect(await count(fresh)).toBe(1);
    // Words, with the exact and prefix street searches (five streets offered: nothing to fill up);
    // repeated, the wide match is kept (pg-street-matches.ts): nothing to send.
    const typing = () => autocomplete(store, { query: 'Hauptst', country: 'DE', limit: 5 });
    expect(await count(typing)).toBe(1);
    expect(await count(typing)).toBe(0);
    // A number the postcode lacks: words and postcode with the narrowed search by number (none); then by
    // postcode; then, side by side, the number's leading integer on those streets and the number in the postcode.
    expect(await count(() => geocode(store, { query: `Hauptstraße 9, ${postcode(120)}`, country: 'DE' }))).toBe(4);
  });

  it('a long prefix, once looked up, is searched as the OR of its few words: the same streets, no prefix scan', async () => {
    const fresh = await openStore(box.sandbox);
    try {
      const terms = [[{ word: 'hauptstr', prefix: true }], nameTerm(town(42))];
      const asPrefix = await fresh.findStreets(terms, 'DE', 60);
      expect(asPrefix.map((s) => [s.street, s.city])).toEqual([['Hauptstraße', town(42)]]);
      await fresh.lookUp({ words: [{ word: 'hauptstr', prefix: true, term: 0, typos: true }], postcodes: [], postcodePrefixes: [], country: 'DE' });
      query.mockClear();
      expect(await fresh.findStreets(terms, 'DE', 60)).toEqual(asPrefix);
      const sent = JSON.stringify(query.mock.calls);
      expect(sent).toContain("'hauptstrasse'");
      expect(sent).not.toContain(':*');
    } finally {
      await fresh.close();
    }
  });
});
