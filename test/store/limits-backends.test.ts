import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { deleteRedisKeys } from '../support/redis-keys.js';
import { ManualClock } from '../../src/lib/clock.js';
import {
  createRateLimiter,
  MemoryRateLimiter,
  RedisRateLimiter,
  type LimitWindow,
} from '../../src/store/limits/index.js';
import { connectRedis } from '../../src/store/cache/connect-redis.js';

const REDIS_URL = 'redis://127.0.0.1:6379';
const RUN_PREFIX = `test:limits-b:${process.pid}:${randomUUID()}:`;
const FIVE_MINUTE: LimitWindow = { name: 'five_minute', max: 10, periodSeconds: 300 };

afterAll(() => deleteRedisKeys(REDIS_URL, RUN_PREFIX));

describe('redis rate limiter', () => {
  it('admits exactly max of 50 parallel hits from two instances', async () => {
    // Two clients, as two service instances behind a load balancer would have.
    const one = new RedisRateLimiter(await connectRedis(REDIS_URL, { purpose: 'test' }), { keyPrefix: RUN_PREFIX });
    const two = new RedisRateLimiter(await connectRedis(REDIS_URL, { purpose: 'test' }), { keyPrefix: RUN_PREFIX });
    try {
      const now = new ManualClock().now();
      const key = `ip-${randomUUID()}`;
      const results = await Promise.all(
        Array.from({ length: 50 }, (_, i) => (i % 2 === 0 ? one : two).hit(key, [FIVE_MINUTE], now)),
      );
      expect(results.filter((r) => r.allowed)).toHaveLength(10);
      for (const refused of results.filter((r) => !r.allowed)) {
        expect(refused.exhausted).toEqual([{ ...FIVE_MINUTE, retryAfterSeconds: 300 }]);
      }
    } finally {
      await Promise.all([one.close(), two.close()]);
    }
  });

  it('expires a key once its newest hit has left the longest window', async () => {
    const limiter = (await createRateLimiter({ redisUrl: REDIS_URL, keyPrefix: RUN_PREFIX })) as RedisRateLimiter;
    const admin = new Redis(REDIS_URL);
    try {
      const key = `ip-${randomUUID()}`;
      const windows: LimitWindow[] = [FIVE_MINUTE, { name: 'daily', max: 20, periodSeconds: 86_400 }];
      await limiter.hit(key, windows, Date.now());
      const ttl = await admin.pttl(limiter.redisKey(key));
      expect(ttl).toBeGreaterThan(86_300_000);
      expect(ttl).toBeLessThanOrEqual(86_400_000);
      expect(await admin.zcard(limiter.redisKey(key))).toBe(1);
    } finally {
      await Promise.all([limiter.close(), admin.quit()]);
    }
  });

  it('fails closed: a Redis error rejects the hit instead of allowing it', async () => {
    const dead = new Redis('redis://127.0.0.1:1', { lazyConnect: true, enableOfflineQueue: false, retryStrategy: () => null });
    const limiter = new RedisRateLimiter(dead, { keyPrefix: RUN_PREFIX });
    await expect(limiter.hit('ip', [FIVE_MINUTE], Date.now())).rejects.toThrow();
    await limiter.close();
  });
});

describe('memory rate limiter', () => {
  it('drops a key once all its hits have left the longest window', async () => {
    const limiter = new MemoryRateLimiter();
    const clock = new ManualClock();
    const windows: LimitWindow[] = [{ name: 'minute', max: 1, periodSeconds: 60 }];
    await limiter.hit('idle', windows, clock.now());
    clock.advance(30_000);
    await limiter.hit('busy', windows, clock.now());
    expect(limiter.trackedKeys).toBe(2);
    clock.advance(30_001);
    await limiter.hit('other', [{ name: 'hour', max: 5, periodSeconds: 3600 }], clock.now());
    expect(limiter.trackedKeys).toBe(2); // `idle` is gone, `busy` and `other` remain
    expect((await limiter.hit('idle', windows, clock.now())).allowed).toBe(true);
  });

  it('tracks at most maxKeys keys', async () => {
    const limiter = new MemoryRateLimiter({ maxKeys: 100 });
    const now = new ManualClock().now();
    for (let i = 0; i < 1000; i++) await limiter.hit(`ip-${i}`, [FIVE_MINUTE], now);
    expect(limiter.trackedKeys).toBe(100);
  });

  it('keeps a full monthly log (200 hits) within its hit budget', async () => {
    const limiter = new MemoryRateLimiter({ maxKeys: 10, maxHits: 250 });
    const clock = new ManualClock();
    const monthly: LimitWindow = { name: 'monthly', max: 200, periodSeconds: 2_592_000 };
    let allowed = 0;
    for (let i = 0; i < 400; i++) {
      if ((await limiter.hit('ip', [monthly], clock.now())).allowed) allowed++;
      clock.advance(1000);
    }
    // Were the log dropped for size, the key would start over and admit more than 200.
    expect(allowed).toBe(200);
    expect(limiter.trackedKeys).toBe(1);
  });
});

describe('createRateLimiter', () => {
  it('is in-process without a Redis URL', async () => {
    const limiter = await createRateLimiter();
    expect(limiter).toBeInstanceOf(MemoryRateLimiter);
    await limiter.close();
  });

  it('refuses to start when Redis is configured but unreachable', async () => {
    await expect(createRateLimiter({ redisUrl: 'redis://127.0.0.1:1' })).rejects.toThrow(
      /^rate limiter: Redis at redis:\/\/127\.0\.0\.1:1 is unreachable \(.*ECONNREFUSED.*\); start Redis or fix REDIS_URL$/,
    );
  });
});
