import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ValidateResponse } from '../../src/contract/validate.js';
import { DEFAULT_DATASET } from '../emulators/index.js';
import { startTestServer, type TestServer } from '../support/server.js';

const TIMEOUT_MS = 1500;

/** POST /v1/validate end to end: real app, real storage, the three providers as emulators (issue 3). */
describe('POST /v1/validate against the provider emulators', () => {
  let server: TestServer;
  let key: string;
  let accountId: string;

  beforeAll(async () => {
    // Long enough that the emulators always answer in time on a busy machine; the hanging-provider
    // test measures the response against it.
    server = await startTestServer({ env: { PROVIDER_TIMEOUT_MS: String(TIMEOUT_MS) } });
    ({ key, accountId } = await server.createAccount({ plan: 'starter' }));
  });
  afterAll(async () => server.close());
  afterEach(() => {
    for (const e of Object.values(server.emulators)) {
      e.setFault({ mode: 'none' });
      e.setDataset(DEFAULT_DATASET);
    }
  });

  const validate = async (body: Record<string, unknown>) => {
    const res = await server.post('/v1/validate', body, { authorization: `Bearer ${key}` });
    expect(res.status).toBe(200);
    return (await res.json()) as ValidateResponse;
  };
  const used = async () => (await server.services.ledger.balance(accountId)).usedThisMonth;
  const calls = () => Object.values(server.emulators).reduce((n, e) => n + e.requests.length, 0);

  it('a clean address known to all three providers is valid, in agreement, for 3 credits; again it is cached for 0', async () => {
    const before = await used();
    const first = await validate({ query: 'Damrak 1, 1012 LG Amsterdam', country: 'NL' });
    expect(first).toMatchObject({
      verdict: 'valid',
      cached: false,
      provider: expect.stringMatching(/^(pdok|photon|nominatim)$/),
      reasons: [],
      components: { street: 'match', houseNumber: 'match', postcode: 'match', city: 'match' },
      address: { street: 'Damrak', houseNumber: '1', postcode: '1012 LG', city: 'Amsterdam', country: 'NL' },
    });
    expect(first.confidence).toBeGreaterThanOrEqual(80);
    expect(first.consensus).toMatchObject({ status: 'agreement', score: 100, conflictingProviders: [], disagreements: [] });
    expect([...first.consensus.supportingProviders].sort()).toEqual(['nominatim', 'pdok', 'photon']);
    expect(Math.min(100, first.consensus.baseConfidence + first.consensus.confidenceDelta)).toBe(first.confidence);
    expect(first.address?.lat).toBeCloseTo(52.37616, 3);
    // What a checkout stores and acts on (issue 27): three providers agreeing on one place are no alternatives.
    expect(first).toMatchObject({
      address: { lines: ['Damrak 1', '1012 LG Amsterdam'], formatted: 'Damrak 1, 1012 LG Amsterdam' },
      granularity: { input: 'house', validated: 'house', geocode: 'house' },
      action: 'accept',
      unresolved: [],
      alternatives: [],
    });
    expect(first).not.toHaveProperty('candidates');
    expect(first).not.toHaveProperty('trace');
    expect((await used()) - before).toBe(3);

    const providerCalls = calls();
    const second = await validate({ query: 'Damrak 1, 1012 LG Amsterdam', country: 'NL' });
    expect(second.cached).toBe(true);
    // The same answer, under its own response id.
    expect(second.responseId).not.toBe(first.responseId);
    expect({ ...second, cached: false, responseId: first.responseId }).toEqual(first);
    expect((await used()) - before).toBe(3);
    expect(calls()).toBe(providerCalls);
  });

  it('a street typo is correctable, with the street corrected', async () => {
    const res = await validate({ query: 'Damrk 1, 1012 LG Amsterdam', country: 'NL' });
    expect(res.verdict).toBe('correctable');
    expect(res.components.street).toBe('corrected');
    expect(res.reasons).toContain('components_corrected');
    expect(res.address?.street).toBe('Damrak');
  });

  it('a house number that does not exist is invalid with no_house_number_match', async () => {
    const res = await validate({ components: { street: 'Damrak', houseNumber: '999', postcode: '1012 LG', city: 'Amsterdam' }, country: 'NL' });
    expect(res.verdict).toBe('invalid');
    expect(res.reasons).toContain('no_house_number_match');
  });

  it('an address nobody knows is invalid with no_results, address null, confidence 0', async () => {
    const res = await validate({ query: 'Nonexistentweg 12345, Nowhereville', country: 'NL' });
    expect(res).toMatchObject({ verdict: 'invalid', confidence: 0, address: null, provider: null, components: {} });
    expect(res.reasons).toContain('no_results');
    expect(res.consensus.status).toBe('unavailable');
  });

  it('debug adds candidates and a trace with each provider attempt', async () => {
    const res = await validate({ query: 'Domplein 29, 3512 JE Utrecht', country: 'NL', debug: true });
    expect(res.trace?.map((t) => [t.provider, t.status])).toEqual([
      ['pdok', 'ok'],
      ['photon', 'ok'],
      ['nominatim', 'ok'],
    ]);
    for (const step of res.trace ?? []) expect(step.latencyMs).toBeGreaterThanOrEqual(0);
    expect(res.candidates?.length).toBeGreaterThanOrEqual(3);
    for (const c of res.candidates ?? []) {
      expect(c.confidence).toBeGreaterThanOrEqual(0);
      expect(c.componentVerdicts).toBeTypeOf('object');
    }
    expect(res.candidates?.find((c) => c.provider === 'pdok')?.raw).toBeTypeOf('object');
  });

  it('source comes from the body, else the query parameter', async () => {
    await server.post('/v1/validate?source=from-query', { query: 'Amstel 1, Amsterdam', country: 'NL', source: 'from-body' }, { authorization: `Bearer ${key}` });
    await server.post('/v1/validate?source=from-query', { query: 'Amstel 1, Amsterdam', country: 'NL' }, { authorization: `Bearer ${key}` });
    const rows = await server.services.database.db
      .selectFrom('usage_events')
      .select(['source', 'cached', 'credits'])
      .where('account_id', '=', accountId)
      .orderBy('id', 'desc')
      .limit(2)
      .execute();
    expect(rows.map((r) => r.source)).toEqual(['from-query', 'from-body']);
    expect(rows.map((r) => [Number(r.cached), Number(r.credits)])).toEqual([[1, 0], [0, 3]]);
  });

  it('two providers 40 m apart disagree on the location, with distanceMeters', async () => {
    const shifted = DEFAULT_DATASET.map((a) => (a.id === 'nl-coolsingel-40' ? { ...a, lat: a.lat + 0.00036 } : a));
    server.emulators.photon.setDataset(shifted);
    const res = await validate({ query: 'Coolsingel 40, 3011 AD Rotterdam', country: 'NL' });
    expect(['partial-agreement', 'disagreement']).toContain(res.consensus.status);
    const location = res.consensus.disagreements
      .flatMap((d) => d.differences.map((diff) => ({ ...diff, provider: d.provider })))
      .find((d) => d.field === 'location');
    expect(location?.distanceMeters).toBeGreaterThan(35);
    expect(location?.distanceMeters).toBeLessThan(45);
    expect(res.consensus.conflictingProviders.length).toBeGreaterThan(0);
  });

  it('writes exactly one usage event per 200, with the credits it cost, and none for a refused request', async () => {
    const own = await server.createAccount({ plan: 'starter' });
    const auth = { authorization: `Bearer ${own.key}` };
    const events = () =>
      server.services.database.db
        .selectFrom('usage_events')
        .select(['endpoint', 'verdict', 'provider', 'cached', 'credits', 'query', 'source'])
        .where('account_id', '=', own.accountId)
        .orderBy('id')
        .execute();
    const spent = async () => (await server.services.ledger.balance(own.accountId)).usedThisMonth;

    // Addresses no other test here asks for: the cache is shared across accounts.
    const body = { query: 'Binnenhof 1A, 2513 AA Den Haag', country: 'NL', source: 'checkout' };
    expect((await server.post('/v1/validate', body, auth)).status).toBe(200);
    expect((await server.post('/v1/validate', body, auth)).status).toBe(200);
    // Nobody answers: a 200 that costs nothing, still recorded.
    for (const e of Object.values(server.emulators)) e.setFault({ mode: 'status', status: 503 });
    const failed = await server.post('/v1/validate', { query: 'Apothekersdijk 2, 2312 DC Leiden', country: 'NL' }, auth);
    expect(failed.status).toBe(200);
    expect(await failed.json()).toMatchObject({ verdict: 'invalid', reasons: ['no_results', 'low_confidence'], cached: false });
    for (const e of Object.values(server.emulators)) e.setFault({ mode: 'none' });
    // Refused before any work: no event, no credits.
    expect((await server.post('/v1/validate', { country: 'NL' }, auth)).status).toBe(400);
    expect((await server.post('/v1/validate', body, { authorization: 'Bearer ak_live_nope' })).status).toBe(401);

    expect((await events()).map((e) => ({ ...e, cached: Number(e.cached), credits: Number(e.credits) }))).toEqual([
      { endpoint: '/v1/validate', verdict: 'valid', provider: 'pdok', cached: 0, credits: 3, query: body.query, source: 'checkout' },
      { endpoint: '/v1/validate', verdict: 'valid', provider: 'pdok', cached: 1, credits: 0, query: body.query, source: 'checkout' },
      { endpoint: '/v1/validate', verdict: 'invalid', provider: null, cached: 0, credits: 0, query: 'Apothekersdijk 2, 2312 DC Leiden', source: null },
    ]);
    expect(await spent()).toBe(3);
  });

  it('a debug request skips the cache read, shows a fresh trace and is billed, and refreshes the entry', async () => {
    const body = { query: 'Lijsterstraat 20, 3815 DT Amersfoort', country: 'NL' };
    expect((await validate(body)).cached).toBe(false);
    const before = await used();
    const debug = await validate({ ...body, debug: true });
    expect(debug.cached).toBe(false);
    expect(debug.trace?.map((t) => t.status)).toEqual(['ok', 'ok', 'ok']);
    expect((await used()) - before).toBe(3);
    const again = await validate(body);
    expect(again.cached).toBe(true);
    expect(again).not.toHaveProperty('trace');
    expect((await used()) - before).toBe(3);
  });

  it('a hanging provider times out, and the answer still arrives within the timeout', async () => {
    server.emulators.photon.setFault({ mode: 'hang' });
    const started = performance.now();
    const res = await validate({ query: 'Prinsengracht 263, 1016 GV Amsterdam', country: 'NL', debug: true });
    const elapsed = performance.now() - started;
    expect(res.trace?.find((t) => t.provider === 'photon')?.status).toBe('timeout');
    expect(res.verdict).toBe('valid');
    expect(res.trace?.find((t) => t.provider === 'photon')?.latencyMs).toBeGreaterThanOrEqual(TIMEOUT_MS - 10);
    // The timeout plus a small margin for the rest of the request.
    expect(elapsed).toBeLessThan(TIMEOUT_MS + 500);
  });

  it('malformed JSON from a provider is an error step; the others still answer, and only they are billed', async () => {
    server.emulators.nominatim.setFault({ mode: 'malformed' });
    const before = await used();
    const res = await validate({ query: 'Keizersgracht 174A, Amsterdam', country: 'NL', debug: true });
    const step = res.trace?.find((t) => t.provider === 'nominatim');
    expect(step?.status).toBe('error');
    expect(step?.error).toBeTruthy();
    expect(res.address).not.toBeNull();
    expect((await used()) - before).toBe(2);
    // An incomplete answer is not cached.
    const again = await validate({ query: 'Keizersgracht 174A, Amsterdam', country: 'NL' });
    expect(again.cached).toBe(false);
  });

  it('repeated failures open the circuit, and the provider is no longer called', async () => {
    server.emulators.photon.setFault({ mode: 'status', status: 500 });
    const statuses: string[] = [];
    for (let i = 0; i < 7; i += 1) {
      const res = await validate({ query: `Stationsplein 17, Eindhoven ${i}`, country: 'NL', debug: true });
      statuses.push(res.trace?.find((t) => t.provider === 'photon')?.status ?? 'none');
    }
    expect(statuses.slice(0, 5)).toEqual(['error', 'error', 'error', 'error', 'error']);
    expect(statuses.slice(5)).toEqual(['circuit-open', 'circuit-open']);
    const photonCalls = server.emulators.photon.requests.length;
    await validate({ query: 'Stationsplein 17, Eindhoven', country: 'NL' });
    expect(server.emulators.photon.requests.length).toBe(photonCalls);
  });
});

