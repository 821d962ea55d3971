import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowRequest } from '../../src/cli/bulk/mapping.js';
import { startTestServer, type TestServer } from '../support/server.js';

/**
 * Issue 20 §3: the answers a user gets for the usual mistakes say what to change, in the
 * contract's body shapes: `{message}` for 401/405, `{message: "Validation failed", issues}` for 400.
 */
describe('wrong input on purpose', () => {
  let server: TestServer;
  let key: string;

  beforeAll(async () => {
    server = await startTestServer();
    ({ key } = await server.createAccount());
  });
  afterAll(async () => server?.close());

  const auth = () => ({ authorization: `Bearer ${key}` });
  const providerCalls = () => Object.values(server.emulators).reduce((n, e) => n + e.requests.length, 0);

  it('a wrong method on a known path is 405 with Allow, with or without a key; an unknown path stays 404', async () => {
    const cases: [string, string, Record<string, string>, string][] = [
      ['GET', '/v1/validate', auth(), 'POST'],
      ['GET', '/v1/validate', {}, 'POST'],
      ['PUT', '/v1/validate/batch', auth(), 'POST'],
      ['DELETE', '/v1/usage', auth(), 'GET, HEAD'],
      ['POST', '/healthz', {}, 'GET, HEAD'],
      ['GET', '/v1/autocomplete', {}, 'POST'],
      ['GET', '/dashboard/keys/key_123/revoke', {}, 'POST'],
    ];
    for (const [method, path, headers, allow] of cases) {
      const res = await fetch(`${server.url}${path}`, { method, headers });
      expect(res.status, `${method} ${path}`).toBe(405);
      expect(res.headers.get('allow')).toBe(allow);
      const body = (await res.json()) as Record<string, unknown>;
      expect(Object.keys(body)).toEqual(['message']);
      expect(body.message).toBe(`Method ${method} is not allowed on ${path}: use ${allow.replace(', HEAD', '')}`);
    }
    // The right method still works, and HEAD is answered where GET is.
    expect((await fetch(`${server.url}/healthz`, { method: 'HEAD' })).status).toBe(200);
    // A CORS preflight is no wrong method.
    expect((await fetch(`${server.url}/v1/validate`, { method: 'OPTIONS', headers: { origin: 'https://a.example', 'access-control-request-method': 'POST' } })).status).toBe(204);
    const missing = await fetch(`${server.url}/v1/nothing-here`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ message: 'Not found' });
  });

  it('a query of spaces only is 400 with the issue at `query`, for validate and autocomplete; nothing is looked up', async () => {
    const before = providerCalls();
    for (const [path, body] of [
      ['/v1/validate', { query: '   ', country: 'NL' }],
      ['/v1/autocomplete', { query: ' \t ' }],
    ] as const) {
      const res = await server.post(path, body, auth());
      expect(res.status, path).toBe(400);
      expect(await res.json()).toEqual({
        message: 'Validation failed',
        issues: [{ code: 'custom', path: ['query'], message: 'Contains only whitespace: send the address to look up' }],
      });
    }
    expect(providerCalls()).toBe(before);
    // The CLI reads its rows through the same schema: a blank address is refused there too, not looked up.
    expect(rowRequest(['address'], ['   '], { query: 'address' })).toEqual({ ok: false, error: 'no address in this row' });
  });

  it('a country name where the code belongs says an ISO 3166-1 alpha-2 code is expected and suggests it', async () => {
    const res = await server.post('/v1/validate', { query: 'Damrak 1, Amsterdam', country: 'Netherlands' }, auth());
    expect(res.status).toBe(400);
    const body = (await res.json()) as { message: string; issues: { code: string; path: string[]; message: string }[] };
    expect(body.message).toBe('Validation failed');
    expect(body.issues).toEqual([
      expect.objectContaining({ code: 'too_big', path: ['country'], message: 'Expected an ISO 3166-1 alpha-2 country code (two letters, such as "NL"): for "Netherlands" send "NL"' }),
    ]);
    const unknown = await server.post('/v1/autocomplete', { query: 'Damrak', country: 'Atlantis' }, auth());
    expect(((await unknown.json()) as typeof body).issues[0]?.message).toBe('Expected an ISO 3166-1 alpha-2 country code (two letters, such as "NL")');
  });

  it('a key sent without "Bearer " is told how the header must look; no header at all is "missing"', async () => {
    for (const header of [key, `Token ${key}`, 'Bearer']) {
      const res = await server.post('/v1/validate', { query: 'Damrak 1, Amsterdam' }, { authorization: header });
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ message: 'Send the key as Authorization: Bearer <API_KEY> (the word Bearer, a space, then the key)' });
    }
    const none = await server.post('/v1/validate', { query: 'Damrak 1, Amsterdam' });
    expect(await none.json()).toEqual({ message: 'Missing API key: send Authorization: Bearer <API_KEY>' });
  });
});
