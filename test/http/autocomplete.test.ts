import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AutocompleteResponse } from '../../src/contract/autocomplete.js';
import { postalLines } from '../../src/engine/postal-lines.js';
import { ManualClock } from '../../src/lib/clock.js';
import { DEFAULT_DATASET, type EmulatorAddress } from '../emulators/dataset.js';
import { startTestServer, type TestServer } from '../support/server.js';

const DAY_MS = 86_400_000;

describe('POST /v1/autocomplete', () => {
  let server: TestServer;
  let key: string;
  let accountId: string;
  const clock = new ManualClock(Date.now());
  beforeAll(async () => {
    server = await startTestServer({ clock });
    ({ key, accountId } = await server.createAccount({ plan: 'starter' }));
  });
  afterAll(async () => server.close());
  afterEach(() => {
    for (const e of Object.values(server.emulators)) {
      e.setFault({ mode: 'none' });
      e.setDataset(DEFAULT_DATASET);
    }
    vi.restoreAllMocks();
  });

  type Body = AutocompleteResponse & { message?: string; issues?: unknown[] };
  const complete = async (body: Record<string, unknown>, path = '/v1/autocomplete', auth = `Bearer ${key}`) => {
    const res = await server.post(path, body, { authorization: auth });
    return { status: res.status, body: (await res.json()) as Body };
  };
  const used = async (account = accountId) => (await server.services.ledger.balance(account)).usedThisMonth;
  const events = (account = accountId) =>
    server.services.database.db
      .selectFrom('usage_events')
      .select(['endpoint', 'source', 'cached', 'credits', 'provider', 'query'])
      .where('account_id', '=', account)
      .orderBy('id', 'asc')
      .execute();

  it('suggests addresses from the providers that autocomplete, billed per answering provider, then cached', async () => {
    const before = await used();
    const nominatimCalls = server.emulators.nominatim.requests.length;
    const first = await complete({ query: 'Keizersgr', country: 'NL', sessionToken: 'sess-1' });
    expect(first.status).toBe(200);
    expect(first.body.cached).toBe(false);
    expect(first.body.sessionToken).toBe('sess-1');
    expect(first.body.suggestions[0]).toMatchObject({
      label: 'Keizersgracht 174A, 1016 DW Amsterdam',
      provider: 'pdok',
      components: { street: 'Keizersgracht', houseNumber: '174A', postcode: '1016 DW', city: 'Amsterdam' },
      location: { lat: expect.any(Number), lng: expect.any(Number) },
    });
    // pdok and photon answered; nominatim does not autocomplete (usage policy), so it costs nothing and is never called.
    expect((await used()) - before).toBe(2);
    expect(server.emulators.nominatim.requests.length).toBe(nominatimCalls);

    const second = await complete({ query: 'Keizersgr', country: 'NL', sessionToken: 'sess-2' });
    expect(second.body).toEqual({ ...first.body, cached: true, sessionToken: 'sess-2' });
    expect((await used()) - before).toBe(2);
  });

  it('orders by provider result order, round-robin in provider order, and deduplicates by label', async () => {
    const { body } = await complete({ query: 'Damrak 1', country: 'NL', limit: 10 });
    const labels = body.suggestions.map((s) => s.label);
    expect(new Set(labels).size).toBe(labels.length);
    // pdok's and photon's first results are the same address: it appears once, from pdok (first provider).
    expect(labels.filter((l) => l === 'Damrak 1, 1012 LG Amsterdam')).toHaveLength(1);
    expect(body.suggestions[0]).toMatchObject({ provider: 'pdok', label: 'Damrak 1, 1012 LG Amsterdam' });
    const mixed = await complete({ query: 'Damrak', country: 'NL', limit: 10 });
    expect(mixed.body.suggestions.slice(0, 2).map((s) => s.provider)).toEqual(['pdok', 'photon']);
  });

  it('honours limit (1-10, default 5) over providers that both know more addresses than that', async () => {
    const street: EmulatorAddress[] = Array.from({ length: 8 }, (_, i) => ({
      id: `nl-lindengracht-${i + 1}`,
      street: 'Lindengracht',
      houseNumber: String(i + 1),
      postcode: '1015 KB',
      city: 'Amsterdam',
      country: 'NL',
      lat: 52.38 + i / 10_000,
      lng: 4.88,
    }));
    for (const e of Object.values(server.emulators)) e.setDataset(street);
    const dflt = await complete({ query: 'Lindengracht', country: 'NL' });
    expect(dflt.body.suggestions).toHaveLength(5);
    expect(dflt.body.sessionToken).toBeNull();
    const one = await complete({ query: 'Lindengracht', country: 'NL', limit: 1 });
    expect(one.body.suggestions).toHaveLength(1);
    // pdok (addresses plus the street and postcode) and photon both return every address: each label once, ten at most.
    const all = await complete({ query: 'Lindengracht', country: 'NL', limit: 10 });
    const labels = all.body.suggestions.map((s) => s.label);
    expect(labels).toHaveLength(10);
    expect(new Set(labels).size).toBe(10);
    expect(labels).toEqual(expect.arrayContaining(street.map((a) => `Lindengracht ${a.houseNumber}, 1015 KB Amsterdam`)));
  });

  it('echoes an empty sessionToken as it was sent, not as null', async () => {
    const { body } = await complete({ query: 'Damrak', country: 'NL', sessionToken: '' });
    expect(body.sessionToken).toBe('');
  });

  it('labels each suggestion with the postal formatting of the validate answer, house number first where the country writes it so', async () => {
    const { body } = await complete({ query: 'Baker Street 221', country: 'GB' });
    // OpenCage's GB order, written out (the provider names the state; the loop below only holds the labels to the shared formatting).
    expect(body.suggestions[0]?.label).toBe('221B Baker Street, London, NW1 6XE, England');
    for (const query of ['Baker Street 221', 'Fifth Avenue 350', 'Marienplatz 8']) {
      const { body: other } = await complete({ query });
      expect(other.suggestions.length).toBeGreaterThan(0);
      for (const s of other.suggestions) expect(s.label).toBe(postalLines(s.components).formatted);
    }
  });

  // Issue 27: a unit typed after the house is no part of what providers match; it comes back on each house.
  it.each([
    { query: 'Marienplatz 8 Whg. 5', country: 'DE', unit: 'Whg. 5', provider: 'Marienplatz 8' },
    { query: '350 Fifth Avenue Apt 3B', country: 'US', unit: 'Apt 3B', provider: '350 Fifth Avenue' },
    { query: 'Damrak 70 Top 3', country: 'NL', unit: 'Top 3', provider: 'Damrak 70' },
    { query: 'Whg. 5, Marienplatz 8', country: 'DE', unit: 'Whg. 5', provider: 'Marienplatz 8' },
  ])('asks the providers without the unit of "$query" and carries $unit back in every house suggestion and its label', async ({ query, country, unit, provider }) => {
    const sent = (e: keyof TestServer['emulators']) => server.emulators[e].requests.length;
    const before = { pdok: sent('pdok'), photon: sent('photon') };
    const { status, body } = await complete({ query, country, limit: 10 });
    expect(status).toBe(200);
    const asked = [...server.emulators.photon.requests.slice(before.photon), ...server.emulators.pdok.requests.slice(before.pdok)].map((r) => r.query.q);
    expect(asked.length).toBeGreaterThan(0);
    for (const q of asked) expect(q).toBe(provider);
    const houses = body.suggestions.filter((s) => s.components.houseNumber);
    expect(houses.length).toBeGreaterThan(0);
    for (const s of houses) {
      expect(s.components.unit).toBe(unit);
      expect(s.label).toBe(postalLines(s.components, country).formatted);
      expect(s.label).toContain(unit);
    }
    // A street or a town has no flat: the unit stays off it.
    for (const s of body.suggestions.filter((x) => !x.components.houseNumber)) expect(s.components.unit).toBeUndefined();
    expect(body.suggestions.every((s) => s.action === undefined)).toBe(true);
  });

  it('keeps suggesting the house while its unit is being typed: a designator without its number yet is not searched for', async () => {
    const before = server.emulators.photon.requests.length;
    const { body } = await complete({ query: 'Marienplatz 8 Whg', country: 'DE' });
    expect(server.emulators.photon.requests.slice(before).map((r) => r.query.q)).toEqual(['Marienplatz 8']);
    expect(body.suggestions[0]?.components).toMatchObject({ street: 'Marienplatz', houseNumber: '8' });
    expect(body.suggestions[0]?.components.unit).toBeUndefined();
  });

  it('bills only the providers that answered, and caches only complete answers', async () => {
    server.emulators.photon.setFault({ mode: 'status', status: 500 });
    const before = await used();
    const first = await complete({ query: 'Prinsengr', country: 'NL' });
    expect(first.status).toBe(200);
    expect(first.body.suggestions.every((s) => s.provider === 'pdok')).toBe(true);
    expect((await used()) - before).toBe(1);
    // Not cached while photon was down: the next call asks again and pays again.
    const again = await complete({ query: 'Prinsengr', country: 'NL' });
    expect(again.body.cached).toBe(false);
    expect((await used()) - before).toBe(2);

    server.emulators.pdok.setFault({ mode: 'status', status: 503 });
    const nobody = await complete({ query: 'Coolsing', country: 'NL' });
    expect(nobody).toEqual({ status: 200, body: { suggestions: [], sessionToken: null, cached: false } });
    expect((await used()) - before).toBe(2);
  });

  it('keeps an answer for 24 hours in the response cache', async () => {
    const set = vi.spyOn(server.services.cache, 'set');
    await complete({ query: 'Stationsplein', country: 'NL', limit: 3 });
    expect(set).toHaveBeenCalledTimes(1);
    expect(set.mock.calls[0]?.[2]).toBe(DAY_MS);
  });

  it('writes one usage event per 200, cache hits included, tagged with source from the body or else the query', async () => {
    const { accountId: acc, key: own } = await server.createAccount({ plan: 'starter' });
    const auth = `Bearer ${own}`;
    expect((await complete({ query: 'Coolsingel', country: 'NL', source: 'checkout' }, '/v1/autocomplete?source=ignored', auth)).status).toBe(200);
    expect((await complete({ query: 'Coolsingel', country: 'NL' }, '/v1/autocomplete?source=signup', auth)).status).toBe(200);
    expect((await complete({ query: 'Coolsingel', country: 'NL' }, '/v1/autocomplete', auth)).status).toBe(200);
    expect((await complete({ query: '' }, '/v1/autocomplete', auth)).status).toBe(400);
    const rows = await events(acc);
    expect(rows.map((r) => ({ ...r, cached: Number(r.cached), credits: Number(r.credits) }))).toEqual([
      { endpoint: '/v1/autocomplete', source: 'checkout', cached: 0, credits: 2, provider: 'pdok', query: 'Coolsingel' },
      { endpoint: '/v1/autocomplete', source: 'signup', cached: 1, credits: 0, provider: 'pdok', query: 'Coolsingel' },
      { endpoint: '/v1/autocomplete', source: null, cached: 1, credits: 0, provider: 'pdok', query: 'Coolsingel' },
    ]);
    expect(await used(acc)).toBe(2);
  });

  it('401 for a missing, malformed, unknown or revoked secret key, and for a publishable token', async () => {
    const { accountId: acc, key: revoked, keyId } = await server.createAccount();
    await server.services.secretKeys.revoke(keyId);
    const { token } = await server.createToken(acc, ['https://shop.example']);
    const cases: [string, string][] = [
      ['', 'Missing API key: send Authorization: Bearer <API_KEY>'],
      ['Bearer ak_live_short', 'Malformed API key'],
      [`Bearer ak_live_${'A'.repeat(43)}`, 'Unknown or revoked API key'],
      [`Bearer ${revoked}`, 'Unknown or revoked API key'],
      [`Bearer ${token}`, 'Publishable tokens (svc_pk_…) are for the widget endpoints (/v1/widget/…) in the browser: send a secret key (ak_live_… or ak_test_…) to this endpoint, from your server'],
    ];
    for (const [auth, message] of cases) {
      const res = await server.post('/v1/autocomplete', { query: 'Damrak' }, auth ? { authorization: auth } : {});
      expect(res.status, auth).toBe(401);
      expect(await res.json()).toEqual({ message });
    }
  });

  it('429 naming the plan and its quota once the credits are spent, without calling a provider', async () => {
    const { accountId: acc, key: broke } = await server.createAccount({ plan: 'free' });
    const reservation = await server.services.ledger.reserve(acc, 500);
    await server.services.ledger.settle(reservation!, 500, {
      accountId: acc, credentialId: 'seed', env: 'live', endpoint: '/v1/validate', verdict: null, provider: null, latencyMs: 0, cached: false, query: null, source: null,
    });
    const calls = server.emulators.pdok.requests.length;
    const res = await complete({ query: 'Damrak 70', country: 'NL' }, '/v1/autocomplete', `Bearer ${broke}`);
    expect(res.status).toBe(429);
    expect(res.body.message).toMatch(/^Monthly credits exhausted: the free plan includes 500 credits per month.*\/dashboard$/);
    expect(server.emulators.pdok.requests.length).toBe(calls);
  });

  it('429 for an ak_test_ key past 60 requests a minute, cache hits included', async () => {
    const { key: test } = await server.createAccount({ plan: 'starter', env: 'test' });
    for (let i = 0; i < 60; i += 1) expect((await complete({ query: 'Damrak', country: 'NL' }, '/v1/autocomplete', `Bearer ${test}`)).status).toBe(200);
    const limited = await server.post('/v1/autocomplete', { query: 'Damrak', country: 'NL' }, { authorization: `Bearer ${test}` });
    expect(limited.status).toBe(429);
    expect(await limited.json()).toEqual({ message: 'Test key rate limit reached: ak_test_ keys allow 60 requests per minute' });
    clock.advance(60_000);
    expect((await complete({ query: 'Damrak', country: 'NL' }, '/v1/autocomplete', `Bearer ${test}`)).status).toBe(200);
  });

  it.each([
    [{ query: '' }, 'too_small', ['query']],
    [{ query: 'x'.repeat(201) }, 'too_big', ['query']],
    [{ query: 'Damrak', limit: 0 }, 'too_small', ['limit']],
    [{ query: 'Damrak', limit: 11 }, 'too_big', ['limit']],
    [{ query: 'Damrak', limit: 2.5 }, 'invalid_type', ['limit']],
    [{ query: 'Damrak', sessionToken: 's'.repeat(65) }, 'too_big', ['sessionToken']],
    [{ query: 'Damrak', country: 'NLD' }, 'too_big', ['country']],
    [{ query: 'Damrak', language: 'x' }, 'too_small', ['language']],
    [{ query: 'Damrak', source: '' }, 'too_small', ['source']],
    [{ country: 'NL' }, 'invalid_type', ['query']],
  ])('400 for %j', async (body, code, path) => {
    const res = await complete(body);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Validation failed');
    expect(res.body.issues).toEqual([expect.objectContaining({ code, path })]);
  });
});