describe('coverage', () => {
  let server: TestServer;
  beforeAll(async () => {
    // An operator whose Photon and Nominatim hold only a German extract.
    server = await startTestServer({ env: { PHOTON_COUNTRIES: 'DE', NOMINATIM_COUNTRIES: 'DE' } });
  });
  afterAll(async () => server.close());

  it('a country only one provider covers is single-provider; the others are no-coverage and not called', async () => {
    const { key, accountId } = await server.createAccount();
    const res = await server.post('/v1/validate', { query: 'Grote Markt 1, 9712 HN Groningen', country: 'NL', debug: true }, { authorization: `Bearer ${key}` });
    const body = (await res.json()) as ValidateResponse;
    expect(body.consensus).toMatchObject({ status: 'single-provider', score: null, supportingProviders: ['pdok'] });
    expect(body.trace?.map((t) => [t.provider, t.status])).toEqual([
      ['pdok', 'ok'],
      ['photon', 'no-coverage'],
      ['nominatim', 'no-coverage'],
    ]);
    expect(server.emulators.photon.requests).toHaveLength(0);
    expect(server.emulators.nominatim.requests).toHaveLength(0);
    expect((await server.services.ledger.balance(accountId)).usedThisMonth).toBe(1);
  });

  it('a country no provider covers calls nobody, costs nothing, is marked unverified and still records its usage event', async () => {
    const { key, accountId } = await server.createAccount();
    const calls = Object.values(server.emulators).reduce((n, e) => n + e.requests.length, 0);
    const res = await server.post('/v1/validate', { query: '10 Rue de Rivoli, 75001 Paris', country: 'FR', debug: true }, { authorization: `Bearer ${key}` });
    expect(res.status).toBe(200);
    // Nothing was checked: said as when no provider answered (issue 20 §1.2).
    expect(res.headers.get('x-addressd-unverified')).toBe('providers-unavailable');
    const body = (await res.json()) as ValidateResponse;
    expect(body).toMatchObject({ verdict: 'invalid', confidence: 0, address: null, provider: null, reasons: ['no_results', 'low_confidence'], action: 'confirm' });
    expect(body.consensus.status).toBe('unavailable');
    expect(body.trace?.map((t) => t.status)).toEqual(['no-coverage', 'no-coverage', 'no-coverage']);
    expect(Object.values(server.emulators).reduce((n, e) => n + e.requests.length, 0)).toBe(calls);
    expect((await server.services.ledger.balance(accountId)).usedThisMonth).toBe(0);
    const rows = await server.services.database.db.selectFrom('usage_events').select(['credits', 'cached']).where('account_id', '=', accountId).execute();
    expect(rows.map((r) => [Number(r.credits), Number(r.cached)])).toEqual([[0, 0]]);
  });
});
