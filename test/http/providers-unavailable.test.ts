import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AutocompleteResponse, WidgetAutocompleteResponse } from '../../src/contract/autocomplete.js';
import { DemoValidateResponse, ValidateResponse } from '../../src/contract/validate.js';
import type { Fault } from '../emulators/index.js';
import { STORAGE_BACKENDS } from '../support/backends.js';
import { startTestServer, type TestServer } from '../support/server.js';

const ORIGIN = 'https://shop.example';
const HEADER = 'x-addressd-unverified';

/**
 * No provider answered (all failed, timed out or open): SPEC's shape, 0 credits, not cached, and
 * `X-Addressd-Unverified: providers-unavailable`; "the providers found nothing" has no header.
 */
describe.each(STORAGE_BACKENDS)('when no provider answers (%s)', (backend) => {
  let server: TestServer;
  let key: string;
  let accountId: string;

  beforeAll(async () => {
    // No fault here hangs: a long timeout only keeps a busy machine from turning answers into timeouts.
    server = await startTestServer({ backend, redis: backend === 'postgres', env: { BREAKER_FAILURES: '3', PROVIDER_TIMEOUT_MS: '5000' } });
    ({ key, accountId } = await server.createAccount({ plan: 'starter' }));
  });
  afterAll(async () => server.close());
  afterEach(() => setFaults({ mode: 'none' }));

  function setFaults(pdok: Fault, photon: Fault = pdok, nominatim: Fault = pdok): void {
    server.emulators.pdok.setFault(pdok);
    server.emulators.photon.setFault(photon);
    server.emulators.nominatim.setFault(nominatim);
  }
  const used = async () => (await server.services.ledger.balance(accountId)).usedThisMonth;
  const validate = (query: string) => server.post('/v1/validate', { query, country: 'NL' }, { authorization: `Bearer ${key}` });
  const recent = async () => {
    const res = await fetch(`${server.url}/v1/usage`, { headers: { authorization: `Bearer ${key}` } });
    return ((await res.json()) as { recent: { endpoint: string; credits: number; cached: number; query: string | null }[] }).recent;
  };

  it('validate: all three fail in three ways: SPEC shape, the header, 0 credits, a usage event for 0, nothing cached', async () => {
    setFaults({ mode: 'status', status: 500 }, { mode: 'malformed' }, { mode: 'wrong-content-type' });
    const before = await used();
    const res = await validate('Damrak 1, 1012 LG Amsterdam');
    expect(res.status).toBe(200);
    expect(res.headers.get(HEADER)).toBe('providers-unavailable');
    const body = ValidateResponse.strict().parse(await res.json());
    expect(body).toMatchObject({ verdict: 'invalid', confidence: 0, address: null, provider: null, reasons: expect.arrayContaining(['no_results']), cached: false, consensus: { status: 'unavailable' } });
    expect((await used()) - before).toBe(0);
    expect((await recent())[0]).toMatchObject({ endpoint: '/v1/validate', credits: 0, cached: 0 });

    // Providers back: the same query is asked again (nothing was cached) and billed as usual, without the header.
    setFaults({ mode: 'none' });
    const again = await validate('Damrak 1, 1012 LG Amsterdam');
    expect(again.headers.get(HEADER)).toBeNull();
    expect(((await again.json()) as ValidateResponse).cached).toBe(false);
    expect((await used()) - before).toBe(3);
  });

  it('validate: open circuits count as not answering, cost nothing and drop out of /healthz', async () => {
    setFaults({ mode: 'status', status: 503 });
    for (let i = 0; i < 3; i += 1) expect((await validate(`Damrak ${i + 2}, Amsterdam`)).headers.get(HEADER)).toBe('providers-unavailable');
    const calls = server.emulators.pdok.requests.length;
    const before = await used();
    const open = await validate('Damrak 9, Amsterdam');
    expect(open.headers.get(HEADER)).toBe('providers-unavailable');
    expect(server.emulators.pdok.requests.length).toBe(calls); // circuit open: not even asked
    expect((await used()) - before).toBe(0);
    const health = (await (await fetch(`${server.url}/healthz`)).json()) as { status: string; providers: string[] };
    expect(health).toEqual({ status: 'ok', providers: [] });
  });

  it('validate: the providers answering "nothing found", or one of three answering, is a finding: no header, billed', async () => {
    // Fresh circuits: an app of its own sharing this one's storage.
    const fresh = await startTestServer({ sandbox: server.sandbox, env: { PROVIDER_TIMEOUT_MS: '5000' }, ...(backend === 'postgres' ? { redis: true } : {}) });
    try {
      const nothing = await fresh.post('/v1/validate', { query: 'Nergensstraat 999, 9999 ZZ Nergenshuizen', country: 'NL' }, { authorization: `Bearer ${key}` });
      expect(nothing.headers.get(HEADER)).toBeNull();
      expect(((await nothing.json()) as ValidateResponse).reasons).toContain('no_results');

      fresh.emulators.pdok.setFault({ mode: 'status', status: 500 });
      fresh.emulators.photon.setFault({ mode: 'status', status: 500 });
      const before = await used();
      const one = await fresh.post('/v1/validate', { query: 'Damrak 70, 1012 LM Amsterdam', country: 'NL' }, { authorization: `Bearer ${key}` });
      expect(one.headers.get(HEADER)).toBeNull();
      expect(((await one.json()) as ValidateResponse).provider).toBe('nominatim');
      expect((await used()) - before).toBe(1);
      const health = (await (await fetch(`${fresh.url}/healthz`)).json()) as { providers: string[] };
      expect(health.providers).toEqual(['pdok', 'photon', 'nominatim']); // one failure each: circuits still closed
    } finally {
      await fresh.close();
    }
  });
});

