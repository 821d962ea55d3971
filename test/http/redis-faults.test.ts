import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedisProcess, type RedisProcess } from '../support/redis-process.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { waitFor } from '../support/wait-for.js';

/**
 * A Redis of the test's own, stopped and started under a running server: the cache degrades to
 * a miss (the call is still answered and billed), every limiter fails closed with 503 and
 * Retry-After, nothing ends the process, and all of it comes back when Redis does.
 */
const ORIGIN = 'https://shop.example';
const ADDRESS = { query: 'Damrak 1, 1012 LG Amsterdam', country: 'NL' };

describe('Redis stopped and started under a running server', () => {
  let redis: RedisProcess;
  let server: TestServer;
  let live: string;
  let test: string;
  let token: string;

  beforeAll(async () => {
    redis = await startRedisProcess();
    server = await startTestServer({ env: { REDIS_URL: redis.url, REDIS_PREFIX: 'faults:' } });
    const account = await server.createAccount({ plan: 'growth' });
    live = account.key;
    test = (await server.createAccount({ plan: 'growth', env: 'test' })).key;
    ({ token } = await server.createToken(account.accountId, [ORIGIN]));
  });
  afterAll(async () => {
    await server.close();
    await redis.stop();
  });

  const validate = (key: string) => server.post('/v1/validate', ADDRESS, { authorization: `Bearer ${key}` });
  const widget = () => server.post('/v1/widget/autocomplete', { query: 'Damrak' }, { authorization: `Bearer ${token}`, origin: ORIGIN });

  it('serves from the cache while Redis is up', async () => {
    expect((await validate(live)).status).toBe(200);
    expect(((await (await validate(live)).json()) as { cached: boolean }).cached).toBe(true);
  });

  it('misses the cache, fails limits closed with 503, and stays up while Redis is down', async () => {
    await redis.stop();
    const res = await validate(live);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { cached: boolean }).cached).toBe(false);

    for (const limited of [await validate(test), await widget()]) {
      expect(limited.status).toBe(503);
      expect(limited.headers.get('retry-after')).toBe('5');
      expect(await limited.json()).toEqual({ message: 'Service temporarily unavailable: try again shortly' });
    }
  });

  it('recovers by itself when Redis is back', async () => {
    await redis.start();
    // ioredis reconnects in the background, with a back-off of up to 2 s.
    await waitFor(async () => (await widget()).status === 200, 'the limiter to reconnect');
    expect((await validate(test)).status).toBe(200);
    expect((await validate(live)).status).toBe(200);
    expect(((await (await validate(live)).json()) as { cached: boolean }).cached).toBe(true);
  });
});
