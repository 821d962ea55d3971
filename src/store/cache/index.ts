import type { Clock } from '../../lib/clock.js';
import { connectRedis, type StoreErrorHandler } from './connect-redis.js';
import { MemoryResponseCache } from './memory-cache.js';
import { NearCache } from './near-cache.js';
import { RedisResponseCache } from './redis-cache.js';
import type { ResponseCache } from './response-cache.js';

export type { ResponseCache } from './response-cache.js';
export type { StoreErrorHandler } from './connect-redis.js';
export { MemoryResponseCache, type MemoryResponseCacheOptions } from './memory-cache.js';
export { RedisResponseCache, type RedisResponseCacheOptions } from './redis-cache.js';
export { NearCache, type NearCacheOptions } from './near-cache.js';

export interface CreateResponseCacheOptions {
  /** Set (from REDIS_URL): the cache lives in Redis, shared by every instance. */
  redisUrl?: string | undefined;
  /** Redis key prefix per deployment; default `addressd:`. */
  keyPrefix?: string | undefined;
  /** In-process only: entries held at once (default 10 000). */
  maxEntries?: number | undefined;
  /** In-process only: approximate bound on JSON held (default 64 MiB). */
  maxSizeBytes?: number | undefined;
  /** In-process entries' TTL clock, the near cache's too (default the system clock). */
  clock?: Clock | undefined;
  /**
   * Redis only: how long an entry read or written is also answered from memory (CACHE_NEAR_MS,
   * near-cache.ts); 0 or unset reads Redis every time.
   */
  nearTtlMs?: number | undefined;
  /** Redis errors the cache swallowed (a miss, a skipped write, a reconnect attempt): log them. */
  onError?: StoreErrorHandler | undefined;
}

/**
 * The response cache for main.ts. With a Redis URL it connects first and rejects when Redis is
 * unreachable (fail fast at start-up); once running, Redis errors only degrade to misses.
 */
export async function createResponseCache(options: CreateResponseCacheOptions = {}): Promise<ResponseCache> {
  if (!options.redisUrl) {
    return new MemoryResponseCache({
      ...(options.maxEntries !== undefined && { maxEntries: options.maxEntries }),
      ...(options.maxSizeBytes !== undefined && { maxSizeBytes: options.maxSizeBytes }),
      ...(options.clock !== undefined && { clock: options.clock }),
    });
  }
  // Short command timeout: waiting longer than a provider call would defeat the cache.
  const client = await connectRedis(options.redisUrl, {
    purpose: 'response cache',
    onError: options.onError,
    commandTimeoutMs: 1000,
  });
  const shared = new RedisResponseCache(client, {
    ...(options.keyPrefix !== undefined && { keyPrefix: options.keyPrefix }),
    ...(options.onError !== undefined && { onError: options.onError }),
  });
  if (!options.nearTtlMs || options.nearTtlMs <= 0) return shared;
  return new NearCache(shared, { ttlMs: options.nearTtlMs, ...(options.clock !== undefined && { clock: options.clock }) });
}