describe('when no provider answers: autocomplete, widget, demo', () => {
  let server: TestServer;
  let key: string;
  let token: string;

  beforeAll(async () => {
    server = await startTestServer({ env: { BREAKER_FAILURES: '100', PROVIDER_TIMEOUT_MS: '5000' } });
    let accountId: string;
    ({ key, accountId } = await server.createAccount({ plan: 'starter' }));
    ({ token } = await server.createToken(accountId, [ORIGIN]));
    for (const e of Object.values(server.emulators)) e.setFault({ mode: 'status', status: 500 });
  });
  afterAll(async () => server.close());

  it('server autocomplete: SPEC shape, the header, readable cross-origin', async () => {
    const res = await server.post('/v1/autocomplete', { query: 'Damrak', country: 'NL' }, { authorization: `Bearer ${key}`, origin: ORIGIN });
    expect(res.status).toBe(200);
    expect(res.headers.get(HEADER)).toBe('providers-unavailable');
    expect(res.headers.get('access-control-expose-headers')).toMatch(/X-Addressd-Unverified/i);
    expect(AutocompleteResponse.strict().parse(await res.json())).toEqual({ suggestions: [], sessionToken: null, cached: false });
  });

  it('widget autocomplete: SPEC shape, the header, exposed to the page', async () => {
    const res = await server.post('/v1/widget/autocomplete', { query: 'Damrak', country: 'NL', sessionToken: 's1' }, { authorization: `Bearer ${token}`, origin: ORIGIN });
    expect(res.status).toBe(200);
    expect(res.headers.get(HEADER)).toBe('providers-unavailable');
    expect(res.headers.get('access-control-expose-headers')).toMatch(/X-Addressd-Unverified/i);
    expect(WidgetAutocompleteResponse.strict().parse(await res.json())).toEqual({ suggestions: [], sessionToken: 's1', cached: false });
  });

  it('demo: SPEC shape and the header on a fresh lookup; none on a sample', async () => {
    const res = await server.post('/demo/validate', { query: 'Kalverstraat 92, Amsterdam' });
    expect(res.status).toBe(200);
    expect(res.headers.get(HEADER)).toBe('providers-unavailable');
    expect(DemoValidateResponse.strict().parse(await res.json())).toMatchObject({ verdict: 'invalid', provider: null });
  });
});
