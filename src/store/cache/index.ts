import type { Clock } from '../../lib/clock.js';
import { connectRedis, type StoreErrorHandler } from './connect-redis.js';
import { MemoryResponseCache } from './memory-cache.js';
import { RedisResponseCache } from './redis-cache.js';
import type { ResponseCache } from './response-cache.js';

export type { ResponseCache } from './response-cache.js';
export type { StoreErrorHandler } from './connect-redis.js';
export { MemoryResponseCache, type MemoryResponseCacheOptions } from './memory-cache.js';
export { RedisResponseCache, type RedisResponseCacheOptions } from './redis-cache.js';

export interface CreateResponseCacheOptions {
  /** Set (from REDIS_URL): the cache lives in Redis, shared by every instance. */
  redisUrl?: string | undefined;
  /** Redis key prefix per deployment; default `addressd:`. */
  keyPrefix?: string | undefined;
  /** In-process only: entries held at once (default 10 000). */
  maxEntries?: number | undefined;
  /** In-process only: approximate bound on JSON held (default 64 MiB). */
  maxSizeBytes?: number | undefined;
  /** In-process only: TTL clock (default the system clock). */
  clock?: Clock | undefined;
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
  return new RedisResponseCache(client, {
    ...(options.keyPrefix !== undefined && { keyPrefix: options.keyPrefix }),
    ...(options.onError !== undefined && { onError: options.onError }),
  });
}
