import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIDI_MESSAGE, CONTROL_MESSAGE } from '../../src/contract/text.js';
import { startTestServer, type TestServer } from '../support/server.js';

/**
 * Issue 36: customer text reaches labels, the console and the operator's terminal, so every text
 * component of the API refuses C0/C1 control characters and bidirectional overrides with a 400
 * naming the field (SPEC's ValidationError shape); nothing is billed or stored for it.
 */
const ESCAPES = 'Evilweg\u001b[2J\u001b]0;PWNED\u0007';
const ORIGIN = 'https://shop.example';
const refused = (path: (string | number)[], message: string) => ({ message: 'Validation failed', issues: [{ code: 'custom', path, message }] });
const components = { street: 'Damrak', houseNumber: '1', postcode: '1012 LG', city: 'Amsterdam', state: 'Noord-Holland', country: 'NL' };

describe('control characters and bidi overrides in API text', () => {
  let server: TestServer;
  let auth: Record<string, string>;
  let widgetAuth: Record<string, string>;
  let accountId: string;
  beforeAll(async () => {
    server = await startTestServer();
    const account = await server.createAccount({ plan: 'starter' });
    accountId = account.accountId;
    auth = { authorization: `Bearer ${account.key}` };
    widgetAuth = { authorization: `Bearer ${(await server.createToken(account.accountId, [ORIGIN])).token}`, origin: ORIGIN };
  });
  afterAll(async () => server?.close());

  const fields = ['street', 'houseNumber', 'postcode', 'city', 'state', 'unit'] as const;
  const bad: [string, string, string][] = [
    ['an escape sequence', ESCAPES.slice(0, 15), CONTROL_MESSAGE],
    ['a C1 control (CSI)', 'Damrak\u009b2J', CONTROL_MESSAGE],
    ['a line break', 'Dam\nrak', CONTROL_MESSAGE],
    ['DEL', 'Dam\u007frak', CONTROL_MESSAGE],
    ['a right-to-left override', 'Dam\u202erak', BIDI_MESSAGE],
    ['a left-to-right embedding', '\u202aDamrak', BIDI_MESSAGE],
    ['a first-strong isolate', 'Damrak\u2068', BIDI_MESSAGE],
    ['a pop directional isolate', 'Damrak\u2069', BIDI_MESSAGE],
  ];

  describe.each(fields)('components.%s', (field) => {
    it.each(bad)('%s is a 400 at components.%s', async (_name, value, message) => {
      const res = await server.post('/v1/validate', { components: { ...components, [field]: value.slice(0, field === 'houseNumber' || field === 'postcode' ? 20 : 40) } }, auth);
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual(refused(['components', field], message));
    });
  });

  it.each(bad)('validate query with %s is a 400 at query', async (_name, value, message) => {
    const res = await server.post('/v1/validate', { query: `${value} 1, Amsterdam`, country: 'NL' }, auth);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual(refused(['query'], message));
  });

  it('the whole OSC 52 clipboard payload of the report is refused in the street', async () => {
    const res = await server.post('/v1/validate', { components: { ...components, street: `${ESCAPES}\u001b]52;c;SGk=\u0007` } }, auth);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual(refused(['components', 'street'], CONTROL_MESSAGE));
  });

  it.each([
    ['autocomplete query', '/v1/autocomplete', { query: 'Damrak\u001b[2J' }, ['query'], CONTROL_MESSAGE],
    ['autocomplete query (bidi)', '/v1/autocomplete', { query: 'Dam\u2066rak' }, ['query'], BIDI_MESSAGE],
    ['validate source', '/v1/validate', { query: 'Damrak 1', source: 'crm\u001b[31m' }, ['source'], CONTROL_MESSAGE],
    ['validate country', '/v1/validate', { query: 'Damrak 1', country: 'N\u0007' }, ['country'], CONTROL_MESSAGE],
    ['feedback responseId', '/v1/validate/feedback', { responseId: 'rsp_\u001b[2J', conclusion: 'user_used' }, ['responseId'], CONTROL_MESSAGE],
  ])('%s is a 400 naming the field', async (_name, path, body, issuePath, message) => {
    const res = await server.post(path, body, auth);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual(refused(issuePath, message));
  });

  it('widget query is a 400 at query', async () => {
    const res = await server.post('/v1/widget/autocomplete', { query: 'Dam\u202erak' }, widgetAuth);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual(refused(['query'], BIDI_MESSAGE));
  });

  it('a batch item with escapes gets its own 400 entry; the others are answered', async () => {
    const res = await server.post('/v1/validate/batch', { items: [{ query: 'Damrak 1, Amsterdam', country: 'NL' }, { components: { ...components, street: ESCAPES } }] }, auth);
    expect(res.status).toBe(200);
    const { results } = (await res.json()) as { results: { status?: number; error?: unknown; verdict?: string }[] };
    expect(results[0]?.verdict).toBeDefined();
    expect(results[1]).toEqual({ status: 400, error: refused(['components', 'street'], CONTROL_MESSAGE) });
  });

  it('leaves printable text alone: right-to-left scripts, marks, emoji and no-break spaces', async () => {
    const res = await server.post('/v1/validate', { query: 'Damrak 1 שלום عربي é 😀\u00a0\u200f Amsterdam', country: 'NL' }, auth);
    expect(res.status).toBe(200);
  });

  it('stored nothing for the refused requests', async () => {
    const events = await server.services.database.db.selectFrom('usage_events').select('query').where('account_id', '=', accountId).execute();
    expect(events.map((e) => e.query).filter((q) => q !== null && /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/.test(q))).toEqual([]);
  });
});
