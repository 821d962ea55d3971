/**
 * The response cache: shared across accounts, keyed by the normalized request (DESIGN §6).
 * In-process LRU by default (memory-cache.ts), Redis when REDIS_URL is set (redis-cache.ts).
 */
export interface ResponseCache {
  get<T>(key: string): Promise<T | undefined>;
  /** The entry as stored (JSON text): lets a reader tell an unchanged entry without parsing it. */
  getText(key: string): Promise<string | undefined>;
  set<T>(key: string, value: T, ttlMs: number): Promise<void>;
  /** An entry already in JSON text (as `getText` gives it back): stored as is. */
  setText(key: string, text: string, ttlMs: number): Promise<void>;
  close(): Promise<void>;
}
