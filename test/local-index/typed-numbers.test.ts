import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalHit } from '../../src/local-index/index.js';
import { STORAGE_BACKENDS } from '../support/backends.js';
import { openIndexSandbox, type IndexSandbox } from './support/local-sandbox.js';

/**
 * Issue 35: a typed number is the house number unless the words around it only make sense as a
 * street's name, and words of other countries' streets never change how a query with a country
 * is read. `10` and `11` are words of a Portuguese and an Andorran street in the same index as
 * London's New Square, whose 10 and 11 must still be offered.
 */
const HEADER = 'hash,lon,lat,number,street,unit,city,district,region,postcode,id';
const rows = (street: string, city: string, postcode: string, numbers: number[], lon: number, lat: number) =>
  numbers.map((n, i) => `${street.replace(/\W/g, '')}-${n},${(lon + i * 0.0001).toFixed(5)},${lat.toFixed(5)},${n},"${street}",,${city},,,${postcode},`);
const csv = (...parts: string[][]) => [HEADER, ...parts.flat()].join('\n');
const upTo = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

const label = (h: LocalHit | undefined) => (h ? `${h.components.houseNumber ?? '-'} ${h.components.street}` : undefined);
const top = (hits: LocalHit[]) => hits.map(label);

describe.each(STORAGE_BACKENDS)('typed numbers are never lost (%s)', (backend) => {
  let box: IndexSandbox;

  beforeAll(async () => {
    box = await openIndexSandbox(backend);
    const imports: [string, string][] = [
      ['GB', csv(rows('New Square', 'London', 'WC2A 3RJ', upTo(14), -0.115, 51.516), rows('Kings Mews', 'London', 'WC1N 2JB', upTo(16), -0.117, 51.522))],
      ['PT', csv(rows('Rua do Carmo entrada 10 loja 11', 'Lisboa', '1200-093', [5, 7], -9.14, 38.71), rows('Rua Augusta', 'Lisboa', '1100-048', upTo(12), -9.137, 38.709))],
      ['AD', csv(rows('Sant Salvador 10', 'Andorra la Vella', 'AD500', [1, 2, 3], 1.52, 42.507))],
      ['DE', csv(rows('Straße des 17. Juni', 'Berlin', '10557', upTo(8), 13.36, 52.514), rows('Juniweg', 'Berlin', '10115', upTo(20), 13.38, 52.53))],
      ['FR', csv(rows('Rue du 8 Mai 1945', 'Paris', '75010', upTo(9), 2.358, 48.876), rows('Rue du Mail', 'Paris', '75002', upTo(12), 2.342, 48.867))],
      ['IT', csv(rows('Via XX Settembre', 'Roma', '00187', upTo(30), 12.49, 41.905))],
    ];
    for (const [country, text] of imports) await box.index.importFile(box.file(`${country}.csv`, text), { format: 'openaddresses', country });
  });
  afterAll(async () => {
    await box?.close();
  });

  const ac = async (query: string, country?: string) => top(await box.index.autocomplete({ query, ...(country ? { country } : {}) }));
  const gc = async (query: string, country?: string) => top(await box.index.geocode({ query, ...(country ? { country } : {}) }));

  it('a number that is a word of other countries’ streets, typed before the street name, is the house number', async () => {
    for (const n of [10, 11, 12]) {
      expect((await ac(`${n} New Square`, 'GB'))[0], `${n} New Square`).toBe(`${n} New Square`);
      expect((await gc(`${n} New Square`, 'GB'))[0]).toBe(`${n} New Square`);
      expect((await gc(`${n} New Square, London WC2A 3RJ`, 'GB'))[0]).toBe(`${n} New Square`);
      // Without a country the other countries' streets do not name these words either.
      expect((await ac(`${n} New Square`))[0]).toBe(`${n} New Square`);
    }
    expect((await ac('10 Kings Mews', 'GB'))[0]).toBe('10 Kings Mews');
    expect((await ac('10 Rua Augusta', 'PT'))[0]).toBe('10 Rua Augusta');
  });

  it('and typed after it, also while the street is being typed', async () => {
    expect((await ac('New Square 10', 'GB'))[0]).toBe('10 New Square');
    expect((await gc('New Square 11', 'GB'))[0]).toBe('11 New Square');
    expect((await ac('10 New Squ', 'GB'))[0]).toBe('10 New Square');
    expect((await ac('11 Kings M', 'GB'))[0]).toBe('11 Kings Mews');
    expect((await ac('Rua Augusta 10', 'PT'))[0]).toBe('10 Rua Augusta');
  });

  it('a number only the street’s name makes sense of stays a word of it', async () => {
    expect((await ac('Rua do Carmo entrada 10 loja 11 5', 'PT'))[0]).toBe('5 Rua do Carmo entrada 10 loja 11');
    expect((await gc('Rua do Carmo entrada 10 loja 11 7'))[0]).toBe('7 Rua do Carmo entrada 10 loja 11');
    expect((await ac('Sant Salvador 10 2', 'AD'))[0]).toBe('2 Sant Salvador 10');
    expect((await gc('Straße des 17. Juni 5', 'DE'))[0]).toBe('5 Straße des 17. Juni');
    expect((await ac('Straße des 17. Juni 5', 'DE'))[0]).toBe('5 Straße des 17. Juni');
    expect((await ac('Strasse des 17 Juni 6', 'DE'))[0]).toBe('6 Straße des 17. Juni');
    expect((await ac('5 Straße des 17. Juni', 'DE'))[0]).toBe('5 Straße des 17. Juni');
    expect((await gc('Rue du 8 Mai 1945 3', 'FR'))[0]).toBe('3 Rue du 8 Mai 1945');
    expect((await ac('3 Rue du 8 Mai 1945', 'FR'))[0]).toBe('3 Rue du 8 Mai 1945');
    expect((await ac('Via XX Settembre 20', 'IT'))[0]).toBe('20 Via XX Settembre');
    expect((await ac('20 Via XX Settembre', 'IT'))[0]).toBe('20 Via XX Settembre');
  });

  it('the street with a number in its name is still offered while it is typed', async () => {
    expect(await ac('Straße des 17', 'DE')).toContain('- Straße des 17. Juni');
    expect((await ac('Rue du 8 Mai', 'FR')).some((l) => l?.endsWith('Rue du 8 Mai 1945'))).toBe(true);
  });
});
