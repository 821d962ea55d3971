import type { Clock } from '../../lib/clock.js';
import { MemoryResponseCache } from './memory-cache.js';
import type { CacheText, ResponseCache } from './response-cache.js';

export interface NearCacheOptions {
  /** How long an entry read from (or written to) the shared cache is answered from memory. */
  ttlMs: number;
  /** Entries held in memory at once (default 10 000). */
  maxEntries?: number;
  /** Approximate bound on the JSON held in memory (default 32 MiB). */
  maxSizeBytes?: number;
  clock?: Clock;
}

/**
 * A short-lived in-process copy in front of the shared (Redis) cache: a cache hit of a key this
 * instance read or wrote within `ttlMs` costs no Redis round trip (issue 37: on PostgreSQL + Redis
 * the GET was most of a hit's own time). Bound: an entry another instance refreshed (a `debug`
 * call) or that expired in Redis is seen here up to `ttlMs` late. An import that changes the data
 * needs no such wait: the data generation is part of every key (cache-key.ts). Misses are never
 * kept (a miss is asked again, so another instance's fresh entry is found at once), and writes go
 * through: this instance's own writes are read back at once. While the shared cache is not ready
 * (Redis down), memory is not read: a look-up is a miss there, as it would be without this layer.
 */
export class NearCache implements ResponseCache {
  readonly #near: MemoryResponseCache;
  readonly #ttlMs: number;
  /** Shared reads in flight: concurrent hits of one key once its copy expired share one GET. */
  /** Writes so far: a batch read that a write overtook keeps nothing. */
  #writes = 0;
  readonly #reading = new Map<string, { text?: Promise<string | undefined> }>();

  constructor(
    /** `ready` false (Redis down): memory is not read, every look-up goes to the shared cache. */
    private readonly shared: ResponseCache & { readonly ready: boolean },
    options: NearCacheOptions,
  ) {
    this.#ttlMs = options.ttlMs;
    this.#near = new MemoryResponseCache({
      maxEntries: options.maxEntries ?? 10_000,
      maxSizeBytes: options.maxSizeBytes ?? 32 * 1024 * 1024,
      ...(options.clock ? { clock: options.clock } : {}),
    });
  }

  async get<T>(key: string): Promise<T | undefined> {
    const text = await this.getText(key);
    if (text === undefined) return undefined;
    try {
      return JSON.parse(text) as T;
    } catch {
      // The shared cache reports its own unreadable values; here one is a miss, as there.
      return undefined;
    }
  }

  async getText(key: string): Promise<string | undefined> {
    if (!this.shared.ready) return this.shared.getText(key);
    const near = await this.#near.getText(key);
    if (near !== undefined) return near;
    const pending = this.#reading.get(key)?.text;
    if (pending) return pending;
    const reading: { text?: Promise<string | undefined> } = {};
    this.#reading.set(key, reading);
    reading.text = this.#read(key, reading);
    try {
      return await reading.text;
    } finally {
      if (this.#reading.get(key) === reading) this.#reading.delete(key);
    }
  }

  /** A read that a write overtook (setText meanwhile) answers its caller but keeps nothing. */
  async #read(key: string, reading: object): Promise<string | undefined> {
    const text = await this.shared.getText(key);
    if (text !== undefined && this.#reading.get(key) === reading) await this.#near.setText(key, text, this.#ttlMs);
    return text;
  }

  /** What memory holds, and one shared look-up (one MGET on Redis) for the rest. */
  async getTexts(keys: readonly string[]): Promise<(string | undefined)[]> {
    if (!this.shared.ready) return this.shared.getTexts(keys);
    const texts = await this.#near.getTexts(keys);
    const missing: number[] = [];
    for (let i = 0; i < texts.length; i += 1) if (texts[i] === undefined) missing.push(i);
    if (missing.length === 0) return texts;
    const writes = this.#writes;
    const found = await this.shared.getTexts(missing.map((i) => keys[i] as string));
    const kept: CacheText[] = [];
    missing.forEach((at, i) => {
      const text = found[i];
      texts[at] = text;
      if (text !== undefined) kept.push({ key: keys[at] as string, text, ttlMs: this.#ttlMs });
    });
    if (writes === this.#writes) await this.#near.setTexts(kept);
    return texts;
  }

  async set<T>(key: string, value: T, ttlMs: number): Promise<void> {
    if (!(ttlMs > 0)) return;
    let text: string | undefined;
    try {
      text = JSON.stringify(value) as string | undefined;
    } catch {
      // Not JSON (a cycle): the shared cache reports it and stores nothing.
      return this.shared.set(key, value, ttlMs);
    }
    if (text !== undefined) await this.setText(key, text, ttlMs);
  }

  async setText(key: string, text: string, ttlMs: number): Promise<void> {
    if (!(ttlMs > 0)) return;
    this.#writes += 1;
    this.#reading.delete(key);
    await this.#near.setText(key, text, Math.min(ttlMs, this.#ttlMs));
    await this.shared.setText(key, text, ttlMs);
  }

  async setTexts(entries: readonly CacheText[]): Promise<void> {
    this.#writes += 1;
    for (const { key } of entries) this.#reading.delete(key);
    await this.#near.setTexts(entries.map((e) => ({ ...e, ttlMs: Math.min(e.ttlMs, this.#ttlMs) })));
    await this.shared.setTexts(entries);
  }

  async close(): Promise<void> {
    await this.#near.close();
    await this.shared.close();
  }
}
