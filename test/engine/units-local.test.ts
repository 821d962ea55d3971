import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ValidateResponse } from '../../src/contract/validate.js';
import { readValidateInput } from '../../src/engine/validate-input.js';
import { STORAGE_BACKENDS } from '../support/backends.js';
import { startTestServer, type TestServer } from '../support/server.js';

/**
 * Issue 27 items 1 and 5, issue 28 item 7, end to end on the local index: a unit or a recipient
 * line in the text never changes the house found or its verdict (before, `Landstrasse 340 Top 3`
 * was `invalid` with `no_results`, `340/3` a house number `not-checked`), and Danish postal
 * districts typed with folded letters are the same place.
 */
const ROWS = [
  ['Landstrasse', '340', '9495', 'Triesen', 'LI', 47.1009, 9.5296],
  ['Landstrasse', '323', '9495', 'Triesen', 'LI', 47.1003, 9.5301],
  ['Baaderstraße', '22', '80469', 'München', 'DE', 48.1313, 11.5794],
  ['Frederikssundsvej', '10', '2400', 'København NV', 'DK', 55.7007, 12.5412],
  ['Enghavevej', '80', '2450', 'København SV', 'DK', 55.6597, 12.5372],
  ['Østerbrogade', '56', '2100', 'København Ø', 'DK', 55.6987, 12.579],
  ['Ejbygade', '10', '5240', 'Odense NØ', 'DK', 55.4168, 10.4032],
  ['Lyngby Hovedgade', '10', '2800', 'Kongens Lyngby', 'DK', 55.7704, 12.5039],
  ['Søndergade', '1', '8000', 'Aarhus C', 'DK', 56.1542, 10.2087],
] as const;

describe.each(STORAGE_BACKENDS)('units, recipients and Danish districts on the local index (%s)', (backend) => {
  let server: TestServer;
  let key: string;
  let dir: string;

  beforeAll(async () => {
    server = await startTestServer({ backend, providers: 'local' });
    ({ key } = await server.createAccount({ plan: 'starter' }));
    dir = mkdtempSync(join(tmpdir(), 'units-'));
    const csv = join(dir, 'units.csv');
    writeFileSync(csv, ['street,house_number,postcode,city,state,country,lat,lng', ...ROWS.map((r) => [r[0], r[1], r[2], r[3], '', r[4], r[5], r[6]].join(','))].join('\n') + '\n');
    await server.services.localIndex!.importFile(csv, { format: 'csv' });
  });
  afterAll(async () => {
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const validate = async (query: string, country: string) => {
    const res = await server.post('/v1/validate', { query, country }, { authorization: `Bearer ${key}` });
    expect(res.status).toBe(200);
    return (await res.json()) as ValidateResponse;
  };

  it.each([
    ['Landstrasse 340 Top 3, 9495 Triesen', 'LI', { unit: 'Top 3' }],
    ['Wohnung 3, Landstrasse 340, 9495 Triesen', 'LI', { unit: 'Wohnung 3' }],
    ['Landstrasse 340/3, 9495 Triesen', 'LI', { unit: '3' }],
    ['Landstrasse 340/3/5 9495 Triesen', 'LI', { unit: '3/5' }],
    ['Baaderstraße 22, Whg. 5, 80469 München', 'DE', { unit: 'Whg. 5' }],
    ['c/o Müller, Baaderstraße 22, 80469 München', 'DE', { unresolved: ['c/o Müller'] }],
    ['Attn: John Miller Baaderstraße 22 80469 München', 'DE', { unresolved: ['Attn: John Miller'] }],
  ] as const)('%s: valid for the house, its unit and recipient read', async (query, country, read) => {
    const r = await validate(query, country);
    expect(r).toMatchObject({ verdict: 'valid', components: { street: 'match', houseNumber: 'match', postcode: 'match', city: 'match' } });
    const plain = ROWS.find((row) => r.address?.street === row[0] && r.address.houseNumber === row[1]);
    expect(plain?.[1]).toBe(query.includes('340') ? '340' : '22');
    const reading = readValidateInput({ query, country });
    expect({ unit: reading.input.unit, unresolved: reading.unresolved }).toEqual({ unit: undefined, unresolved: [], ...read });
    // What the providers are asked names the house only.
    expect(reading.query.query).not.toMatch(/Top|Wohnung|Whg|\/3|Müller|Miller/);
    expect(reading.query.components).not.toHaveProperty('unit');
  });

  it.each([
    ['Frederikssundsvej 10, 2400 Kobenhavn NV', 'København NV'],
    ['Enghavevej 80, 2450 Koebenhavn SV', 'København SV'],
    ['Østerbrogade 56, 2100 Kobenhavn O', 'København Ø'],
    ['Østerbrogade 56, 2100 Koebenhavn Oe', 'København Ø'],
    ['Ejbygade 10, 5240 Odense NO', 'Odense NØ'],
    ['Ejbygade 10, 5240 Odense NOE', 'Odense NØ'],
    ['Lyngby Hovedgade 10, 2800 Kgs. Lyngby', 'Kongens Lyngby'],
    ['Søndergade 1, 8000 Aarhus C', 'Aarhus C'],
  ])('%s: the district typed with folded letters is the same place', async (query, city) => {
    const r = await validate(query, 'DK');
    expect(r).toMatchObject({ verdict: 'valid', address: { city }, components: { city: 'match' } });
  });
});
