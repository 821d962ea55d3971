import { connectRedis, type StoreErrorHandler } from '../cache/connect-redis.js';
import { MemoryRateLimiter } from './memory-limiter.js';
import type { RateLimiter } from './rate-limiter.js';
import { RedisRateLimiter } from './redis-limiter.js';

export type { ExhaustedWindow, LimitResult, LimitWindow, RateLimiter } from './rate-limiter.js';
export { MemoryRateLimiter, type MemoryRateLimiterOptions } from './memory-limiter.js';
export { RedisRateLimiter, type RedisRateLimiterOptions } from './redis-limiter.js';

export interface CreateRateLimiterOptions {
  /** Set (from REDIS_URL): every instance shares the same logs in Redis. */
  redisUrl?: string | undefined;
  /** Redis key prefix per deployment; default `addressd:`. */
  keyPrefix?: string | undefined;
  /** In-process only: keys tracked at once (default 100 000). */
  maxKeys?: number | undefined;
  /** Redis connection errors (reconnect attempts); failed hits reject instead. */
  onError?: StoreErrorHandler | undefined;
}

/**
 * The rate limiter for main.ts. With a Redis URL it connects first and rejects when Redis is
 * unreachable: a limiter must never start up silently allowing everything.
 *
 * Failure policy while running: fail closed. `hit()` rejects on a Redis error and the route
 * answers 503; no demo, widget or test-key request is served uncounted. The response cache,
 * by contrast, degrades to a miss (see createResponseCache).
 */
export async function createRateLimiter(options: CreateRateLimiterOptions = {}): Promise<RateLimiter> {
  if (!options.redisUrl) {
    return new MemoryRateLimiter(options.maxKeys !== undefined ? { maxKeys: options.maxKeys } : {});
  }
  const client = await connectRedis(options.redisUrl, {
    purpose: 'rate limiter',
    onError: options.onError,
    commandTimeoutMs: 2000,
  });
  return new RedisRateLimiter(client, options.keyPrefix !== undefined ? { keyPrefix: options.keyPrefix } : {});
}
