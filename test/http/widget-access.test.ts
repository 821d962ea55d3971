import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../../src/lib/clock.js';
import { STORAGE_BACKENDS } from '../support/backends.js';
import { startTestServer, type TestServer } from '../support/server.js';

/**
 * `GET /widget/v1/access` needs no credential (issue 20): a malformed token is refused before any
 * cache or look-up (the cache once held up to 16 KB of whatever was sent, per probe), and probes
 * are limited per visitor address, on SQLite with in-process limits and PostgreSQL with Redis.
 */
const ORIGIN = 'https://shop.example';

describe.each(STORAGE_BACKENDS)('widget access probe on %s', (backend) => {
  let server: TestServer;
  let token: string;
  const clock = new ManualClock(Date.now());

  beforeAll(async () => {
    server = await startTestServer({ backend, redis: backend === 'postgres', clock, env: { TRUST_PROXY: 'true' } });
    const { accountId } = await server.createAccount();
    ({ token } = await server.createToken(accountId, [ORIGIN]));
  });
  afterAll(async () => server?.close());

  const probe = (t: string, ip: string, origin = ORIGIN) =>
    fetch(`${server.url}/widget/v1/access?token=${encodeURIComponent(t)}`, { headers: { origin, 'x-forwarded-for': ip } });

  it('refuses a malformed token without looking it up; a real one is looked up once, then cached', async () => {
    const lookups = vi.spyOn(server.services.auth, 'widgetToken');
    try {
      for (const junk of ['x'.repeat(16_000), `${token}x`, `${token.slice(0, -1)}\u0000`, token.toUpperCase()]) {
        const res = await probe(junk, '203.0.113.1');
        expect(res.status).toBe(200);
        expect(await res.json()).toEqual({ allowed: false });
      }
      expect(lookups).not.toHaveBeenCalled();
      for (let i = 0; i < 3; i++) expect(await (await probe(token, '203.0.113.1')).json()).toEqual({ allowed: true });
      expect(await (await probe(token, '203.0.113.1', 'https://evil.example')).json()).toEqual({ allowed: false });
      expect(lookups).toHaveBeenCalledTimes(2);
    } finally {
      lookups.mockRestore();
    }
  });

  it('answers 429 with Retry-After past 60 probes a minute from one address, readable from any page; other addresses go on', async () => {
    clock.advance(120_000);
    for (let i = 0; i < 60; i++) expect((await probe(token, '198.51.100.7')).status).toBe(200);
    const refused = await probe(token, '198.51.100.7');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('access-control-allow-origin')).toBe('*');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await refused.json()).toEqual({ message: 'Too many widget access checks from this address: try again in a minute' });
    expect(await (await probe(token, '198.51.100.8')).json()).toEqual({ allowed: true });
    clock.advance(61_000);
    expect((await probe(token, '198.51.100.7')).status).toBe(200);
  });
});
