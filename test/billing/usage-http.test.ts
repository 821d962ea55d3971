import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UsageResponse } from '../../src/contract/usage.js';
import { ManualClock } from '../../src/lib/clock.js';
import { STORAGE_BACKENDS } from '../support/backends.js';
import { startTestServer, type TestServer } from '../support/server.js';

const NOV_20 = Date.UTC(2026, 10, 20, 18, 30, 0);
const VALIDATE = { query: 'Damrak 1, 1012 LG Amsterdam', country: 'NL' };
const AUTOCOMPLETE = { query: 'Damrak', country: 'NL' };

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

describe.each(STORAGE_BACKENDS)('GET /v1/usage over HTTP on %s', (backend) => {
  let server: TestServer;
  const clock = new ManualClock(NOV_20);
  const providerCalls = () => Object.values(server.emulators).reduce((sum, e) => sum + e.requests.length, 0);
  const usage = (key: string, query = '') => fetch(`${server.url}/v1/usage${query}`, { headers: bearer(key) });

  beforeAll(async () => {
    server = await startTestServer({ backend, clock });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('reports a live and a test key of one account, tagged and untagged, cached and not', async () => {
    const { accountId, key: live } = await server.createAccount({ plan: 'free' });
    const test = (await server.services.secretKeys.create(accountId, 'test')).key;

    // Nov 20: the live key validates, tagged in the body.
    clock.set(NOV_20);
    let before = providerCalls();
    const first = await server.post('/v1/validate', { ...VALIDATE, source: 'checkout' }, bearer(live));
    expect(first.status).toBe(200);
    const validated = (await first.json()) as { verdict: string; provider: string | null; cached: boolean };
    expect(validated.cached).toBe(false);
    const validateCredits = providerCalls() - before;
    expect(validateCredits).toBeGreaterThan(0);

    // Nov 21: the test key repeats it (a cache hit, tagged by the query parameter) and autocompletes untagged.
    clock.set(NOV_20 + 86_400_000);
    before = providerCalls();
    const again = await server.post('/v1/validate?source=checkout', VALIDATE, bearer(test));
    expect(again.status).toBe(200);
    expect(((await again.json()) as { cached: boolean }).cached).toBe(true);
    expect(providerCalls()).toBe(before);
    clock.advance(65_000);
    const completed = await server.post('/v1/autocomplete', AUTOCOMPLETE, bearer(test));
    expect(completed.status).toBe(200);
    const suggestions = ((await completed.json()) as { suggestions: Array<{ provider: string }> }).suggestions;
    const autocompleteCredits = providerCalls() - before;
    expect(autocompleteCredits).toBeGreaterThan(0);

    clock.advance(30_000);
    const calledBefore = providerCalls();
    const response = await usage(test);
    expect(response.status).toBe(200);
    const report = UsageResponse.parse(await response.json());

    const validateEvent = { endpoint: '/v1/validate', verdict: validated.verdict, provider: validated.provider, latency_ms: 0, query: VALIDATE.query, source: 'checkout' };
    const recent = [
      { endpoint: '/v1/autocomplete', verdict: null, provider: suggestions[0]?.provider ?? null, latency_ms: 0, cached: 0, credits: autocompleteCredits, query: AUTOCOMPLETE.query, source: null, at: '2026-11-21 18:31:05' },
      { ...validateEvent, cached: 1, credits: 0, at: '2026-11-21 18:30:00' },
      { ...validateEvent, cached: 0, credits: validateCredits, at: '2026-11-20 18:30:00' },
    ];
    const daily = Array.from({ length: 14 }, (_, i) => ({ day: `2026-11-${String(8 + i).padStart(2, '0')}`, n: 0, credits: 0 }));
    daily[12] = { day: '2026-11-20', n: 1, credits: validateCredits };
    daily[13] = { day: '2026-11-21', n: 2, credits: autocompleteCredits };
    const sources = [
      { source: 'checkout', n: 2, credits: validateCredits },
      { source: '', n: 1, credits: autocompleteCredits },
    ].sort((a, b) => b.credits - a.credits || compare(a.source, b.source));
    expect(report).toEqual({
      plan: 'free',
      quota: 500,
      extraCredits: 0,
      creditsUsedThisMonth: validateCredits + autocompleteCredits,
      environment: 'test',
      filteredBySource: null,
      daily,
      summary: [
        { endpoint: '/v1/autocomplete', verdict: null, n: 1, credits: autocompleteCredits },
        { endpoint: '/v1/validate', verdict: validated.verdict, n: 2, credits: validateCredits },
      ],
      sources,
      recent,
      // No feedback given (test/feedback/ covers the counts).
      feedback: { validated_used: 0, user_used: 0, unvalidated_used: 0, unused: 0 },
    });

    // The live key sees the same account-wide figures; only `environment` names the caller.
    expect(await (await usage(live)).json()).toEqual({ ...report, environment: 'live' });
    // Filtered by the query parameter: daily, summary and recent narrow, sources stay whole.
    expect(await (await usage(live, '?source=checkout')).json()).toEqual({
      ...report,
      environment: 'live',
      filteredBySource: 'checkout',
      daily: daily.map((d) => (d.day === '2026-11-21' ? { ...d, n: 1, credits: 0 } : d)),
      summary: [{ endpoint: '/v1/validate', verdict: validated.verdict, n: 2, credits: validateCredits }],
      recent: recent.slice(1),
    });
    // Reading usage cost nothing, called no provider and recorded no event.
    expect(await (await usage(test)).json()).toEqual(report);
    expect(providerCalls()).toBe(calledBefore);
  });

  it('answers 401 without a valid key', async () => {
    const missing = await fetch(`${server.url}/v1/usage`);
    expect(missing.status).toBe(401);
    const unknown = await usage(`ak_live_${'A'.repeat(43)}`);
    expect(unknown.status).toBe(401);
    expect(await unknown.json()).toEqual({ message: 'Unknown or revoked API key' });
  });
});
