import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalHit } from '../../src/local-index/index.js';
import { STORAGE_BACKENDS } from '../support/backends.js';
import { openIndexSandbox, type IndexSandbox } from './support/local-sandbox.js';

/**
 * A street name in more towns than the search fetches per query (Hauptstraße in hundreds of
 * German towns): the postcode or the town must pick the right one, whichever streets the
 * full-text index lists first. Town names are distinct words (`Adorf`, `Bdorf`, …).
 */
const TOWNS = 130;
const town = (i: number) => `${String.fromCharCode(65 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}dorf`;
const postcode = (i: number) => String(10000 + i * 7);

function csv(towns: number[]): string {
  const rows = towns.flatMap((i) =>
    [1, 2, 3].map((n) => `h${i}-${n},${(8 + i * 0.01).toFixed(5)},${(50 + n * 0.0001).toFixed(5)},${n},Hauptstraße,,${town(i)},,,${postcode(i)},`),
  );
  return ['hash,lon,lat,number,street,unit,city,district,region,postcode,id', ...rows].join('\n');
}

const where = (h: LocalHit | undefined) => (h ? `${h.components.street} ${h.components.houseNumber ?? ''} ${h.components.postcode ?? ''} ${h.components.city ?? ''}` : undefined);

describe.each(STORAGE_BACKENDS)('a street name shared by many towns (%s)', (backend) => {
  let box: IndexSandbox;
  const towns = Array.from({ length: TOWNS }, (_, i) => i);
  // First, middle and last imported: the last lie beyond any pool fetched in import order.
  const probes = [0, 61, TOWNS - 1];

  beforeAll(async () => {
    box = await openIndexSandbox(backend);
    await box.index.importFile(box.file('de.csv', csv(towns.filter((i) => i !== TOWNS - 1))), { format: 'openaddresses', country: 'DE' });
  });
  afterAll(async () => {
    await box?.close();
  });

  it('resolves the town by postcode, by town name and by both, in free text and in components', async () => {
    for (const i of probes.slice(0, 2)) {
      const want = `Hauptstraße 2 ${postcode(i)} ${town(i)}`;
      expect(where((await box.index.geocode({ query: `Hauptstraße 2, ${postcode(i)}`, country: 'DE' }))[0])).toBe(want);
      expect(where((await box.index.geocode({ query: `Hauptstraße 2, ${town(i)}`, country: 'DE' }))[0])).toBe(want);
      expect(where((await box.index.geocode({ query: `Hauptstraße 2, ${postcode(i)} ${town(i)}`, country: 'DE' }))[0])).toBe(want);
      expect(where((await box.index.geocode({ components: { street: 'Hauptstraße', houseNumber: '2', postcode: postcode(i) }, country: 'DE' }))[0])).toBe(want);
      expect(where((await box.index.geocode({ components: { street: 'Hauptstraße', houseNumber: '2', city: town(i) }, country: 'DE' }))[0])).toBe(want);
      expect(where((await box.index.autocomplete({ query: `Hauptstraße 2 ${postcode(i)}`, country: 'DE' }))[0])).toBe(want);
    }
  });

  it('a number typed after the name, no town: that number on five of its streets, each in its town (PostgreSQL: ranked in the look-up statement)', async () => {
    const hits = await box.index.autocomplete({ query: 'Hauptstraße 2', country: 'DE' });
    expect(hits.map((h) => `${h.precision} ${h.components.street} ${h.components.houseNumber}`)).toEqual(Array(5).fill('address Hauptstraße 2'));
    expect(new Set(hits.map((h) => h.components.city)).size).toBe(5);
  });

  it('knows a postcode an import adds after it was asked for (no stale answer from a cache)', async () => {
    const last = TOWNS - 1;
    const query = { query: `Hauptstraße 3, ${postcode(last)}`, country: 'DE' };
    expect(where((await box.index.geocode(query))[0])).not.toContain(postcode(last));
    await box.index.importFile(box.file('de-2.csv', csv([last])), { format: 'openaddresses', country: 'DE' });
    expect(where((await box.index.geocode(query))[0])).toBe(`Hauptstraße 3 ${postcode(last)} ${town(last)}`);
  });
});
