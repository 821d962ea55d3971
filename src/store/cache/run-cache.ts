import type { Clock } from '../../lib/clock.js';
import type { CacheText, ResponseCache } from './response-cache.js';
import { dropOldest } from '../../lib/kept.js';

interface Entry {
  /** The value as given to `set`, until its text is first asked for. */
  value?: unknown;
  text?: string;
  /** Clock time it expires at. */
  expires: number;
}

/**
 * The in-process response cache of one bulk run (`addressd validate` without Redis): the same
 * answers as MemoryResponseCache (LRU of `maxEntries`, TTLs, text as JSON gives it back), but a
 * value is turned into JSON text only when it is first read. A run writes an answer per row and
 * reads few of them back (repeats.ts answers most repeats before the engine), so the text of most
 * is never needed. The value is kept by reference until then: for callers that do not change a
 * value after storing it, as the engine (it stores a lookup it built for the cache).
 */
export class RunResponseCache implements ResponseCache {
  /** Insertion order is recency order: a hit moves its entry to the end. */
  readonly #entries = new Map<string, Entry>();

  constructor(
    private readonly clock: Clock,
    private readonly maxEntries = 10_000,
  ) {}

  async get<T>(key: string): Promise<T | undefined> {
    const text = this.#text(key);
    return text === undefined ? undefined : (JSON.parse(text) as T);
  }

  async getText(key: string): Promise<string | undefined> {
    return this.#text(key);
  }

  async getTexts(keys: readonly string[]): Promise<(string | undefined)[]> {
    return keys.map((key) => this.#text(key));
  }

  /** A non-positive TTL or a value JSON cannot hold (undefined) stores nothing, as in the other caches. */
  async set<T>(key: string, value: T, ttlMs: number): Promise<void> {
    if (!(ttlMs > 0) || value === undefined) return;
    this.#put(key, { value, expires: this.clock.now() + ttlMs });
  }

  async setText(key: string, text: string, ttlMs: number): Promise<void> {
    if (ttlMs > 0) this.#put(key, { text, expires: this.clock.now() + ttlMs });
  }

  async setTexts(entries: readonly CacheText[]): Promise<void> {
    for (const { key, text, ttlMs } of entries) await this.setText(key, text, ttlMs);
  }

  async close(): Promise<void> {
    this.#entries.clear();
  }

  #put(key: string, entry: Entry): void {
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    // The oldest eighth at once, not one per put (lib/kept.ts says why).
    if (this.#entries.size > this.maxEntries) dropOldest(this.#entries, Math.max(1, Math.floor(this.maxEntries / 8)));
  }

  #text(key: string): string | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (entry.expires <= this.clock.now()) {
      this.#entries.delete(key);
      return undefined;
    }
    if (entry.text === undefined) {
      const text = JSON.stringify(entry.value) as string | undefined;
      // A value JSON holds nothing of (a function): a miss, as it was never stored elsewhere.
      if (text === undefined) {
        this.#entries.delete(key);
        return undefined;
      }
      entry.text = text;
      entry.value = undefined;
    }
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    return entry.text;
  }
}
