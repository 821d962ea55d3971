import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ValidateResponse } from '../../src/contract/validate.js';
import { ManualClock } from '../../src/lib/clock.js';
import { REDIS_URL } from '../support/backends.js';
import { startTestServer, type TestServer } from '../support/server.js';

/**
 * DESIGN §1 scale-out: two identical instances on one PostgreSQL and one Redis share credits,
 * limits and the response cache exactly.
 */
describe('two instances on PostgreSQL + Redis', () => {
  let a: TestServer;
  let b: TestServer;
  const clock = new ManualClock(Date.now());

  beforeAll(async () => {
    a = await startTestServer({ backend: 'postgres', redis: true, clock });
    b = await startTestServer({ backend: 'postgres', redis: true, clock, sandbox: a.sandbox });
  });
  afterAll(async () => {
    await b.close();
    await a.close();
  });

  it('a key created on one instance works on the other, and the cache is shared', async () => {
    const { key, accountId } = await a.createAccount({ plan: 'starter' });
    const body = { query: 'Domkloster 4, 50667 Köln', country: 'DE' };
    const first = await a.post('/v1/validate', body, { authorization: `Bearer ${key}` });
    expect(first.status).toBe(200);
    expect(((await first.json()) as ValidateResponse).cached).toBe(false);
    const second = await b.post('/v1/validate', body, { authorization: `Bearer ${key}` });
    expect(((await second.json()) as ValidateResponse).cached).toBe(true);
    // One balance for both instances: photon and nominatim cover DE (pdok does not), billed once.
    expect((await b.services.ledger.balance(accountId)).usedThisMonth).toBe(2);
    const redis = new Redis(REDIS_URL);
    const keys = await redis.keys(`test:${a.sandbox.id}:cache:*`);
    redis.disconnect();
    expect(keys.length).toBeGreaterThan(0);
  });

  it('the test-key limit counts requests on both instances together', async () => {
    const { key } = await a.createAccount({ plan: 'growth', env: 'test' });
    const auth = { authorization: `Bearer ${key}` };
    for (let i = 0; i < 60; i += 1) {
      const server = i % 2 === 0 ? a : b;
      expect((await server.post('/v1/validate', { query: 'Domkloster 4, 50667 Köln', country: 'DE' }, auth)).status).toBe(200);
    }
    expect((await a.post('/v1/validate', { query: 'Domkloster 4, 50667 Köln', country: 'DE' }, auth)).status).toBe(429);
    expect((await b.post('/v1/validate', { query: 'Domkloster 4, 50667 Köln', country: 'DE' }, auth)).status).toBe(429);
  });

  it('credits are never overspent across instances', async () => {
    const { key, accountId } = await a.createAccount({ plan: 'free' });
    const reservation = await a.services.ledger.reserve(accountId, 490);
    await a.services.ledger.settle(reservation!, 490, {
      accountId, credentialId: 'seed', env: 'live', endpoint: '/v1/validate', verdict: null, provider: null, latencyMs: 0, cached: false, query: null, source: null,
    });
    const auth = { authorization: `Bearer ${key}` };
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).post('/v1/validate', { query: `Marienplatz 8, 80331 München ${i}`, country: 'DE' }, auth)),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.every((s) => s === 200 || s === 429)).toBe(true);
    const balance = await a.services.ledger.balance(accountId);
    expect(balance.usedThisMonth).toBe(500);
    expect(balance.available).toBe(0);
  });
});
