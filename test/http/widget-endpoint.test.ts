import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WidgetAutocompleteResponse } from '../../src/contract/autocomplete.js';
import { suggestionIdBinding } from '../../src/http/routes/widget-autocomplete.js';
import { ManualClock } from '../../src/lib/clock.js';
import { startTestServer, type TestServer } from '../support/server.js';

const ORIGIN = 'https://shop.example';

describe('widget endpoint and preflight', () => {
  let server: TestServer;
  const clock = new ManualClock(Date.now());
  let accountId: string;
  let token: string;
  let secretKey: string;

  beforeAll(async () => {
    server = await startTestServer({ clock });
    ({ accountId, key: secretKey } = await server.createAccount({ plan: 'growth' }));
    ({ token } = await server.createToken(accountId, [ORIGIN, 'https://www.shop.example']));
  });
  afterAll(async () => server.close());

  const widget = (body: unknown, headers: Record<string, string>) => server.post('/v1/widget/autocomplete', body, headers);
  const preflight = (headers: Record<string, string>) =>
    fetch(`${server.url}/v1/widget/autocomplete`, { method: 'OPTIONS', headers });

  it('answers with opaque ids, no provider payloads, and CORS for the verified origin', async () => {
    const res = await widget({ query: 'Keizersgr', country: 'NL', sessionToken: 'focus-1' }, { authorization: `Bearer ${token}`, origin: ORIGIN });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    expect(res.headers.get('vary')).toMatch(/Origin/);
    const body = (await res.json()) as WidgetAutocompleteResponse;
    expect(body.sessionToken).toBe('focus-1');
    expect(body.cached).toBe(false);
    expect(body.suggestions[0]).toEqual({
      id: expect.stringMatching(/^svc_s_[A-Za-z0-9_-]+$/),
      label: 'Keizersgracht 174A, 1016 DW Amsterdam',
      provider: 'pdok',
      address: { street: 'Keizersgracht', houseNumber: '174A', postcode: '1016 DW', city: 'Amsterdam', state: 'Noord-Holland', country: 'NL' },
      type: 'address',
      matches: [{ offset: 0, length: 9 }],
    });
    for (const s of body.suggestions) expect(Object.keys(s).sort()).toEqual(['address', 'id', 'label', 'matches', 'provider', 'type']);
    const text = JSON.stringify(body);
    expect(text).not.toMatch(/adr-|osm_id|place_id|weergavenaam|raw/);
  });

  it('403 without an exact HTTPS Origin', async () => {
    for (const origin of [undefined, 'http://shop.example', 'https://shop.example/', 'https://shop.example/path', 'null']) {
      const res = await widget({ query: 'Damrak' }, { authorization: `Bearer ${token}`, ...(origin ? { origin } : {}) });
      expect(res.status, String(origin)).toBe(403);
      expect(await res.json()).toEqual({ message: 'A permitted HTTPS Origin is required' });
    }
  });

  it('401 for a missing, malformed, secret, revoked or origin-restricted token', async () => {
    const { token: revoked, tokenId } = await server.createToken(accountId, [ORIGIN]);
    await server.services.tokens.revoke(tokenId);
    const cases: Record<string, string>[] = [
      { origin: ORIGIN },
      // A browser session cookie is no credential here (SPEC: console sessions are rejected).
      { origin: ORIGIN, cookie: 'session=console-session' },
      { origin: ORIGIN, authorization: 'Bearer svc_pk_live_short' },
      { origin: ORIGIN, authorization: `Bearer ${secretKey}` },
      { origin: ORIGIN, authorization: `Bearer ${revoked}` },
      { origin: 'https://elsewhere.example', authorization: `Bearer ${token}` },
    ];
    for (const headers of cases) {
      const res = await widget({ query: 'Damrak' }, headers);
      expect(res.status, JSON.stringify(headers)).toBe(401);
      expect(await res.json()).toEqual({ message: 'Unknown, revoked, or origin-restricted publishable token' });
    }
  });

  it('400 for a bad body, in the ValidationError shape', async () => {
    const res = await widget({ query: '', limit: 50 }, { authorization: `Bearer ${token}`, origin: ORIGIN });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ message: 'Validation failed', issues: expect.arrayContaining([expect.objectContaining({ path: ['query'] })]) });
  });

  it('bills per answering provider, serves repeats from the 24 h cache for free, one usage event per 200', async () => {
    const { accountId: acc } = await server.createAccount({ plan: 'growth' });
    const { token: own, tokenId } = await server.createToken(acc, ['https://bill.example']);
    const headers = { authorization: `Bearer ${own}`, origin: 'https://bill.example' };
    const first = (await (await widget({ query: 'Stationsplein', country: 'NL', source: 'checkout' }, headers)).json()) as WidgetAutocompleteResponse;
    const second = (await (await widget({ query: 'Stationsplein', country: 'NL' }, headers)).json()) as WidgetAutocompleteResponse;
    expect(first.cached).toBe(false);
    expect(second.cached).toBe(true);
    expect(second.sessionToken).toBeNull();
    expect(second.suggestions.map((s) => s.label)).toEqual(first.suggestions.map((s) => s.label));
    expect((await widget({ query: '' }, headers)).status).toBe(400);
    expect((await server.services.ledger.balance(acc)).usedThisMonth).toBe(2);
    const rows = await server.services.database.db
      .selectFrom('usage_events')
      .select(['endpoint', 'credential_id', 'source', 'cached', 'credits'])
      .where('account_id', '=', acc)
      .orderBy('id', 'asc')
      .execute();
    expect(rows.map((r) => ({ ...r, cached: Number(r.cached), credits: Number(r.credits) }))).toEqual([
      { endpoint: '/v1/widget/autocomplete', credential_id: tokenId, source: 'checkout', cached: 0, credits: 2 },
      { endpoint: '/v1/widget/autocomplete', credential_id: tokenId, source: null, cached: 1, credits: 0 },
    ]);
  });

  it('seals suggestion ids to the issuing token: they open under no other token and hold no provider id', async () => {
    const { token: other, tokenId: otherId } = await server.createToken(accountId, [ORIGIN]);
    const ask = async (t: string) =>
      ((await (await widget({ query: 'Damrak 1', country: 'NL' }, { authorization: `Bearer ${t}`, origin: ORIGIN })).json()) as WidgetAutocompleteResponse).suggestions;
    const tokenId = (await server.services.tokens.verify(token, ORIGIN))!.tokenId;
    const [mine] = await ask(token);
    const [theirs] = await ask(other);
    expect(mine?.label).toBe(theirs?.label);
    expect(mine?.id).not.toBe(theirs?.id);
    const sealed = (mine?.id ?? '').slice('svc_s_'.length);
    expect(JSON.parse(server.services.sealer.open(sealed, suggestionIdBinding(tokenId)) ?? 'null')).toEqual({ p: 'pdok', l: mine?.label });
    expect(server.services.sealer.open(sealed, suggestionIdBinding(otherId))).toBeNull();
    expect(mine?.id).not.toMatch(/adr-|Damrak/);
  });

  it('429 Monthly project credits exhausted when the account has no credits', async () => {
    const { accountId: acc } = await server.createAccount({ plan: 'free' });
    const { token: broke } = await server.createToken(acc, ['https://broke.example']);
    const reservation = await server.services.ledger.reserve(acc, 500);
    await server.services.ledger.settle(reservation!, 500, {
      accountId: acc, credentialId: 'seed', env: 'live', endpoint: '/v1/validate', verdict: null, provider: null, latencyMs: 0, cached: false, query: null, source: null,
    });
    const calls = server.emulators.pdok.requests.length;
    const res = await widget({ query: 'Damrak' }, { authorization: `Bearer ${broke}`, origin: 'https://broke.example' });
    expect(res.status).toBe(429);
    expect(await res.json()).toEqual({ message: 'Monthly project credits exhausted' });
    expect(server.emulators.pdok.requests.length).toBe(calls);
  });

  it('preflight: 204 with the CORS headers when an active token allows the origin', async () => {
    const res = await preflight({ origin: ORIGIN, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' });
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
    expect(res.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    expect(res.headers.get('access-control-allow-methods')).toBe('POST');
    expect(res.headers.get('access-control-allow-headers')).toBe('Authorization, Content-Type');
    expect(res.headers.get('access-control-max-age')).toBe('600');
    expect(res.headers.get('vary')).toMatch(/Origin/);
  });

  it('preflight: 403 with no body otherwise', async () => {
    const { accountId: acc } = await server.createAccount();
    const { tokenId } = await server.createToken(acc, ['https://gone.example']);
    await server.services.tokens.revoke(tokenId);
    const cases: Record<string, string>[] = [
      { 'access-control-request-method': 'POST' },
      { origin: 'http://shop.example', 'access-control-request-method': 'POST' },
      { origin: 'https://unknown.example', 'access-control-request-method': 'POST' },
      { origin: 'https://gone.example', 'access-control-request-method': 'POST' },
      { origin: ORIGIN, 'access-control-request-method': 'DELETE' },
      { origin: ORIGIN },
    ];
    for (const headers of cases) {
      const res = await preflight(headers);
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(await res.text()).toBe('');
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
    }
  });
});

// The three widget limits, on the in-process limiter and on the real Redis one (DESIGN §8: same semantics).
describe.each([
  ['in-process', false],
  ['Redis', true],
])('widget rate limits (%s)', (_name, redis) => {
  const limited = {} as { server: TestServer; clock: ManualClock; widget: (body: unknown, headers: Record<string, string>) => Promise<Response> };
  beforeAll(async () => {
    limited.clock = new ManualClock(Date.now());
    limited.server = await startTestServer({ clock: limited.clock, redis });
    limited.widget = (body, headers) => limited.server.post('/v1/widget/autocomplete', body, headers);
  });
  afterAll(async () => limited.server.close());

  it('429 after 120 requests a minute per live token, and again after a minute it answers', async () => {
    const { accountId: acc } = await limited.server.createAccount({ plan: 'growth' });
    const { token: live } = await limited.server.createToken(acc, ['https://rate.example']);
    const headers = { authorization: `Bearer ${live}`, origin: 'https://rate.example' };
    for (let i = 0; i < 120; i += 1) expect((await limited.widget({ query: 'Damrak', country: 'NL' }, headers)).status).toBe(200);
    const refused = await limited.widget({ query: 'Damrak', country: 'NL' }, headers);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('access-control-allow-origin')).toBe('https://rate.example');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await refused.json()).toEqual({ message: 'Widget autocomplete rate limit reached' });
    limited.clock.advance(60_000);
    expect((await limited.widget({ query: 'Damrak', country: 'NL' }, headers)).status).toBe(200);
  });

  it('60 requests a minute for test tokens', async () => {
    const { accountId: acc } = await limited.server.createAccount({ plan: 'growth' });
    const { token: test } = await limited.server.createToken(acc, ['https://test.example'], 'test');
    const headers = { authorization: `Bearer ${test}`, origin: 'https://test.example' };
    for (let i = 0; i < 60; i += 1) expect((await limited.widget({ query: 'Damrak', country: 'NL' }, headers)).status).toBe(200);
    expect((await limited.widget({ query: 'Damrak', country: 'NL' }, headers)).status).toBe(429);
  });

  it('120 requests a minute per origin, whichever tokens it uses', async () => {
    const { accountId: acc } = await limited.server.createAccount({ plan: 'growth' });
    const { token: a } = await limited.server.createToken(acc, ['https://busy.example']);
    const { token: b } = await limited.server.createToken(acc, ['https://busy.example']);
    for (let i = 0; i < 120; i += 1) {
      const t = i % 2 === 0 ? a : b;
      expect((await limited.widget({ query: 'Damrak', country: 'NL' }, { authorization: `Bearer ${t}`, origin: 'https://busy.example' })).status).toBe(200);
    }
    const res = await limited.widget({ query: 'Damrak', country: 'NL' }, { authorization: `Bearer ${a}`, origin: 'https://busy.example' });
    expect(res.status).toBe(429);
    expect(await res.json()).toEqual({ message: 'Widget autocomplete rate limit reached' });
  });

  it("a call its origin's limit refuses uses up none of its token's 120", async () => {
    const { accountId: acc } = await limited.server.createAccount({ plan: 'growth' });
    const { token: other } = await limited.server.createToken(acc, ['https://crowded.example']);
    const { token: both } = await limited.server.createToken(acc, ['https://crowded.example', 'https://quiet.example']);
    const ask = (token: string, origin: string) => limited.widget({ query: 'Damrak', country: 'NL' }, { authorization: `Bearer ${token}`, origin });
    for (let i = 0; i < 120; i += 1) expect((await ask(other, 'https://crowded.example')).status).toBe(200);
    // The crowded origin is full: these are refused, and must not count against the token.
    for (let i = 0; i < 20; i += 1) expect((await ask(both, 'https://crowded.example')).status).toBe(429);
    for (let i = 0; i < 120; i += 1) expect((await ask(both, 'https://quiet.example')).status).toBe(200);
    expect((await ask(both, 'https://quiet.example')).status).toBe(429);
  });
});
