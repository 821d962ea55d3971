import type { Metrics } from '../../lib/metrics.js';
import type { ResponseCache } from './response-cache.js';

/**
 * Counts hits and misses of any ResponseCache (addressd_cache_lookups_total), labelled by the
 * key's kind (`validate:…`, `autocomplete:…`), so the engine needs no metrics code of its own.
 */
export function countedCache(cache: ResponseCache, metrics: Metrics): ResponseCache {
  const count = (key: string, found: boolean) =>
    metrics.cacheLookups.inc({ kind: key.slice(0, key.indexOf(':')) || 'other', result: found ? 'hit' : 'miss' });
  return {
    async get<T>(key: string): Promise<T | undefined> {
      const value = await cache.get<T>(key);
      count(key, value !== undefined);
      return value;
    },
    async getText(key: string): Promise<string | undefined> {
      const text = await cache.getText(key);
      count(key, text !== undefined);
      return text;
    },
    async getTexts(keys: readonly string[]): Promise<(string | undefined)[]> {
      const texts = await cache.getTexts(keys);
      for (let i = 0; i < keys.length; i += 1) count(keys[i] as string, texts[i] !== undefined);
      return texts;
    },
    set: (key, value, ttlMs) => cache.set(key, value, ttlMs),
    setText: (key, text, ttlMs) => cache.setText(key, text, ttlMs),
    setTexts: (entries) => cache.setTexts(entries),
    close: () => cache.close(),
  };
}
