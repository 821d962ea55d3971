import { LRUCache } from 'lru-cache';
import type { Clock } from '../../lib/clock.js';
import type { CacheText, ResponseCache } from './response-cache.js';

export interface MemoryResponseCacheOptions {
  /** Entries held at once; least recently used go first. */
  maxEntries?: number;
  /** Approximate bound on the JSON held, in characters (about bytes for addresses). */
  maxSizeBytes?: number;
  /** Time source for TTLs; tests pass a ManualClock instead of sleeping. */
  clock?: Clock;
}

/**
 * In-process LRU response cache. Values are kept as JSON text, which gives the size estimate and
 * the same semantics as Redis: a reader gets its own copy (mutating it cannot corrupt the cache)
 * and exactly what survives JSON (no undefined fields, Dates as strings).
 */
export class MemoryResponseCache implements ResponseCache {
  readonly #lru: LRUCache<string, string>;

  constructor(options: MemoryResponseCacheOptions = {}) {
    const clock = options.clock;
    this.#lru = new LRUCache<string, string>({
      max: options.maxEntries ?? 10_000,
      maxSize: options.maxSizeBytes ?? 64 * 1024 * 1024,
      sizeCalculation: (json) => Math.max(1, json.length),
      // lru-cache memoizes "now" for ttlResolution ms of real time; an injected clock must be read every time.
      ...(clock ? { perf: { now: () => clock.now() }, ttlResolution: 0 } : {}),
    });
  }

  async get<T>(key: string): Promise<T | undefined> {
    const json = this.#lru.get(key);
    return json === undefined ? undefined : (JSON.parse(json) as T);
  }

  async getText(key: string): Promise<string | undefined> {
    return this.#lru.get(key);
  }

  /** One promise for the lot: a batch's lookups do not each wait for a turn of the event loop. */
  async getTexts(keys: readonly string[]): Promise<(string | undefined)[]> {
    return keys.map((key) => this.#lru.get(key));
  }

  /** A non-positive TTL or a value JSON cannot hold (undefined) stores nothing, as in Redis. */
  async set<T>(key: string, value: T, ttlMs: number): Promise<void> {
    if (!(ttlMs > 0)) return;
    const json = JSON.stringify(value) as string | undefined;
    if (json === undefined) return;
    this.#lru.set(key, json, { ttl: Math.ceil(ttlMs) });
  }

  async setText(key: string, text: string, ttlMs: number): Promise<void> {
    if (!(ttlMs > 0)) return;
    this.#lru.set(key, text, { ttl: Math.ceil(ttlMs) });
  }

  async setTexts(entries: readonly CacheText[]): Promise<void> {
    for (const { key, text, ttlMs } of entries) if (ttlMs > 0) this.#lru.set(key, text, { ttl: Math.ceil(ttlMs) });
  }

  /** Entries held now (expired ones excluded): for metrics and tests. */
  get size(): number {
    this.#lru.purgeStale();
    return this.#lru.size;
  }

  async close(): Promise<void> {
    this.#lru.clear();
  }
}
