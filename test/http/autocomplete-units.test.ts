import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AutocompleteResponse, WidgetAutocompleteResponse } from '../../src/contract/autocomplete.js';
import { postalLines } from '../../src/engine/postal-lines.js';
import { STORAGE_BACKENDS } from '../support/backends.js';
import { startTestServer, type TestServer } from '../support/server.js';

// Issue 27: what the local index knows of a house's units decides whether autocomplete asks for one.
const OA_HEADER = 'LON,LAT,NUMBER,STREET,UNIT,CITY,DISTRICT,REGION,POSTCODE,ID,HASH';
const ROWS = [
  '-76.5905,39.2857,1932,Eastern Avenue,Apt 3A,Baltimore,,MD,21231,,',
  '-76.5905,39.2857,1932,Eastern Avenue,Apt 3B,Baltimore,,MD,21231,,',
  '-76.5910,39.2857,1934,Eastern Avenue,,Baltimore,,MD,21231,,',
  '-76.5915,39.2857,1936,Eastern Avenue,Apt 1,Baltimore,,MD,21231,,',
];
const ORIGIN = 'https://shop.example';

describe.each(STORAGE_BACKENDS)('autocomplete and the units of the local index (%s)', (backend) => {
  let server: TestServer;
  let key: string;
  let token: string;
  let dir: string;

  beforeAll(async () => {
    server = await startTestServer({ backend, providers: 'local' });
    const account = await server.createAccount({ plan: 'starter' });
    key = account.key;
    ({ token } = await server.createToken(account.accountId, [ORIGIN]));
    dir = mkdtempSync(join(tmpdir(), 'autocomplete-units-'));
    const file = join(dir, 'us.oa.csv');
    writeFileSync(file, [OA_HEADER, ...ROWS].join('\n'));
    await server.services.localIndex!.importFile(file, { format: 'openaddresses', country: 'US' });
  });
  afterAll(async () => {
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const complete = async (query: string) => {
    const res = await server.post('/v1/autocomplete', { query, country: 'US', limit: 10 }, { authorization: `Bearer ${key}` });
    expect(res.status).toBe(200);
    return ((await res.json()) as AutocompleteResponse).suggestions;
  };
  const byHouse = <T extends { label: string }>(list: T[], house: string) => list.find((s) => s.label.startsWith(`${house} `));

  it('asks for the unit (add_unit) on a house with two or more units when none was typed, and only there', async () => {
    const suggestions = await complete('1932 Eastern Avenue');
    const house = byHouse(suggestions, '1932');
    expect(house).toMatchObject({ action: 'add_unit', provider: 'local', components: { street: 'Eastern Avenue', houseNumber: '1932' } });
    expect(house?.components.unit).toBeUndefined();
    expect(house?.label).toBe(postalLines(house!.components, 'US').formatted);
    const others = await complete('Eastern Avenue Baltimore');
    // No units in the data (1934), or only one (1936): nothing to choose, nothing to ask.
    for (const number of ['1934', '1936']) {
      const other = byHouse(others, number);
      expect(other?.components.houseNumber).toBe(number);
      expect(other).not.toHaveProperty('action');
    }
    expect(byHouse(others, '1932')?.action).toBe('add_unit');
  });

  it('carries a typed unit instead, in the components and the label, and does not ask', async () => {
    const house = byHouse(await complete('1932 Eastern Avenue Apt 3B'), '1932');
    expect(house).toMatchObject({ components: { houseNumber: '1932', unit: 'Apt 3B' }, label: expect.stringContaining('Apt 3B') });
    expect(house?.action).toBeUndefined();
    expect(house?.label).toBe(postalLines(house!.components, 'US').formatted);
  });

  it('says the same to the widget', async () => {
    const widget = async (query: string) => {
      const res = await server.post('/v1/widget/autocomplete', { query, country: 'US' }, { authorization: `Bearer ${token}`, origin: ORIGIN });
      expect(res.status).toBe(200);
      return byHouse(((await res.json()) as WidgetAutocompleteResponse).suggestions, '1932');
    };
    expect(await widget('1932 Eastern Avenue')).toMatchObject({ action: 'add_unit', address: { street: 'Eastern Avenue', houseNumber: '1932' } });
    const typed = await widget('1932 Eastern Avenue Apt 3B');
    expect(typed).toMatchObject({ address: { houseNumber: '1932', unit: 'Apt 3B' }, label: expect.stringContaining('Apt 3B') });
    expect(typed).not.toHaveProperty('action');
  });
});
