import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ReverseResponse, WidgetReverseResponse } from '../../src/contract/reverse.js';
import { haversineMeters } from '../../src/lib/sphere.js';
import { ManualClock } from '../../src/lib/clock.js';
import { STORAGE_BACKENDS } from '../support/backends.js';
import { startTestServer, type TestServer } from '../support/server.js';

const ORIGIN = 'https://shop.example';
/** About 20 m north-east of Damrak 1 (the emulators' dataset); Damrak 70 lies about 220 m south-west. */
const NEAR_DAMRAK = { lat: 52.37632, lng: 4.89605 };
/** Two houses only the local index knows, 40 and 90 m from NEAR_DAMRAK. */
const LOCAL_CSV = [
  'street,house_number,postcode,city,state,country,lat,lng',
  'Damrak,2,1012 LG,Amsterdam,,NL,52.37668,4.89605',
  'Damrak,3,1012 LG,Amsterdam,,NL,52.37713,4.89605',
].join('\n');

describe.each(STORAGE_BACKENDS)('POST /v1/reverse and /v1/widget/reverse (%s)', (backend) => {
  let server: TestServer;
  let key: string;
  let accountId: string;
  let token: string;
  const clock = new ManualClock(Date.now());

  beforeAll(async () => {
    server = await startTestServer({ backend, clock, providers: 'local,pdok,photon,nominatim' });
    ({ key, accountId } = await server.createAccount({ plan: 'starter' }));
    ({ token } = await server.createToken(accountId, [ORIGIN], 'test'));
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const file = join(mkdtempSync(join(tmpdir(), 'reverse-http-')), 'damrak.csv');
    writeFileSync(file, LOCAL_CSV);
    await server.services.localIndex!.importFile(file, { format: 'csv' });
  });
  afterAll(async () => server?.close());
  afterEach(() => {
    for (const e of Object.values(server.emulators)) e.setFault({ mode: 'none' });
  });

  type Body = ReverseResponse & { message?: string; issues?: { path: (string | number)[] }[] };
  const reverse = async (body: unknown, auth = `Bearer ${key}`) => {
    const res = await server.post('/v1/reverse', body, { authorization: auth });
    return { status: res.status, body: (await res.json()) as Body, headers: res.headers };
  };
  const used = async () => (await server.services.ledger.balance(accountId)).usedThisMonth;
  const events = () =>
    server.services.database.db
      .selectFrom('usage_events')
      .select(['endpoint', 'cached', 'credits', 'provider', 'query'])
      .where('account_id', '=', accountId)
      .orderBy('id', 'asc')
      .execute();

  it('answers the nearest addresses of every provider, nearest first, with their distance, billed per answering provider, then cached', async () => {
    const before = await used();
    const first = await reverse({ ...NEAR_DAMRAK, radiusMeters: 300 });
    expect(first.status).toBe(200);
    expect(first.body.cached).toBe(false);
    const labels = first.body.suggestions.map((s) => s.label);
    expect(labels).toEqual(['Damrak 1, 1012 LG Amsterdam', 'Damrak 2, 1012 LG Amsterdam', 'Damrak 3, 1012 LG Amsterdam', 'Damrak 70, 1012 LM Amsterdam']);
    for (const s of first.body.suggestions) {
      expect(s.type).toBe('address');
      expect(s.distanceMeters).toBe(Math.round(haversineMeters(NEAR_DAMRAK, s.location!)));
    }
    expect(first.body.suggestions[1]).toMatchObject({ provider: 'local', components: { street: 'Damrak', houseNumber: '2', postcode: '1012 LG', city: 'Amsterdam', country: 'NL' } });
    // Four providers answered: local, pdok, photon and nominatim (the same Damrak 1 from three of them is one suggestion).
    expect((await used()) - before).toBe(4);

    const second = await reverse({ ...NEAR_DAMRAK, radiusMeters: 300 });
    expect(second.body).toEqual({ ...first.body, cached: true });
    expect((await used()) - before).toBe(4);
    const recorded = (await events()).slice(-2);
    expect(recorded).toEqual([
      { endpoint: '/v1/reverse', cached: 0, credits: 4, provider: 'pdok', query: '52.376,4.896' },
      { endpoint: '/v1/reverse', cached: 1, credits: 0, provider: 'pdok', query: '52.376,4.896' },
    ]);
  });

  it('shares a cached answer between positions the same to 5 decimals, never across radius or limit', async () => {
    const at = { lat: 52.376111, lng: 4.895222 };
    expect((await reverse({ ...at, radiusMeters: 250 })).body.cached).toBe(false);
    // 0.4e-5 degrees away (under half a metre): the same rounded position, the same answer.
    expect((await reverse({ lat: 52.3761114, lng: 4.8952216, radiusMeters: 250 })).body.cached).toBe(true);
    expect((await reverse({ lat: 52.37613, lng: 4.895222, radiusMeters: 250 })).body.cached).toBe(false);
    expect((await reverse({ ...at, radiusMeters: 251 })).body.cached).toBe(false);
    expect((await reverse({ ...at, radiusMeters: 250, limit: 4 })).body.cached).toBe(false);
  });

  it('keeps to the radius and the limit (defaults 200 m and 5)', async () => {
    const near = await reverse({ ...NEAR_DAMRAK, radiusMeters: 60 });
    expect(near.body.suggestions.map((s) => s.label)).toEqual(['Damrak 1, 1012 LG Amsterdam', 'Damrak 2, 1012 LG Amsterdam']);
    const one = await reverse({ ...NEAR_DAMRAK, limit: 1 });
    expect(one.body.suggestions.map((s) => s.label)).toEqual(['Damrak 1, 1012 LG Amsterdam']);
    const defaults = await reverse(NEAR_DAMRAK);
    expect(defaults.body.suggestions.map((s) => s.label)).toEqual(['Damrak 1, 1012 LG Amsterdam', 'Damrak 2, 1012 LG Amsterdam', 'Damrak 3, 1012 LG Amsterdam']);
  });

  it('answers an empty list, 200, in the empty sea', async () => {
    const sea = await reverse({ lat: 54.5, lng: 3.5, radiusMeters: 5000 });
    expect(sea.status).toBe(200);
    expect(sea.body).toEqual({ suggestions: [], cached: false });
    // PDOK has no address outside the Netherlands: it is not asked there.
    expect(server.emulators.pdok.requests.some((r) => r.path === '/reverse' && r.query.lat === '54.5')).toBe(false);
  });

  it('refuses bad coordinates with 400 and the contract body', async () => {
    const cases: [unknown, string][] = [
      [{ lat: 91, lng: 4 }, 'lat'],
      [{ lat: -90.5, lng: 4 }, 'lat'],
      [{ lat: 52, lng: 180.01 }, 'lng'],
      [{ lat: '52.37', lng: 4.89 }, 'lat'],
      [{ lat: 52.37 }, 'lng'],
      [{ lat: null, lng: 4.89 }, 'lat'],
      [{ lat: 52.37, lng: 4.89, radiusMeters: 5001 }, 'radiusMeters'],
      [{ lat: 52.37, lng: 4.89, limit: 11 }, 'limit'],
    ];
    const before = await used();
    for (const [body, field] of cases) {
      const res = await reverse(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.message).toBe('Validation failed');
      expect(res.body.issues?.map((i) => i.path[0])).toContain(field);
    }
    // Not JSON numbers at all (NaN, Infinity): still 400 with a message.
    const nan = await server.post('/v1/reverse', '{"lat": NaN, "lng": 4}', { authorization: `Bearer ${key}` });
    expect(nan.status).toBe(400);
    expect(await nan.json()).toMatchObject({ message: expect.any(String) });
    expect(await used()).toBe(before);
  });

  it('answers without the provider that failed, and does not cache that answer', async () => {
    server.emulators.photon.setFault({ mode: 'status', status: 500 });
    const at = { lat: 52.37633, lng: 4.89606, radiusMeters: 300 };
    const before = await used();
    const first = await reverse(at);
    expect(first.status).toBe(200);
    expect(first.body.suggestions[0]?.label).toBe('Damrak 1, 1012 LG Amsterdam');
    expect((await used()) - before).toBe(3);
    server.emulators.photon.setFault({ mode: 'none' });
    expect((await reverse(at)).body.cached).toBe(false);
  });

  it('needs a secret key', async () => {
    expect((await reverse(NEAR_DAMRAK, '')).status).toBe(401);
    expect((await reverse(NEAR_DAMRAK, `Bearer ${token}`)).status).toBe(401);
  });

  describe('the widget endpoint', () => {
    const widget = (body: unknown, headers: Record<string, string>) => server.post('/v1/widget/reverse', body, headers);

    it('answers opaque ids, type and distance, with CORS for the verified origin', async () => {
      const res = await widget({ ...NEAR_DAMRAK, radiusMeters: 60 }, { authorization: `Bearer ${token}`, origin: ORIGIN });
      expect(res.status).toBe(200);
      expect(res.headers.get('access-control-allow-origin')).toBe(ORIGIN);
      const body = (await res.json()) as WidgetReverseResponse;
      expect(body.suggestions[0]).toEqual({
        id: expect.stringMatching(/^svc_s_[A-Za-z0-9_-]+$/),
        label: 'Damrak 1, 1012 LG Amsterdam',
        provider: expect.any(String),
        address: expect.objectContaining({ street: 'Damrak', houseNumber: '1', postcode: '1012 LG', city: 'Amsterdam', country: 'NL' }),
        type: 'address',
        matches: [],
        distanceMeters: Math.round(haversineMeters(NEAR_DAMRAK, { lat: 52.3761606, lng: 4.8958547 })),
      });
      expect(JSON.stringify(body)).not.toMatch(/osm_id|place_id|weergavenaam|raw|location/);
      const events = await server.services.database.db.selectFrom('usage_events').select(['endpoint']).where('account_id', '=', accountId).orderBy('id', 'desc').limit(1).execute();
      expect(events[0]?.endpoint).toBe('/v1/widget/reverse');
    });

    it('403 without an exact HTTPS origin, 401 for a secret key or a token of other origins', async () => {
      expect((await widget(NEAR_DAMRAK, { authorization: `Bearer ${token}` })).status).toBe(403);
      expect((await widget(NEAR_DAMRAK, { authorization: `Bearer ${token}`, origin: 'http://shop.example' })).status).toBe(403);
      expect((await widget(NEAR_DAMRAK, { authorization: `Bearer ${key}`, origin: ORIGIN })).status).toBe(401);
      expect((await widget(NEAR_DAMRAK, { authorization: `Bearer ${token}`, origin: 'https://other.example' })).status).toBe(401);
    });

    it('answers the CORS preflight for allowed origins only', async () => {
      const ok = await fetch(`${server.url}/v1/widget/reverse`, { method: 'OPTIONS', headers: { origin: ORIGIN, 'access-control-request-method': 'POST' } });
      expect(ok.status).toBe(204);
      expect(ok.headers.get('access-control-allow-origin')).toBe(ORIGIN);
      expect(ok.headers.get('access-control-allow-headers')).toBe('Authorization, Content-Type');
      const no = await fetch(`${server.url}/v1/widget/reverse`, { method: 'OPTIONS', headers: { origin: 'https://other.example', 'access-control-request-method': 'POST' } });
      expect(no.status).toBe(403);
    });

    it("keeps to a test token's 60 a minute, shared with widget autocomplete", async () => {
      const { token: limited } = await server.createToken(accountId, [ORIGIN], 'test');
      const headers = { authorization: `Bearer ${limited}`, origin: ORIGIN };
      for (let i = 0; i < 30; i++) expect((await server.post('/v1/widget/autocomplete', { query: 'Damrak', country: 'NL' }, headers)).status).toBe(200);
      for (let i = 0; i < 30; i++) expect((await widget(NEAR_DAMRAK, headers)).status).toBe(200);
      const over = await widget(NEAR_DAMRAK, headers);
      expect(over.status).toBe(429);
      expect(await over.json()).toEqual({ message: expect.stringMatching(/rate limit/i) });
      clock.advance(60_000);
      expect((await widget(NEAR_DAMRAK, headers)).status).toBe(200);
    });
  });
});
