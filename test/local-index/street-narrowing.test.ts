import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalHit } from '../../src/local-index/index.js';
import { openPgStore } from '../../src/local-index/store/pg-store.js';
import { openSqliteStore } from '../../src/local-index/store/sqlite-store.js';
import type { IndexStore, WordQuery } from '../../src/local-index/store/store.js';
import { Vocabulary } from '../../src/local-index/store/vocabulary.js';
import { streetTokens } from '../../src/local-index/text.js';
import { STORAGE_BACKENDS } from '../support/backends.js';
import { openIndexSandbox, type IndexSandbox } from './support/local-sandbox.js';

/**
 * A street name in far more towns than one search fetches (Hauptstraße in thousands of German
 * towns): a house number in a known postcode narrows the street search to the streets of those
 * words that have that number there, so the right one is found whatever the number of namesakes.
 * Every town also has six other streets with the same numbers in the same postcode, imported
 * before its Hauptstraße: the words must still pick the street, and a look-up of the postcode's
 * addresses of that number alone (a handful, in import order) would not reach it.
 */
const TOWNS = 150;
const town = (i: number) => `${String.fromCharCode(65 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}dorf`;
const postcode = (i: number) => String(20000 + i * 11);

function csv(): string {
  const rows = Array.from({ length: TOWNS }, (_, i) =>
    ['Amselweg', 'Birkenweg', 'Dorfplatz', 'Eichenweg', 'Finkenweg', 'Schulweg', 'Hauptstraße'].flatMap((street, k) =>
      [1, 2, 3].map((n) => `${(9 + i * 0.01).toFixed(5)},${(51 + k * 0.001 + n * 0.0001).toFixed(5)},${n},${street},,${town(i)},,,${postcode(i)},,`),
    ),
  ).flat();
  return ['LON,LAT,NUMBER,STREET,UNIT,CITY,DISTRICT,REGION,POSTCODE,ID,HASH', ...rows].join('\n');
}

const where = (h: LocalHit | undefined) => (h ? `${h.components.street} ${h.components.houseNumber ?? '-'} ${h.components.postcode ?? ''} ${h.components.city ?? ''}` : undefined);
/** One term: every index form of the name (as the search asks for it). */
const nameTerm = (name: string): WordQuery[] => streetTokens(name, 'DE').map((word) => ({ word, prefix: false }));

describe.each(STORAGE_BACKENDS)('street search narrowed by postcode and number (%s)', (backend) => {
  let box: IndexSandbox;
  let store: IndexStore;
  // Spread over the import order: most lie beyond any pool of namesakes fetched in that order.
  const probes = [0, 37, 74, 111, TOWNS - 1];

  beforeAll(async () => {
    box = await openIndexSandbox(backend);
    await box.index.importFile(box.file('de.csv', csv()), { format: 'openaddresses', country: 'DE' });
    const { sandbox } = box;
    store = sandbox.databaseUrl ? await openPgStore(sandbox.databaseUrl, { schema: sandbox.schema }) : openSqliteStore(sandbox.dataDir);
  });
  afterAll(async () => {
    await store?.close();
    await box?.close();
  });

  it('the store finds the one street of those words with that number in that postcode, with its address', async () => {
    for (const i of probes) {
      const streets = await store.findStreets([nameTerm('Hauptstraße')], 'DE', 60, '2', postcode(i));
      expect(streets.map((s) => [s.street, s.city, s.numbered?.map((a) => [a.hn, a.postcode])])).toEqual([['Hauptstraße', town(i), [['2', postcode(i)]]]]);
    }
    // The town's words must be the street's too; a number the postcode does not have, or another town's postcode, finds none.
    expect(await store.findStreets([nameTerm('Hauptstraße'), nameTerm(town(5))], 'DE', 60, '2', postcode(5))).toHaveLength(1);
    expect(await store.findStreets([nameTerm('Hauptstraße'), nameTerm(town(5))], 'DE', 60, '2', postcode(6))).toEqual([]);
    expect(await store.findStreets([nameTerm('Hauptstraße')], 'DE', 60, '9', postcode(5))).toEqual([]);
    expect(await store.findStreets([nameTerm('Hauptstraße')], 'NL', 60, '2', postcode(5))).toEqual([]);
  });

  it('geocode and autocomplete put the postcode’s street first, in free text and in components', async () => {
    for (const i of probes) {
      const want = `Hauptstraße 2 ${postcode(i)} ${town(i)}`;
      expect(where((await box.index.geocode({ query: `Hauptstraße 2, ${postcode(i)}`, country: 'DE' }))[0])).toBe(want);
      expect(where((await box.index.geocode({ query: `Schulweg 2, ${postcode(i)} ${town(i)}`, country: 'DE' }))[0])).toBe(`Schulweg 2 ${postcode(i)} ${town(i)}`);
      expect(where((await box.index.geocode({ components: { street: 'Hauptstraße', houseNumber: '2', postcode: postcode(i) }, country: 'DE' }))[0])).toBe(want);
      expect(where((await box.index.autocomplete({ query: `Hauptstraße 2, ${postcode(i)}`, country: 'DE' }))[0])).toBe(want);
    }
  });

  it('where the postcode does not name the street, the search goes on as without it', async () => {
    // Another town's postcode beside the town's name: the named town's street.
    expect(where((await box.index.geocode({ query: `Hauptstraße 2, ${postcode(80)} ${town(90)}`, country: 'DE' }))[0])).toBe(`Hauptstraße 2 ${postcode(90)} ${town(90)}`);
    // A number the street does not have: the street itself, in the town named.
    expect(where((await box.index.geocode({ query: `Hauptstraße 9, ${postcode(90)} ${town(90)}`, country: 'DE' }))[0])).toBe(`Hauptstraße - ${postcode(90)} ${town(90)}`);
    // Components whose town disagrees with the postcode: the postcode's street, as the scoring ranks them
    // (postcode 0.15 against town 0.1); before the narrowing the postcode's street was not reached here.
    const mixed = await box.index.geocode({ components: { street: 'Hauptstraße', houseNumber: '3', postcode: postcode(120), city: town(30) }, country: 'DE' });
    expect(where(mixed[0])).toBe(`Hauptstraße 3 ${postcode(120)} ${town(120)}`);
  });

  it('a long prefix of a name in every town still offers that name (searched as its completions)', async () => {
    const hits = await box.index.autocomplete({ query: 'Hauptstra', country: 'DE', limit: 5 });
    expect(hits.length).toBe(5);
    expect(new Set(hits.map((h) => h.components.street))).toEqual(new Set(['Hauptstraße']));
    const numbered = await box.index.autocomplete({ query: `Hauptstra 3 ${town(140)}`, country: 'DE' });
    expect(where(numbered[0])).toBe(`Hauptstraße 3 ${postcode(140)} ${town(140)}`);
  });
});

describe('vocabulary completions', () => {
  const v = new Vocabulary(['hauptstrasse', 'hauptstrassenweg', 'hauptweg', 'haus', ...Array.from({ length: 20 }, (_, i) => `lindenweg${i}`)]);
  it('lists the words a prefix completes to, in order, and none past the cap', () => {
    expect(v.completions('hauptstr', 16)).toEqual(['hauptstrasse', 'hauptstrassenweg']);
    expect(v.completions('haupts', 1)).toBeUndefined();
    expect(v.completions('hauz', 16)).toEqual([]);
    expect(v.completions('lindenweg', 16)).toBeUndefined();
    expect(v.completions('lindenweg1', 16)).toHaveLength(11);
  });
});
