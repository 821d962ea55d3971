import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalHit } from '../../src/local-index/index.js';
import { STORAGE_BACKENDS } from '../support/backends.js';
import { openIndexSandbox, type IndexSandbox } from './support/local-sandbox.js';

/**
 * Issue 35's `types`: a form that wants only streets, postcodes or towns (a delivery-area check)
 * gets only those, and every suggestion says what it is. Three towns of one country; a street of
 * Schaan is named after Vaduz.
 */
const HEADER = 'hash,lon,lat,number,street,unit,city,district,region,postcode,id';
const streets: [string, string, string, number, number][] = [
  ['Landstrasse', 'Schaan', '9494', 47.165, 20],
  ['Feldkircherstrasse', 'Schaan', '9494', 47.168, 8],
  ['Vaduzerstrasse', 'Schaan', '9494', 47.162, 6],
  ['Landstrasse', 'Vaduz', '9490', 47.141, 10],
  ['Äulestrasse', 'Vaduz', '9490', 47.139, 12],
  ['Landstrasse', 'Triesen', '9495', 47.107, 5],
];
const csv = [
  HEADER,
  ...streets.flatMap(([street, city, pc, lat, count]) =>
    Array.from({ length: count }, (_, i) => `${street}-${city}-${i},${(9.52 + i * 0.0002).toFixed(5)},${lat},${i + 1},${street},,${city},,,${pc},`),
  ),
].join('\n');

const show = (h: LocalHit) => `${h.kind} ${h.label}`;

describe.each(STORAGE_BACKENDS)('result types (%s)', (backend) => {
  let box: IndexSandbox;
  beforeAll(async () => {
    box = await openIndexSandbox(backend);
    await box.index.importFile(box.file('li.csv', csv), { format: 'openaddresses', country: 'LI' });
  });
  afterAll(async () => {
    await box?.close();
  });
  const ac = (query: string, types?: ('address' | 'street' | 'postcode' | 'locality')[], limit = 5) =>
    box.index.autocomplete({ query, country: 'LI', limit, ...(types ? { types } : {}) });

  it('towns only: the town the words name, once, never its streets or a street named after it', async () => {
    for (const typed of ['Vad', 'Vaduz', 'vaduz ']) {
      expect((await ac(typed, ['locality'])).map(show), typed).toEqual(['locality Vaduz']);
    }
    const [vaduz] = await ac('Vaduz', ['locality']);
    expect(vaduz).toMatchObject({ precision: 'locality', components: { city: 'Vaduz', country: 'LI' } });
    expect(vaduz?.components.street).toBeUndefined();
    expect(vaduz?.location.lat).toBeCloseTo(47.14, 1);
    expect(await ac('Landstrasse', ['locality'])).toEqual([]);
  });

  it('postcodes only: each postcode with its town, as it is typed', async () => {
    expect((await ac('949', ['postcode'])).map(show)).toEqual(['postcode 9490 Vaduz', 'postcode 9494 Schaan', 'postcode 9495 Triesen']);
    expect((await ac('9494', ['postcode'])).map(show)).toEqual(['postcode 9494 Schaan']);
    expect((await ac('9494', ['postcode']))[0]).toMatchObject({ precision: 'postcode', components: { postcode: '9494', city: 'Schaan', country: 'LI' } });
  });

  it('streets only: a number typed names no address; addresses only: no street offered', async () => {
    const onlyStreets = await ac('Landstrasse 12', ['street']);
    expect(onlyStreets.map(show).sort()).toEqual(['street Landstrasse, Schaan', 'street Landstrasse, Triesen', 'street Landstrasse, Vaduz']);
    const onlyAddresses = await ac('Landstr', ['address']);
    expect(onlyAddresses).toHaveLength(5);
    expect(onlyAddresses.every((h) => h.kind === 'address' && h.components.street === 'Landstrasse' && h.components.houseNumber)).toBe(true);
    expect((await ac('Äulestrasse 1', ['street', 'postcode'])).map(show)).toEqual(['street Äulestrasse, Vaduz']);
  });

  it('by default every kind: a town typed is offered first, a whole postcode before its addresses', async () => {
    const town = await ac('Vaduz');
    expect(show(town[0]!)).toBe('locality Vaduz');
    expect(town.slice(1).some((h) => h.kind === 'street')).toBe(true);
    const postcode = await ac('9494');
    expect(postcode.map((h) => h.kind)).toEqual(['postcode', 'address', 'address', 'address', 'address']);
    for (const h of [...town, ...postcode, ...(await ac('Landstrasse 1'))]) expect(h.kind === h.precision, show(h)).toBe(true);
  });
});
