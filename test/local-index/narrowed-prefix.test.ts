import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPgStore } from '../../src/local-index/store/pg-store.js';
import { openSqliteStore } from '../../src/local-index/store/sqlite-store.js';
import type { IndexStore, WordQuery } from '../../src/local-index/store/store.js';
import { STORAGE_BACKENDS } from '../support/backends.js';
import { openIndexSandbox, type IndexSandbox } from './support/local-sandbox.js';

/** 250 towns whose names start alike (`Riedbergb1`…): a town being typed (`riedbe`) completes to all of them; each street name is in more than 200 towns, so SQLite drives a narrowed search from the postcode. */
const TOWNS = 250;
const town = (t: number) => `Riedberg${String.fromCharCode(97 + (t % 26))}${t}`;
const postcode = (t: number) => String(20000 + (t % 3));

function csv(): string {
  const lines = ['street,house_number,postcode,city,country,lat,lng'];
  for (let t = 0; t < TOWNS; t++) {
    for (const street of ['Hauptstraße', 'Ahornpfad', 'Lindenweg']) {
      for (let n = 1; n <= 6; n++) lines.push(`${street},${n},${postcode(t)},${town(t)},DE,${(50 + t / 100).toFixed(5)},${(8 + n / 1000).toFixed(5)}`);
    }
  }
  return lines.join('\n') + '\n';
}

/**
 * A street search narrowed by postcode and number, with a town being typed whose prefix has many
 * completions (`Ahornpfad 4, 20001 Riedbe`): SQLite checks the postcode's streets against the words
 * as read from their rows, not with FTS5 per street (which merged every completion's doclist per
 * street: 45-230 ms at 30M addresses). The answer must be the one the unnarrowed search gives.
 */
describe.each(STORAGE_BACKENDS)('narrowed street search with a town being typed (%s)', (backend) => {
  let box: IndexSandbox;
  let store: IndexStore;
  beforeAll(async () => {
    box = await openIndexSandbox(backend);
    await box.index.importFile(box.file('de.csv', csv()), { format: 'csv' });
    store = box.sandbox.databaseUrl ? await openPgStore(box.sandbox.databaseUrl, { schema: box.sandbox.schema }) : openSqliteStore(box.sandbox.dataDir);
  });
  afterAll(async () => {
    await store?.close();
    await box?.close();
  });

  const cases: [string, WordQuery[][], string][] = [
    ['street and a town prefix', [[{ word: 'ahornpfad', prefix: false }], [{ word: 'riedbe', prefix: true }]], '20001'],
    ['street prefix and a whole town', [[{ word: 'ahorn', prefix: true }], [{ word: 'riedbergb1', prefix: false }]], '20001'],
    ['a street of two readings', [[{ word: 'hauptstrasse', prefix: false }, { word: 'hauptstr', prefix: true }], [{ word: 'riedbergc', prefix: true }]], '20002'],
    ['words no street of the postcode has', [[{ word: 'lindenweg', prefix: false }], [{ word: 'nirgendwo', prefix: true }]], '20000'],
  ];
  it.each(cases)('%s: the streets of the words with that number in that postcode', async (_, terms, pc) => {
    const narrowed = await store.findStreets(terms, 'DE', 1000, '4', pc);
    // The same from the unnarrowed search: its streets with an address of that number (or any) in that postcode.
    const wide = await store.findStreets(terms, 'DE', 1000);
    const addresses = await store.addressesOnStreets(wide.map((s) => s.id), undefined, 10_000);
    const named = (hn?: string) =>
      [...new Set(addresses.filter((a) => a.postcode === pc && (hn === undefined || a.hn === hn)).map((a) => `${a.street.street} ${a.street.city}`))].sort();
    expect(named('4').length).toBeLessThan(TOWNS);
    expect(narrowed.map((s) => `${s.street} ${s.city}`).sort()).toEqual(named('4'));
    expect(narrowed.every((s) => s.numbered === undefined || s.numbered.every((a) => a.hn === '4'))).toBe(true);
    const inPostcode = await store.findStreetsInPostcode(terms, 'DE', 1000, pc);
    expect(inPostcode.map((s) => `${s.street} ${s.city}`).sort()).toEqual(named());
  });
});
