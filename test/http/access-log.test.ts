import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureLogs, LEVEL, type LogLine } from '../support/log-capture.js';
import { startTestServer, type TestServer } from '../support/server.js';

const ORIGIN = 'https://shop.example';

/** One structured line per request; request ids in and out; no credential ever in a log line. */
describe('access log and X-Request-Id', () => {
  let server: TestServer;
  let logs: ReturnType<typeof captureLogs>;
  let key: string;
  let accountId: string;
  let token: string;

  beforeAll(async () => {
    logs = captureLogs();
    server = await startTestServer({ logger: logs.logger, env: { PROVIDER_TIMEOUT_MS: '5000' } });
    ({ key, accountId } = await server.createAccount({ plan: 'starter' }));
    ({ token } = await server.createToken(accountId, [ORIGIN]));
  });
  afterAll(async () => server.close());

  const requestLines = (reqId: string): LogLine[] => logs.lines.filter((l) => l.reqId === reqId && l.msg === 'request');

  it('writes one line per request with method, route pattern, status, latency and account; echoes the caller\'s request id', async () => {
    const res = await server.post('/v1/validate', { query: 'Damrak 1, 1012 LG Amsterdam', country: 'NL' }, { authorization: `Bearer ${key}`, 'x-request-id': 'lb-7f3a:01.abc_DEF' });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toBe('lb-7f3a:01.abc_DEF');
    const lines = requestLines('lb-7f3a:01.abc_DEF');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: LEVEL.info, method: 'POST', route: '/v1/validate', status: 200, accountId });
    expect(typeof lines[0]?.ms).toBe('number');
  });

  it('generates an id when none or an unsafe one is sent, and answers with it', async () => {
    for (const sent of [undefined, '', 'x'.repeat(65), 'has space', 'caf\u00e9', '"quoted"', '<script>']) {
      const res = await fetch(`${server.url}/healthz`, { headers: sent === undefined ? {} : { 'x-request-id': sent } });
      const id = res.headers.get('x-request-id') ?? '';
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      expect(requestLines(id)).toEqual([expect.objectContaining({ route: '/healthz', status: 200 })]);
    }
  });

  it('logs refusals and errors too: 401, 404, 413 and malformed JSON each get their line and id', async () => {
    const cases: [string, RequestInit, number, string][] = [
      ['/v1/validate', { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } }, 401, '/v1/validate'],
      ['/nowhere', {}, 404, 'unmatched'],
      ['/v1/validate', { method: 'POST', body: 'x'.repeat(70_000), headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` } }, 413, '/v1/validate'],
      ['/v1/validate', { method: 'POST', body: '{"query":', headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` } }, 400, '/v1/validate'],
    ];
    for (const [path, init, status, route] of cases) {
      const res = await fetch(`${server.url}${path}`, init);
      expect(res.status).toBe(status);
      const id = res.headers.get('x-request-id') ?? '';
      expect(requestLines(id)).toEqual([expect.objectContaining({ status, route })]);
    }
  });

  it('names the account of a widget call', async () => {
    const res = await server.post('/v1/widget/autocomplete', { query: 'Damrak', country: 'NL' }, { authorization: `Bearer ${token}`, origin: ORIGIN });
    expect(res.status).toBe(200);
    expect(requestLines(res.headers.get('x-request-id') ?? '')).toEqual([expect.objectContaining({ route: '/v1/widget/autocomplete', accountId })]);
  });

  it('tags provider warnings with the request id of the call that saw them', async () => {
    server.emulators.photon.setFault({ mode: 'status', status: 503 });
    try {
      const res = await server.post('/v1/validate', { query: 'Damrak 70, 1012 LM Amsterdam', country: 'NL' }, { authorization: `Bearer ${key}`, 'x-request-id': 'req-provider-warn' });
      expect(res.status).toBe(200);
    } finally {
      server.emulators.photon.setFault({ mode: 'none' });
    }
    expect(logs.lines.filter((l) => l.reqId === 'req-provider-warn' && l.level === LEVEL.warn)).toEqual([
      expect.objectContaining({ provider: 'photon', status: 'error', cause: '503' }),
    ]);
  });

  it('tags a widget call\'s provider warnings with its request id too', async () => {
    server.emulators.photon.setFault({ mode: 'status', status: 500 });
    try {
      const res = await server.post(
        '/v1/widget/autocomplete',
        { query: 'Keizersgracht 1', country: 'NL' },
        { authorization: `Bearer ${token}`, origin: ORIGIN, 'x-request-id': 'req-widget-warn' },
      );
      expect(res.status).toBe(200);
    } finally {
      server.emulators.photon.setFault({ mode: 'none' });
    }
    expect(logs.lines.filter((l) => l.reqId === 'req-widget-warn' && l.level === LEVEL.warn)).toEqual([
      expect.objectContaining({ provider: 'photon', kind: 'autocomplete', status: 'error', cause: '500' }),
    ]);
  });

  it('never writes a key, token or Authorization value, whatever the request', async () => {
    const garbage = 'ak_live_not-a-real-key-but-secret-looking-0000000';
    await server.post('/v1/validate', { query: 'Damrak 1' }, { authorization: `Bearer ${garbage}` });
    await server.post('/v1/validate', { query: `Damrak 1 ${key}` }, { authorization: `Bearer ${key}` });
    await fetch(`${server.url}/v1/usage?source=${encodeURIComponent(key)}`, { headers: { authorization: `Bearer ${key}` } });
    await fetch(`${server.url}/widget/v1/access?token=${encodeURIComponent(token)}`, { headers: { origin: ORIGIN } });
    await server.post('/v1/widget/autocomplete', { query: 'Damrak' }, { authorization: `Bearer ${token}`, origin: ORIGIN });
    await server.post('/v1/widget/autocomplete', { query: 'Damrak' }, { authorization: `Bearer ${key}`, origin: ORIGIN });
    const text = logs.raw.join('');
    expect(text.length).toBeGreaterThan(0);
    for (const secret of [key, token, garbage, 'Bearer', key.slice(8)]) expect(text).not.toContain(secret);
  });
});
