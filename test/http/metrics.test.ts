import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { STORAGE_BACKENDS } from '../support/backends.js';
import { metricSum } from '../support/prometheus.js';
import { startTestServer, type TestServer } from '../support/server.js';

/** GET /metrics on a real server, providers as emulators, on SQLite and on PostgreSQL + Redis. */
describe.each(STORAGE_BACKENDS)('GET /metrics (%s)', (backend) => {
  let server: TestServer;
  let key: string;

  beforeAll(async () => {
    // Nothing hangs here: a long timeout keeps a busy machine from turning answers into timeouts.
    server = await startTestServer({ backend, redis: backend === 'postgres', env: { PROVIDER_TIMEOUT_MS: '10000' } });
    ({ key } = await server.createAccount({ plan: 'starter' }));
  });
  afterAll(async () => server.close());
  afterEach(() => {
    for (const e of Object.values(server.emulators)) e.setFault({ mode: 'none' });
  });

  const scrape = async () => {
    const res = await fetch(`${server.url}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    return res.text();
  };
  const validate = (body: unknown) => server.post('/v1/validate', body, { authorization: `Bearer ${key}` });

  it('counts requests by route pattern and status, provider calls, cache misses and hits, credits and usage events', async () => {
    const before = await scrape();
    const damrak = { query: 'Damrak 1, 1012 LG Amsterdam', country: 'NL' };
    expect((await validate(damrak)).status).toBe(200); // 3 providers answer: 3 credits
    expect((await validate(damrak)).status).toBe(200); // cached: 0 credits
    expect((await fetch(`${server.url}/no/such/path/42`)).status).toBe(404);
    expect((await fetch(`${server.url}/widget/v1/no-such-file.js`)).status).toBe(404);
    const after = await scrape();
    const delta = (name: string, labels: Record<string, string> = {}) => metricSum(after, name, labels) - metricSum(before, name, labels);

    expect(delta('addressd_http_requests_total', { method: 'POST', route: '/v1/validate', status: '200' })).toBe(2);
    expect(delta('addressd_http_request_duration_seconds_count', { route: '/v1/validate', status: '200' })).toBe(2);
    expect(delta('addressd_http_requests_total', { route: 'unmatched', status: '404' })).toBe(1);
    // The pattern, never the raw path: label values stay few.
    expect(delta('addressd_http_requests_total', { route: '/widget/v1/:file', status: '404' })).toBe(1);
    expect(after).not.toContain('/no/such/path');
    expect(after).not.toContain('no-such-file');
    for (const provider of ['pdok', 'photon', 'nominatim']) {
      expect(delta('addressd_provider_calls_total', { provider, kind: 'geocode', outcome: 'ok' })).toBe(1);
      expect(delta('addressd_provider_call_duration_seconds_count', { provider, outcome: 'ok' })).toBe(1);
    }
    expect(delta('addressd_cache_lookups_total', { kind: 'validate', result: 'miss' })).toBe(1);
    expect(delta('addressd_cache_lookups_total', { kind: 'validate', result: 'hit' })).toBe(1);
    expect(delta('addressd_credits_charged_total', { endpoint: '/v1/validate' })).toBe(3);
    expect(delta('addressd_usage_events_total', { endpoint: '/v1/validate', cached: 'false' })).toBe(1);
    expect(delta('addressd_usage_events_total', { endpoint: '/v1/validate', cached: 'true' })).toBe(1);
  });

  it('counts provider errors by cause and timeouts, and shows a circuit opening', async () => {
    // An instance of its own (same storage): fresh breakers opening after 2 failures, and a
    // timeout short enough that the hanging provider costs little.
    const faulty = await startTestServer({ sandbox: server.sandbox, redis: backend === 'postgres', env: { BREAKER_FAILURES: '2', PROVIDER_TIMEOUT_MS: '2500' } });
    try {
      const scrapeFaulty = async () => (await fetch(`${faulty.url}/metrics`)).text();
      const before = await scrapeFaulty();
      expect(metricSum(before, 'addressd_provider_circuit_state', { provider: 'pdok' })).toBe(0);
      faulty.emulators.pdok.setFault({ mode: 'status', status: 500 });
      faulty.emulators.photon.setFault({ mode: 'hang' });
      faulty.emulators.nominatim.setFault({ mode: 'malformed' });
      for (const query of ['Damrak 70, 1012 LM Amsterdam', 'Damrak 70 1012LM Amsterdam']) {
        expect((await faulty.post('/v1/validate', { query, country: 'NL' }, { authorization: `Bearer ${key}` })).status).toBe(200);
      }
      const after = await scrapeFaulty();
      expect(metricSum(after, 'addressd_provider_calls_total', { provider: 'pdok', outcome: 'error', cause: '500' })).toBe(2);
      expect(metricSum(after, 'addressd_provider_calls_total', { provider: 'photon', outcome: 'timeout' })).toBe(2);
      expect(metricSum(after, 'addressd_provider_calls_total', { provider: 'nominatim', outcome: 'error', cause: 'malformed' })).toBe(2);
      expect(metricSum(after, 'addressd_provider_call_duration_seconds_count', { provider: 'photon', outcome: 'timeout' })).toBe(2);
      // BREAKER_FAILURES=2: every circuit is open now.
      for (const provider of ['pdok', 'photon', 'nominatim']) expect(metricSum(after, 'addressd_provider_circuit_state', { provider })).toBe(2);

      expect((await faulty.post('/v1/validate', { query: 'Damrak 70, 1012LM, Amsterdam', country: 'NL' }, { authorization: `Bearer ${key}` })).status).toBe(200);
      const open = await scrapeFaulty();
      expect(metricSum(open, 'addressd_provider_calls_total', { provider: 'pdok', outcome: 'circuit-open' })).toBe(1);
    } finally {
      await faulty.close();
    }
  });

  it('counts rate-limit rejections by limit', async () => {
    const { key: testKey } = await server.createAccount({ plan: 'starter', env: 'test' });
    const before = metricSum(await scrape(), 'addressd_rate_limit_rejections_total', { limit: 'testkey' });
    const statuses: number[] = [];
    for (let i = 0; i < 61; i += 1) {
      statuses.push((await fetch(`${server.url}/v1/usage`, { headers: { authorization: `Bearer ${testKey}` } })).status);
    }
    expect(statuses.filter((s) => s === 429)).toHaveLength(1);
    expect(metricSum(await scrape(), 'addressd_rate_limit_rejections_total', { limit: 'testkey' }) - before).toBe(1);
  });
});

describe('GET /metrics registries and token', () => {
  let first: TestServer;
  let second: TestServer;

  beforeAll(async () => {
    [first, second] = await Promise.all([startTestServer(), startTestServer({ env: { METRICS_TOKEN: 'scrape-me-0123456789' } })]);
  });
  afterAll(async () => Promise.all([first.close(), second.close()]));

  it('keeps one registry per app: requests to one never show in the other', async () => {
    for (let i = 0; i < 3; i += 1) await fetch(`${first.url}/healthz`);
    const own = await (await fetch(`${first.url}/metrics`)).text();
    const other = await (await fetch(`${second.url}/metrics`, { headers: { authorization: 'Bearer scrape-me-0123456789' } })).text();
    expect(metricSum(own, 'addressd_http_requests_total', { route: '/healthz' })).toBe(3);
    expect(metricSum(other, 'addressd_http_requests_total', { route: '/healthz' })).toBe(0);
  });

  it('includes the process metrics and event-loop lag', async () => {
    const text = await (await fetch(`${first.url}/metrics`)).text();
    for (const name of ['process_cpu_user_seconds_total', 'process_resident_memory_bytes', 'nodejs_eventloop_lag_seconds', 'nodejs_heap_size_used_bytes']) {
      expect(text).toMatch(new RegExp(`^${name} `, 'm'));
    }
  });

  it('with METRICS_TOKEN, answers 401 in the contract shape without the right bearer token', async () => {
    const attempts: Record<string, string>[] = [{}, { authorization: 'Bearer wrong-token-0123456789' }, { authorization: 'Basic c2NyYXBlLW1lLTAxMjM0NTY3ODk=' }];
    for (const headers of attempts) {
      const res = await fetch(`${second.url}/metrics`, { headers });
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ message: 'Missing or wrong metrics token: send Authorization: Bearer <METRICS_TOKEN>' });
    }
    const ok = await fetch(`${second.url}/metrics`, { headers: { authorization: 'Bearer scrape-me-0123456789' } });
    expect(ok.status).toBe(200);
    expect(await ok.text()).toContain('addressd_http_requests_total');
  });
});
