import type { ResponseCache } from '../store/cache/response-cache.js';

/**
 * Keeps an answer in the cache without the answer waiting for it (a Redis round trip saved on
 * every uncached call). Order still holds: the in-process copy is written at once, and a later
 * read on the same Redis connection comes after the write. Every cache reports and swallows its
 * own failures (counted, logged by the service); this only keeps one that escaped from becoming
 * an unhandled rejection.
 */
export function cacheLater<T>(cache: ResponseCache, key: string, value: T, ttlMs: number): void {
  cache.set(key, value, ttlMs).catch(() => undefined);
}
