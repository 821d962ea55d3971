import type { Redis } from 'ioredis';
import type { CacheText, ResponseCache } from './response-cache.js';
import { closeRedis, safeReport, type StoreErrorHandler } from './connect-redis.js';

export interface RedisResponseCacheOptions {
  /** Prefix so several deployments can share one Redis; cache keys get `<prefix>cache:`. */
  keyPrefix?: string;
  /** Told about every Redis error the cache swallowed (operation `get` or `set`). */
  onError?: StoreErrorHandler;
}

/**
 * Redis response cache: JSON values under `SET key value PX ttl`. It never fails a request:
 * a Redis error (or an unreadable value) on get is a miss, on set is reported and ignored.
 * Owns the client: close() quits it.
 */
export class RedisResponseCache implements ResponseCache {
  readonly #client: Redis;
  readonly #prefix: string;
  readonly #onError: StoreErrorHandler | undefined;

  constructor(client: Redis, options: RedisResponseCacheOptions = {}) {
    this.#client = client;
    this.#prefix = `${options.keyPrefix ?? 'addressd:'}cache:`;
    this.#onError = options.onError;
  }

  /**
   * Connected and answering commands: while not, the near cache (near-cache.ts) leaves its copies
   * unread, so a Redis that is down is a miss on every instance, as without one.
   */
  get ready(): boolean {
    return this.#client.status === 'ready';
  }

  /** The Redis key holding `key`: for tests and operators. */
  redisKey(key: string): string {
    return this.#prefix + key;
  }

  async get<T>(key: string): Promise<T | undefined> {
    const json = await this.getText(key);
    try {
      return json === undefined ? undefined : (JSON.parse(json) as T);
    } catch (error) {
      safeReport(this.#onError, error, 'get');
      return undefined;
    }
  }

  async getText(key: string): Promise<string | undefined> {
    try {
      return (await this.#client.get(this.redisKey(key))) ?? undefined;
    } catch (error) {
      safeReport(this.#onError, error, 'get');
      return undefined;
    }
  }

  /** One MGET for all the keys; a Redis error makes every one a miss (reported once). */
  async getTexts(keys: readonly string[]): Promise<(string | undefined)[]> {
    if (keys.length === 0) return [];
    try {
      const texts = await this.#client.mget(keys.map((key) => this.redisKey(key)));
      return texts.map((text) => text ?? undefined);
    } catch (error) {
      safeReport(this.#onError, error, 'get');
      return keys.map(() => undefined);
    }
  }

  /** A non-positive TTL or a value JSON cannot hold (undefined) stores nothing. */
  async set<T>(key: string, value: T, ttlMs: number): Promise<void> {
    let json: string | undefined;
    try {
      json = JSON.stringify(value) as string | undefined;
    } catch (error) {
      safeReport(this.#onError, error, 'set');
      return;
    }
    if (json !== undefined) await this.setText(key, json, ttlMs);
  }

  async setText(key: string, text: string, ttlMs: number): Promise<void> {
    if (!(ttlMs > 0)) return;
    try {
      await this.#client.set(this.redisKey(key), text, 'PX', Math.ceil(ttlMs));
    } catch (error) {
      safeReport(this.#onError, error, 'set');
    }
  }

  /**
   * Every entry's `SET … PX` in one pipeline: one write and one round trip, not one per entry
   * (MSET has no TTL). Not a MULTI: entries are independent, a cache needs no atomicity. Commands
   * that fail leave the others standing, as separate `setText` calls would; the first failure is
   * reported (once per batch: a Redis gone away must not log a line per entry).
   */
  async setTexts(entries: readonly CacheText[]): Promise<void> {
    const pipeline = this.#client.pipeline();
    for (const { key, text, ttlMs } of entries) if (ttlMs > 0) pipeline.set(this.redisKey(key), text, 'PX', Math.ceil(ttlMs));
    if (pipeline.length === 0) return;
    try {
      const failed = ((await pipeline.exec()) ?? []).find(([error]) => error);
      if (failed) safeReport(this.#onError, failed[0], 'set');
    } catch (error) {
      safeReport(this.#onError, error, 'set');
    }
  }

  async close(): Promise<void> {
    await closeRedis(this.#client);
  }
}
