import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORAGE_BACKENDS } from '../support/backends.js';
import { startTestServer, type TestServer } from '../support/server.js';

/**
 * Text the database cannot store exactly (NUL, which PostgreSQL refuses, and lone UTF-16
 * surrogates, which both drivers would turn into U+FFFD) is a 400 ValidationError with the
 * issue at the field's path, the same on SQLite and PostgreSQL; nothing is billed or cached.
 */
const NUL = 'Damrak\u00001';
const LONE = 'Damrak \uD800 1';
const ORIGIN = 'https://shop.example';
const unstorable = (path: (string | number)[]) => ({
  message: 'Validation failed',
  issues: [{ code: 'custom', path, message: 'Contains a character that cannot be stored: NUL (\\u0000) or an unpaired UTF-16 surrogate' }],
});

describe.each(STORAGE_BACKENDS)('unstorable text on %s', (backend) => {
  let server: TestServer;
  let auth: Record<string, string>;
  let widgetAuth: Record<string, string>;
  let accountId: string;
  beforeAll(async () => {
    server = await startTestServer({ backend, redis: backend === 'postgres' });
    const account = await server.createAccount({ plan: 'starter' });
    accountId = account.accountId;
    auth = { authorization: `Bearer ${account.key}` };
    widgetAuth = { authorization: `Bearer ${(await server.createToken(account.accountId, [ORIGIN])).token}`, origin: ORIGIN };
  });
  afterAll(async () => server.close());

  const cases: [string, string, unknown, (string | number)[], Record<string, string>?][] = [
    ['validate query (NUL)', '/v1/validate', { query: NUL }, ['query']],
    ['validate query (lone surrogate)', '/v1/validate', { query: LONE }, ['query']],
    ['validate components.street', '/v1/validate', { components: { street: NUL, city: 'Amsterdam' } }, ['components', 'street']],
    ['validate components.country', '/v1/validate', { components: { street: 'Damrak', country: 'N\u0000' } }, ['components', 'country']],
    ['validate country', '/v1/validate', { query: 'Damrak 1', country: '\uDC00L' }, ['country']],
    ['validate source', '/v1/validate', { query: 'Damrak 1', source: `crm${NUL}` }, ['source']],
    ['validate ?source=', '/v1/validate?source=a%00b', { query: 'Damrak 1' }, ['source']],
    ['autocomplete query', '/v1/autocomplete', { query: NUL }, ['query']],
    ['autocomplete ?source=', '/v1/autocomplete?source=x%00', { query: 'Damrak' }, ['source']],
    ['batch item', '/v1/validate/batch', { items: [{ query: 'Damrak 1' }, { query: NUL }] }, []],
  ];

  it.each(cases)('%s', async (_name, path, body, issuePath) => {
    const res = await server.post(path, body, auth);
    if (path === '/v1/validate/batch') {
      // One bad item gets its own 400 entry; the others are answered.
      expect(res.status).toBe(200);
      const { results } = (await res.json()) as { results: { status?: number; error?: unknown }[] };
      expect(results[1]).toEqual({ status: 400, error: unstorable(['query']) });
      return;
    }
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual(unstorable(issuePath));
  });

  it('widget query', async () => {
    const res = await server.post('/v1/widget/autocomplete', { query: LONE }, widgetAuth);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual(unstorable(['query']));
  });

  it('usage ?source= filter', async () => {
    const res = await fetch(`${server.url}/v1/usage?source=%00`, { headers: auth });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual(unstorable(['source']));
  });

  it('leaves every other character alone: emoji, CJK, RTL, combining marks, noncharacters', async () => {
    const res = await server.post('/v1/validate', { query: 'Damrak 1 😀 東京 שלום é \uFFFE', source: '𝔰𝔬𝔲𝔯𝔠𝔢' }, auth);
    expect(res.status).toBe(200);
    const usage = (await (await fetch(`${server.url}/v1/usage?source=${encodeURIComponent('𝔰𝔬𝔲𝔯𝔠𝔢')}`, { headers: auth })).json()) as {
      recent: { query: string; source: string }[];
    };
    expect(usage.recent[0]).toMatchObject({ query: 'Damrak 1 😀 東京 שלום é \uFFFE', source: '𝔰𝔬𝔲𝔯𝔠𝔢' });
  });

  it('billed and stored nothing for the refused requests', async () => {
    const events = await server.services.database.db.selectFrom('usage_events').select('query').where('account_id', '=', accountId).execute();
    // The batch's good item and the emoji call; nothing of the refused ones.
    expect(events.map((e) => e.query).sort()).toEqual(['Damrak 1', 'Damrak 1 😀 東京 שלום é \uFFFE']);
    expect(await server.services.ledger.heldReservations()).toBe(0);
  });
});
