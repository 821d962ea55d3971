import { setMaxListeners } from 'node:events';
import type { ValidateRequest, ValidateResponse } from '../contract/validate.js';
import { mapBounded } from '../lib/bounded.js';
import type { CacheText, ResponseCache } from '../store/cache/response-cache.js';
import type { Biller, BillStep, CallContext } from './billing.js';
import { CreditsExhaustedError } from './errors.js';
import type { ProviderRunner } from './fan-out.js';
import type { Thresholds } from './types.js';
import { type AnswerIds, ValidateEngine } from './validate.js';

/** One item of a batch: answered, or refused because the account ran out of credits (cost nothing). */
export type BatchOutcome = { ok: true; response: ValidateResponse } | { ok: false; exhausted: CreditsExhaustedError };

export interface BatchOptions {
  /** Items in flight at once: a batch must not take every provider slot from other callers. */
  concurrency: number;
  signal?: AbortSignal;
}

export interface BatchValidatorDeps {
  runner: ProviderRunner;
  cache: ResponseCache;
  biller: Biller;
  cacheTtlMs: number;
  /** How often a running batch renews its reservation: a third of RESERVATION_MAX_AGE_MS. */
  renewEveryMs: number;
  /** Every item's answer gets its own response id, as a single call's does. */
  responseIds: AnswerIds;
}

/**
 * POST /v1/validate/batch: each item is validated exactly as a single call would be (same engine,
 * gate, cache, credits per answering provider, one usage event each), but the batch is billed as
 * one: a single reservation of every item's worst case before the first item starts and a single
 * settle of all the items' events after the last (Biller.batch), instead of two transactions per
 * item. Nothing of the batch is served before that settle committed, and nothing it looked up is
 * cached before then either (a cached answer is served free: one kept from a batch whose settle
 * failed would be served unbilled from then on), so its cache writes wait in a BatchCache.
 *
 * An item asking exactly what an earlier item of the same batch asked waits for that one and then
 * runs, so it is what a second single call would be: a cache hit (free, `cached: true`) when the
 * first answer was cached, a fresh look-up when it was not (a provider failed).
 *
 * The cache is read once for the whole batch before the first item starts (one MGET on Redis, not
 * a GET per item: 100 round trips were a sixth of a PostgreSQL + Redis batch's CPU) and written
 * once after the settle (one pipeline).
 */
export class BatchValidator {
  constructor(private readonly deps: BatchValidatorDeps) {}

  /**
   * Outcomes in input order. Once one item finds the credits exhausted, the items not yet started
   * are refused without touching the engine; those already running finish. `context(i)` is asked
   * when item i starts, so its latency counts from then.
   */
  async validate(
    accountId: string,
    requests: readonly ValidateRequest[],
    thresholds: Thresholds,
    context: (index: number) => CallContext,
    options: BatchOptions,
  ): Promise<BatchOutcome[]> {
    const { runner, biller, cacheTtlMs, responseIds } = this.deps;
    const cache = new BatchCache(this.deps.cache);
    const firsts = new Map<string, number>();
    requests.forEach((request, index) => {
      const identity = sameAsking(request);
      if (!firsts.has(identity)) firsts.set(identity, index);
    });
    // The worst case of every item, a repeat's included (its first may not be cached when a
    // provider failed): every provider that covers some country. What is not spent goes back.
    const providers = runner.eligible('geocode', undefined).length;
    const want = requests.length * providers;
    // Every provider call of every item in flight listens to the caller's signal: more than the
    // default ten is expected here, not a leak (node would warn on stderr for each batch).
    if (options.signal) setMaxListeners(Math.max(10, 2 * options.concurrency * Math.max(1, providers)), options.signal);
    const outcomes = await biller.batch(accountId, want, async (chunk, keep) => {
      const engine = new ValidateEngine({ runner, cache, biller: chunk, cacheTtlMs, responseIds });
      await readAhead(engine, chunk, accountId, [...firsts.values()].map((i) => requests[i]!), thresholds);
      const running = new Map<number, Promise<unknown>>();
      let exhausted: CreditsExhaustedError | undefined;
      return mapBounded(requests, options.concurrency, async (request, index): Promise<BatchOutcome> => {
        const first = firsts.get(sameAsking(request));
        if (first !== undefined && first !== index) await running.get(first)?.catch(() => undefined);
        if (exhausted) return { ok: false, exhausted };
        try {
          const answer = engine.validate(request, { ...context(index), thresholds }, options.signal);
          running.set(index, answer);
          return { ok: true, response: await answer };
        } catch (error) {
          if (!(error instanceof CreditsExhaustedError)) throw error;
          exhausted = error;
          return { ok: false, exhausted: error };
        } finally {
          await keep();
        }
      });
    }, this.deps.renewEveryMs);
    // Billed: now the answers may be served, and cached.
    await cache.flush();
    return outcomes;
  }
}

