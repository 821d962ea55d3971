import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPgStore } from '../../src/local-index/store/pg-store.js';
import { openSqliteStore } from '../../src/local-index/store/sqlite-store.js';
import type { IndexStore, WordLookUp } from '../../src/local-index/store/store.js';
import { STORAGE_BACKENDS } from '../support/backends.js';
import { openIndexSandbox, type IndexSandbox } from './support/local-sandbox.js';

const CSV = [
  'street,house_number,postcode,city,country,lat,lng',
  'Lindenweg,1,14169,Nauostrath,DE,52.40000,13.20000',
  'Lindenweg,2,14169,Nauostrath,DE,52.40010,13.20000',
  'Naustraße,1,14170,Berlin,DE,52.41000,13.21000',
  'Naustraße,3,14170,Berlin,DE,52.41010,13.21000',
].join('\n');

const look = (store: IndexStore, words: WordLookUp[]) => store.lookUp({ words, postcodes: [], postcodePrefixes: [], country: 'DE' });

/**
 * A typed word is looked up in several readings (`Nauostr` as itself and as the abbreviation
 * `nauostrasse`); the search uses typo candidates only when no reading as itself exists, and a
 * store looks for them only then: at 10M addresses on PostgreSQL the candidates of an abbreviation
 * reading beside an existing word took 17-27 ms a keystroke, to be thrown away.
 */
describe.each(STORAGE_BACKENDS)('typo candidates only where the search uses them (%s)', (backend) => {
  let box: IndexSandbox;
  let store: IndexStore;
  beforeAll(async () => {
    box = await openIndexSandbox(backend);
    await box.index.importFile(box.file('de.csv', CSV), { format: 'csv' });
    store = box.sandbox.databaseUrl ? await openPgStore(box.sandbox.databaseUrl, { schema: box.sandbox.schema }) : openSqliteStore(box.sandbox.dataDir);
  });
  afterAll(async () => {
    await store?.close();
    await box?.close();
  });

  it('no candidates for a reading whose typed word exists in another reading; candidates where none exists', async () => {
    // `Nauostr` being typed: a prefix of the town, and (as `Nauostr.`) one letter off `naustrasse`.
    const typing = await look(store, [
      { word: 'nauostr', prefix: true, term: 0, typos: true },
      { word: 'nauostrasse', prefix: true, term: 0, typos: true },
    ]);
    expect(typing.words).toEqual([
      { known: true, fuzzy: [] },
      { known: false, fuzzy: [] },
    ]);
    // The same reading asked alone (a user typing `Nauostrasse`): its candidates are looked for now,
    // whatever a store remembered from the call above.
    const alone = await look(store, [{ word: 'nauostrasse', prefix: true, term: 0, typos: true }]);
    expect(alone.words).toEqual([{ known: false, fuzzy: ['naustrasse'] }]);
    // A misspelt whole word: candidates for the reading as itself, none for the abbreviation reading.
    const typo = await look(store, [
      { word: 'naustrase', prefix: false, term: 0, typos: true },
      { word: 'naustrase', prefix: true, term: 0, typos: false },
      { word: 'lindenweg', prefix: false, term: 1, typos: true },
    ]);
    expect(typo.words).toEqual([
      { known: false, fuzzy: ['naustrasse'] },
      { known: false, fuzzy: [] },
      { known: true, fuzzy: [] },
    ]);
  });

  it('the search still reads the town being typed, and still corrects the misspelt street', async () => {
    const typing = await box.index.autocomplete({ query: 'Lindenweg 2, 14169 Nauostr', country: 'DE', limit: 3 });
    expect(typing[0]?.components).toMatchObject({ street: 'Lindenweg', houseNumber: '2', city: 'Nauostrath' });
    const typo = await box.index.geocode({ query: 'Naustrase 3, 14170 Berlin', country: 'DE' });
    expect(typo[0]?.components).toMatchObject({ street: 'Naustraße', houseNumber: '3' });
  });
});
