/** One entry to store as JSON text, for `setTexts`. */
export interface CacheText {
  key: string;
  text: string;
  ttlMs: number;
}

/**
 * The response cache: shared across accounts, keyed by the normalized request (DESIGN §6).
 * In-process LRU by default (memory-cache.ts), Redis when REDIS_URL is set (redis-cache.ts).
 */
export interface ResponseCache {
  get<T>(key: string): Promise<T | undefined>;
  /** The entry as stored (JSON text): lets a reader tell an unchanged entry without parsing it. */
  getText(key: string): Promise<string | undefined>;
  /**
   * Several entries at once, in the order of `keys` (undefined for a miss): what `getText` gives
   * for each, in one round trip on Redis (MGET) instead of one per key (a batch of 100 items).
   */
  getTexts(keys: readonly string[]): Promise<(string | undefined)[]>;
  set<T>(key: string, value: T, ttlMs: number): Promise<void>;
  /** An entry already in JSON text (as `getText` gives it back): stored as is. */
  setText(key: string, text: string, ttlMs: number): Promise<void>;
  /** Several `setText` at once, in one round trip on Redis (one pipeline). */
  setTexts(entries: readonly CacheText[]): Promise<void>;
  close(): Promise<void>;
}
