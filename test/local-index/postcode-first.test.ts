import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalHit } from '../../src/local-index/index.js';
import { STORAGE_BACKENDS } from '../support/backends.js';
import { openIndexSandbox, type IndexSandbox } from './support/local-sandbox.js';

/**
 * Issue 36: `9495 Landstr`, the postcode typed before the street as Liechtensteiners do, offered
 * Schaan's Landstrasse (9494, the longest) above Triesen's: the number was read as a house number
 * none of them has. A number no street has that is a postcode names the town.
 */
const HEADER = 'hash,lon,lat,number,street,unit,city,district,region,postcode,id';
const towns: [string, string, number, number[]][] = [
  ['Schaan', '9494', 47.165, Array.from({ length: 40 }, (_, i) => 2 * i + 1)],
  ['Vaduz', '9490', 47.141, [5, 7, 117]],
  ['Triesen', '9495', 47.107, [30, 323, 340]],
];
const csv = [
  HEADER,
  ...towns.flatMap(([city, pc, lat, numbers]) => numbers.map((n, i) => `${city}-${n},${(9.52 + i * 0.0002).toFixed(5)},${lat},${n},Landstrasse,,${city},,,${pc},`)),
].join('\n');

const town = (h: LocalHit | undefined) => h?.components.city;

describe.each(STORAGE_BACKENDS)('a postcode typed before the street (%s)', (backend) => {
  let box: IndexSandbox;
  beforeAll(async () => {
    box = await openIndexSandbox(backend);
    await box.index.importFile(box.file('li.csv', csv), { format: 'openaddresses', country: 'LI' });
  });
  afterAll(async () => {
    await box?.close();
  });

  it('offers the typed postcode’s town first, as the street is typed', async () => {
    for (const typed of ['9495 Lan', '9495 Landstr', '9495 Landstrasse', '9495 Landstrasse ']) {
      const hits = await box.index.autocomplete({ query: typed, country: 'LI' });
      expect(hits.length, typed).toBeGreaterThan(0);
      expect(hits.map(town), typed).toEqual(hits.map(() => 'Triesen'));
    }
    expect(town((await box.index.autocomplete({ query: '9490 Landstr', country: 'LI' }))[0])).toBe('Vaduz');
    expect(town((await box.index.autocomplete({ query: '9495 Landstr' }))[0])).toBe('Triesen');
  });

  it('validates it as the postcode: the town’s street, no house number invented', async () => {
    const [hit] = await box.index.geocode({ query: '9495 Landstrasse', country: 'LI' });
    expect(hit).toMatchObject({ precision: 'street', components: { street: 'Landstrasse', city: 'Triesen', postcode: '9495' } });
  });

  it('a number the street has stays its house number', async () => {
    const [hit] = await box.index.autocomplete({ query: '117 Landstrasse', country: 'LI' });
    expect(hit?.components).toMatchObject({ houseNumber: '117', city: 'Vaduz' });
    expect((await box.index.geocode({ query: '323 Landstrasse', country: 'LI' }))[0]?.components).toMatchObject({ houseNumber: '323', city: 'Triesen' });
  });
});