/**
 * Every item's cache entry asked for at once, before any item runs: `engine.cached` reads each
 * item's input and asks the cache for its key in the same turn, so the BatchCache fetches them
 * together, and keeps both (the engine its parsed input and any decided answer, the BatchCache
 * the texts) for the item's own run. The items the cache does not answer then have their geocodes
 * looked up together where a provider can (`engine.prime`: the local index on PostgreSQL sends one
 * statement for the lot, where each item sent its own). `requests`: each distinct item once (a
 * repeat runs after its first, a cache hit). Nothing is billed or served here. An account without
 * credits reads nothing (its items are refused as before); an item that fails here fails again in
 * its run, where the batch handles it.
 */
async function readAhead(
  engine: ValidateEngine,
  biller: BillStep,
  accountId: string,
  requests: readonly ValidateRequest[],
  thresholds: Thresholds,
): Promise<void> {
  try {
    await biller.ensureCredits(accountId);
  } catch {
    return;
  }
  // debug items skip the cache read (and are looked up).
  const answers = await Promise.all(requests.map((r) => (r.debug === true ? undefined : engine.cached(r, thresholds).catch(() => undefined))));
  const misses = requests.filter((_, i) => answers[i] === undefined);
  if (misses.length > 0) await engine.prime(misses, thresholds);
}

/** What makes two items the same question (the source only tags the usage event). */
function sameAsking(request: ValidateRequest): string {
  const components = request.components ? Object.entries(request.components).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)) : null;
  return JSON.stringify([request.query ?? null, components, request.country ?? null, request.language ?? null, request.debug === true]);
}

/**
 * The response cache as one batch sees it: reads see the batch's own writes at once (a repeat
 * finds its first's answer), while the shared cache gets them only at `flush`, once the batch is
 * billed. A batch that fails is dropped with its writes. Keys asked for in the same turn of the
 * event loop are fetched from the shared cache together (one `getTexts`), and each key is fetched
 * once per batch.
 */
class BatchCache implements ResponseCache {
  readonly #pending = new Map<string, { text: string; ttlMs: number }>();
  /** What the shared cache gave for each key asked for (or is giving). */
  readonly #read = new Map<string, Promise<string | undefined>>();
  /** The keys asked for in this turn, fetched together once it ends. */
  #round: { keys: string[]; texts: Promise<(string | undefined)[]> } | undefined;

  constructor(private readonly shared: ResponseCache) {}

  async get<T>(key: string): Promise<T | undefined> {
    const text = await this.getText(key);
    return text === undefined ? undefined : (JSON.parse(text) as T);
  }

  async getText(key: string): Promise<string | undefined> {
    const own = this.#pending.get(key);
    if (own) return own.text;
    let read = this.#read.get(key);
    if (!read) {
      read = this.#fetch(key);
      this.#read.set(key, read);
    }
    return read;
  }

  async getTexts(keys: readonly string[]): Promise<(string | undefined)[]> {
    return Promise.all(keys.map((key) => this.getText(key)));
  }

  /** As the shared caches: a non-positive TTL or a value JSON cannot hold (undefined) stores nothing. */
  async set<T>(key: string, value: T, ttlMs: number): Promise<void> {
    const text = JSON.stringify(value) as string | undefined;
    if (text !== undefined) await this.setText(key, text, ttlMs);
  }

  async setText(key: string, text: string, ttlMs: number): Promise<void> {
    if (ttlMs > 0) this.#pending.set(key, { text, ttlMs });
  }

  async setTexts(entries: readonly CacheText[]): Promise<void> {
    for (const { key, text, ttlMs } of entries) await this.setText(key, text, ttlMs);
  }

  /** Into the shared cache in one `setTexts`, as the text it was given (the value as it was then). */
  async flush(): Promise<void> {
    const entries = Array.from(this.#pending, ([key, { text, ttlMs }]) => ({ key, text, ttlMs }));
    this.#pending.clear();
    if (entries.length > 0) await this.shared.setTexts(entries);
  }

  /** The shared cache belongs to the service. */
  async close(): Promise<void> {}

  /** `key`'s text, fetched with every other key asked for before this turn ends. */
  #fetch(key: string): Promise<string | undefined> {
    if (!this.#round) {
      const keys: string[] = [];
      // A microtask runs once the synchronous code asking (readAhead's loop) is done.
      const texts = Promise.resolve().then(() => {
        this.#round = undefined;
        return this.shared.getTexts(keys);
      });
      this.#round = { keys, texts };
    }
    const at = this.#round.keys.push(key) - 1;
    return this.#round.texts.then((texts) => texts[at]);
  }
}
