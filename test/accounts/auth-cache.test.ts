import { once } from 'node:events';
import { EventEmitter } from 'node:events';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PublishableTokenStore } from '../../src/accounts/publishable-tokens.js';
import { SecretKeyStore } from '../../src/accounts/secret-keys.js';
import { ManualClock } from '../../src/lib/clock.js';
import { parseMasterKey, Sealer } from '../../src/lib/seal.js';
import type { Change } from '../../src/store/changes/index.js';
import { startTestServer, type TestServer } from '../support/server.js';

const AUTH_CACHE_MS = 5000;
const body = { query: 'Damrak 1', country: 'NL', limit: 3 };
const SHOP = 'https://shop.example';

/** A store on the same database that tells nobody: a revocation by another process without Redis (the CLI). */
function quietStores(server: TestServer) {
  const sealer = new Sealer(parseMasterKey(server.sandbox.env.MASTER_KEY!));
  const db = server.services.database.db;
  return { keys: new SecretKeyStore(db, sealer, server.services.clock), tokens: new PublishableTokenStore(db, sealer, server.services.clock) };
}

/** Resolves when `server` has heard the next change on its feed (after its own caches did). */
function nextChange(server: TestServer): Promise<Change> {
  const heard = new EventEmitter();
  const unsubscribe = server.services.changes.subscribe((change) => heard.emit('change', change));
  return once(heard, 'change').then(([change]) => {
    unsubscribe();
    return change as Change;
  });
}

describe.each(['sqlite', 'postgres'] as const)('credentials cached for AUTH_CACHE_MS on %s, one instance', (backend) => {
  let server: TestServer;
  const clock = new ManualClock(Date.now());
  beforeAll(async () => {
    server = await startTestServer({ backend, clock, env: { AUTH_CACHE_MS: String(AUTH_CACHE_MS) } });
  });
  afterAll(async () => server.close());

  const autocomplete = (key: string) => server.post('/v1/autocomplete', body, { authorization: `Bearer ${key}` });
  const widget = (token: string) => server.post('/v1/widget/autocomplete', body, { authorization: `Bearer ${token}`, origin: SHOP });

  it('a key revoked through this instance stops working on the next request', async () => {
    const { key, keyId } = await server.createAccount();
    expect((await autocomplete(key)).status).toBe(200);
    await server.services.secretKeys.revoke(keyId);
    expect((await autocomplete(key)).status).toBe(401);
  });

  it('a key revoked where the change feed does not reach stops working once AUTH_CACHE_MS has passed', async () => {
    const { key, keyId } = await server.createAccount();
    expect((await autocomplete(key)).status).toBe(200);
    await quietStores(server).keys.revoke(keyId);
    // Within the bound the cached verification still stands: that is what the cache buys.
    clock.advance(AUTH_CACHE_MS);
    expect((await autocomplete(key)).status).toBe(200);
    clock.advance(1);
    expect((await autocomplete(key)).status).toBe(401);
  });

  it('requests that arrive together once the entry expired share one database look-up', async () => {
    const { key } = await server.createAccount();
    expect((await autocomplete(key)).status).toBe(200);
    clock.advance(AUTH_CACHE_MS + 1);
    const verify = vi.spyOn(server.services.secretKeys, 'verify');
    try {
      const checks = await Promise.all(Array.from({ length: 8 }, () => server.services.auth.secretKey(key)));
      expect(checks.every((c) => c.ok)).toBe(true);
      expect(verify).toHaveBeenCalledTimes(1);
      // Kept: the next request asks nobody.
      expect((await server.services.auth.secretKey(key)).ok).toBe(true);
      expect(verify).toHaveBeenCalledTimes(1);
    } finally {
      verify.mockRestore();
    }
  });

  it('a widget token revoked or narrowed through this instance is refused at once; elsewhere within the bound', async () => {
    const { accountId } = await server.createAccount();
    const revoked = await server.createToken(accountId, [SHOP]);
    expect((await widget(revoked.token)).status).toBe(200);
    await server.services.tokens.revoke(revoked.tokenId);
    expect((await widget(revoked.token)).status).toBe(401);

    const narrowed = await server.createToken(accountId, [SHOP]);
    expect((await widget(narrowed.token)).status).toBe(200);
    await quietStores(server).tokens.setOrigins(narrowed.tokenId, ['https://other.example']);
    clock.advance(AUTH_CACHE_MS + 1);
    expect((await widget(narrowed.token)).status).toBe(401);
  });
});

describe('AUTH_CACHE_MS=0', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { AUTH_CACHE_MS: '0' } });
  });
  afterAll(async () => server.close());

  it('asks the database every time: an out-of-band revocation applies to the next request', async () => {
    const { key, keyId } = await server.createAccount();
    expect((await server.post('/v1/autocomplete', body, { authorization: `Bearer ${key}` })).status).toBe(200);
    await quietStores(server).keys.revoke(keyId);
    expect((await server.post('/v1/autocomplete', body, { authorization: `Bearer ${key}` })).status).toBe(401);
  });
});

describe('credentials across two instances on PostgreSQL + Redis', () => {
  let a: TestServer;
  let b: TestServer;
  beforeAll(async () => {
    // A five-minute cache: only the change feed can make these revocations take effect in the test.
    const env = { AUTH_CACHE_MS: '300000' };
    a = await startTestServer({ backend: 'postgres', redis: true, env });
    b = await startTestServer({ backend: 'postgres', redis: true, env, sandbox: a.sandbox });
  });
  afterAll(async () => {
    await b.close();
    await a.close();
  });

  it('a key revoked on one instance is refused by the other once the change arrives over Redis', async () => {
    const { key, keyId } = await a.createAccount();
    const auth = { authorization: `Bearer ${key}` };
    expect((await a.post('/v1/autocomplete', body, auth)).status).toBe(200);
    expect((await b.post('/v1/autocomplete', body, auth)).status).toBe(200);
    const heard = nextChange(a);
    await b.services.secretKeys.revoke(keyId);
    expect(await heard).toMatchObject({ topic: 'credentials' });
    expect((await a.post('/v1/autocomplete', body, auth)).status).toBe(401);
    expect((await b.post('/v1/autocomplete', body, auth)).status).toBe(401);
  });

  it('a widget token revoked on one instance is refused by the other, preflight included', async () => {
    const { accountId } = await a.createAccount();
    const { token, tokenId } = await a.createToken(accountId, ['https://only-here.example']);
    const headers = { authorization: `Bearer ${token}`, origin: 'https://only-here.example' };
    const preflight = () =>
      fetch(`${a.url}/v1/widget/autocomplete`, { method: 'OPTIONS', headers: { origin: 'https://only-here.example', 'access-control-request-method': 'POST' } });
    expect((await a.post('/v1/widget/autocomplete', body, headers)).status).toBe(200);
    expect((await preflight()).status).toBe(204);
    const heard = nextChange(a);
    await b.services.tokens.revoke(tokenId);
    await heard;
    expect((await a.post('/v1/widget/autocomplete', body, headers)).status).toBe(401);
    expect((await preflight()).status).toBe(403);
  });
});
