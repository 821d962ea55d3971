import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ValidateResponse } from '../../src/contract/validate.js';
import { STORAGE_BACKENDS } from '../support/backends.js';
import { startTestServer, type TestServer } from '../support/server.js';

const OA_HEADER = 'LON,LAT,NUMBER,STREET,UNIT,CITY,DISTRICT,REGION,POSTCODE,ID,HASH';
const ROWS = [
  '-76.5795,39.2905,1932,Eastern Avenue,Apt 3A,Baltimore,,MD,21231,,',
  '-76.5795,39.2905,1932,Eastern Avenue,Apt 3B,Baltimore,,MD,21231,,',
  '-76.5801,39.2905,1934,Eastern Avenue,,Baltimore,,MD,21231,,',
];

/**
 * Issue 27 end to end: units the local index imported (OpenAddresses UNIT) decide `components.unit`
 * and `action`; the unit and the recipient line the text carries come back in the answer.
 */
describe.each(STORAGE_BACKENDS)('POST /v1/validate with units in the local index (%s)', (backend) => {
  let server: TestServer;
  let key: string;
  const validate = async (query: string): Promise<ValidateResponse> => {
    const res = await server.post('/v1/validate', { query, country: 'US' }, { authorization: `Bearer ${key}` });
    expect(res.status).toBe(200);
    return (await res.json()) as ValidateResponse;
  };

  beforeAll(async () => {
    server = await startTestServer({ backend, providers: 'local' });
    const file = join(mkdtempSync(join(tmpdir(), 'units-')), 'us.oa.csv');
    writeFileSync(file, [OA_HEADER, ...ROWS].join('\n'));
    await server.services.localIndex!.importFile(file, { format: 'openaddresses', country: 'US' });
    ({ key } = await server.createAccount({ plan: 'starter' }));
  });
  afterAll(async () => server?.close());

  it('a unit the data lists: valid, the unit confirmed and written on the street line', async () => {
    const answer = await validate('1932 Eastern Avenue Apt 3B, Baltimore, MD 21231');
    expect(answer).toMatchObject({
      verdict: 'valid',
      action: 'accept',
      components: { houseNumber: 'match', unit: 'match' },
      granularity: { input: 'unit', validated: 'unit', geocode: 'house' },
      address: { unit: 'Apt 3B', lines: ['1932 Eastern Avenue Apt 3B', 'Baltimore, MD 21231'], formatted: '1932 Eastern Avenue Apt 3B, Baltimore, MD 21231' },
      unresolved: [],
      alternatives: [],
    });
  });

  it('a unit the data does not list: correctable, the house still found with the same confidence', async () => {
    const [bad, bare] = [await validate('1932 Eastern Avenue Apt 9Z, Baltimore, MD 21231'), await validate('1932 Eastern Avenue, Baltimore, MD 21231')];
    expect(bad).toMatchObject({ verdict: 'correctable', action: 'confirm', components: { unit: 'mismatch' }, granularity: { validated: 'house' } });
    expect(bad.confidence).toBe(bare.confidence);
  });

  it('no unit where the house has several: valid, and ask for the unit', async () => {
    const answer = await validate('1932 Eastern Avenue, Baltimore, MD 21231');
    expect(answer).toMatchObject({ verdict: 'valid', action: 'add_unit', granularity: { input: 'house', validated: 'house' } });
    expect(answer.components).not.toHaveProperty('unit');
  });

  it('a house the data knows no units of: the unit carried, not checked', async () => {
    const answer = await validate('1934 Eastern Avenue Apt 2, Baltimore, MD 21231');
    expect(answer).toMatchObject({ verdict: 'valid', action: 'accept', components: { unit: 'not-checked' }, address: { unit: 'Apt 2' } });
  });

  it('a recipient line is set aside as unresolved, and the address stays valid', async () => {
    const answer = await validate('Attn: John Miller, 1932 Eastern Avenue Apt 3B, Baltimore, MD 21231');
    expect(answer).toMatchObject({ verdict: 'valid', unresolved: ['Attn: John Miller'], address: { unit: 'Apt 3B' } });
  });
});
