import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ValidateBatchResponse } from '../../src/contract/batch.js';
import type { ValidateResponse } from '../../src/contract/validate.js';
import { startTestServer, type TestServer } from '../support/server.js';

const OA_HEADER = 'LON,LAT,NUMBER,STREET,UNIT,CITY,DISTRICT,REGION,POSTCODE,ID,HASH';
const STREETS = ['Amselweg', 'Birkenallee', 'Lindenstraße', 'Mühlgasse', 'Rosenweg', 'Schillerstraße'];
const TOWNS = [
  { city: 'Altdorf', postcode: '31234' },
  { city: 'Bergheim', postcode: '41235' },
  { city: 'Seefeld', postcode: '51236' },
  { city: 'Waldkirch', postcode: '61237' },
];
const rows = TOWNS.flatMap((t, ti) =>
  STREETS.flatMap((street, si) => [1, 2, 5, 12].map((n) => `${(9 + ti * 0.1 + si * 0.01).toFixed(5)},${(51 + n * 0.0001).toFixed(5)},${n},${street},,${t.city},,,${t.postcode},,`)),
);

/** Every (street, number, town) of the index once, as a customer's form would send it. */
const items = TOWNS.flatMap((t, ti) =>
  STREETS.map((street, si) => ({ components: { street, houseNumber: String([1, 2, 5, 12][(ti + si) % 4]), postcode: t.postcode, city: t.city }, country: 'DE' })),
);

/**
 * Issue 37 item 2: a batch's items on PostgreSQL are looked up set-based, as a list's rows are: the
 * items the cache does not answer are handed to the local index together (Provider.prime), so the
 * index answers them all from one statement instead of one or more per item, with the same answers.
 */
describe('POST /v1/validate/batch on PostgreSQL: the local index looks the items up together', () => {
  let server: TestServer;
  let key: string;
  const indexStatements = vi.spyOn(pg.Pool.prototype, 'query');
  /** The index's statements: its look-ups and searches, not the version poll (every few seconds). */
  const searches = () =>
    indexStatements.mock.calls.filter(([q]) => {
      const text = typeof q === 'string' ? q : (q as { text?: string }).text ?? '';
      return /\blocal_|addressd_local_search/.test(text) && !/local_meta|SELECT DISTINCT country/.test(text);
    }).length;

  beforeAll(async () => {
    server = await startTestServer({ backend: 'postgres', providers: 'local', redis: true });
    const file = join(mkdtempSync(join(tmpdir(), 'batch-prime-')), 'de.oa.csv');
    writeFileSync(file, [OA_HEADER, ...rows].join('\n'));
    await server.services.localIndex!.importFile(file, { format: 'openaddresses', country: 'DE' });
    ({ key } = await server.createAccount({ plan: 'starter' }));
  });
  afterEach(() => indexStatements.mockClear());
  afterAll(async () => {
    indexStatements.mockRestore();
    await server?.close();
  });

  it(`${items.length} items not in the cache: one statement to the index, every item its own house`, async () => {
    indexStatements.mockClear();
    const res = await server.post('/v1/validate/batch', { items }, { authorization: `Bearer ${key}` });
    expect(res.status).toBe(200);
    expect(searches()).toBe(1);
    const { results } = ValidateBatchResponse.parse(await res.json());
    results.forEach((result, i) => {
      const item = items[i]!;
      expect(result, `item ${i}`).toMatchObject({
        verdict: 'valid',
        cached: false,
        address: { street: item.components.street, houseNumber: item.components.houseNumber, postcode: item.components.postcode, city: item.components.city },
      });
    });
  });

  it('the answers are those of single calls asked one by one, and a repeated batch is answered from the cache', async () => {
    // Single calls of the very items would hit the cache the batch filled: each is asked with its
    // town in lower case (it reads the same), so it is looked up afresh, one by one, unprimed.
    const singles: ValidateResponse[] = [];
    for (const item of items) {
      const res = await server.post('/v1/validate', { ...item, components: { ...item.components, city: item.components.city.toLowerCase() } }, { authorization: `Bearer ${key}` });
      expect(res.status).toBe(200);
      singles.push((await res.json()) as ValidateResponse);
    }
    indexStatements.mockClear();
    const res = await server.post('/v1/validate/batch', { items }, { authorization: `Bearer ${key}` });
    const { results } = ValidateBatchResponse.parse(await res.json());
    expect(searches()).toBe(0);
    results.forEach((result, i) => {
      const single = singles[i]!;
      expect(result, `item ${i}`).toMatchObject({ cached: true, verdict: single.verdict, confidence: single.confidence, address: single.address, components: single.components });
    });
  });
});
