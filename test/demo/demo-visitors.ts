import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { cacheKey } from '../../src/engine/cache-key.js';
import { RedisResponseCache } from '../../src/store/cache/redis-cache.js';
import { RedisRateLimiter } from '../../src/store/limits/redis-limiter.js';
import { demoLimitKey } from '../../src/demo/windows.js';
import { REDIS_URL } from '../support/backends.js';
import type { TestServer } from '../support/server.js';

/**
 * Visitors of the demo on a test server with TRUST_PROXY, told apart by X-Forwarded-For. Each run
 * uses fresh IPs and fresh query texts, so suites sharing one Redis never see each other's logs or
 * cache entries; cleanup() deletes what this run wrote to Redis.
 */
export class DemoVisitors {
  private readonly run = randomBytes(4).toString('hex');
  private readonly ips = new Set<string>();
  private readonly queries = new Set<string>();
  private misses = 0;

  constructor(private readonly server: TestServer) {}

  /** A fresh IP from the benchmarking range 198.18.0.0/15, unique to this run. */
  newIp(): string {
    const b = randomBytes(3);
    const ip = `198.${18 + (b[0]! % 2)}.${b[1]}.${b[2]}`;
    this.ips.add(ip);
    return ip;
  }

  /** A query no cache has seen: the engine must look it up, so it costs allowance. */
  freshQuery(): string {
    const query = `Proefstraat ${++this.misses}, Testdorp ${this.run}`;
    this.queries.add(query);
    return query;
  }

  ask(query: string, ip: string): Promise<Response> {
    this.queries.add(query);
    return this.server.post('/demo/validate', { query }, { 'x-forwarded-for': ip });
  }

  /** `n` uncached lookups from `ip`; each must be answered. */
  async spend(ip: string, n: number): Promise<void> {
    for (let i = 0; i < n; i++) {
      const res = await this.ask(this.freshQuery(), ip);
      if (res.status !== 200) throw new Error(`lookup ${i + 1} of ${n} from ${ip}: ${res.status} ${await res.text()}`);
      await res.arrayBuffer();
    }
  }

  async cleanup(): Promise<void> {
    const { limiter, cache, runner } = this.server.services;
    const keys: string[] = [];
    if (limiter instanceof RedisRateLimiter) for (const ip of this.ips) keys.push(limiter.redisKey(demoLimitKey(ip)));
    if (cache instanceof RedisResponseCache) {
      for (const query of this.queries) {
        keys.push(cache.redisKey(cacheKey('validate', { query, country: 'NL', providers: runner.active() })));
      }
    }
    if (keys.length === 0) return;
    const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
    try {
      await redis.connect();
      await redis.del(...keys);
    } finally {
      redis.disconnect();
    }
  }
}
