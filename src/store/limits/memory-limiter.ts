import { LRUCache } from 'lru-cache';
import type { ExhaustedWindow, LimitCheck, LimitResult, LimitsResult, LimitWindow, RateLimiter } from './rate-limiter.js';
import { assertValidChecks, assertValidCount, exhaustedWindow, longestPeriodMs, normalizeNow, periodMs, singleResult } from './sliding-window.js';

/*
 * Why not rate-limiter-flexible (checked, v11.4): its Redis and memory limiters count in fixed
 * windows (INCR + expire), read Date.now() themselves (no injectable clock), and RateLimiterUnion
 * consumes from every limiter before judging, so a refused hit still spends the other windows.
 * DESIGN §8 needs rolling windows, all-or-nothing and a caller's clock: a small sliding log does that.
 */

export interface MemoryRateLimiterOptions {
  /** Keys tracked at once; the least recently hit key is forgotten beyond this. */
  maxKeys?: number;
  /** Hit timestamps held across all keys (8 bytes each), a second bound for memory. */
  maxHits?: number;
}

/** Index of the first log entry strictly greater than `value` (the log is sorted ascending). */
function upperBound(log: readonly number[], value: number): number {
  let lo = 0;
  let hi = log.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (log[mid]! <= value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * In-process sliding log: one sorted array of hit times per key, trimmed to the longest window.
 * Since a hit is only recorded when every window has room, a log never holds more than the
 * longest window's `max` (200 for the demo's monthly window). Counting is a binary search.
 * Use one window set per key (callers prefix keys per use: demo IP, widget token, test key).
 */
export class MemoryRateLimiter implements RateLimiter {
  /** lru-cache's TTL clock follows the callers' clock, so idle keys expire in tests too. */
  #latestNowMs = 0;
  readonly #logs: LRUCache<string, number[]>;

  constructor(options: MemoryRateLimiterOptions = {}) {
    this.#logs = new LRUCache<string, number[]>({
      max: options.maxKeys ?? 100_000,
      maxSize: options.maxHits ?? 2_000_000,
      sizeCalculation: (log) => Math.max(1, log.length),
      ttlResolution: 0,
      perf: { now: () => this.#latestNowMs },
    });
  }

  async hit(key: string, windows: readonly LimitWindow[], nowMs: number, count = 1): Promise<LimitResult> {
    return singleResult(await this.hitAll([{ key, windows }], nowMs, count));
  }

  async hitAll(checks: readonly LimitCheck[], nowMs: number, count = 1): Promise<LimitsResult> {
    assertValidChecks(checks);
    assertValidCount(count);
    const now = normalizeNow(nowMs);
    // A key without windows has nothing to count (and records nothing).
    const counted = checks.filter((c) => c.windows.length > 0);
    if (counted.length === 0) return { allowed: true, exhausted: checks.map(() => []) };
    this.#latestNowMs = Math.max(this.#latestNowMs, now);

    // Every key judged before any is written: all or nothing across the keys.
    const logs = counted.map((check) => {
      const log = this.#logs.get(check.key) ?? [];
      const expired = upperBound(log, now - longestPeriodMs(check.windows));
      if (expired > 0) log.splice(0, expired);
      return log;
    });
    const exhausted = checks.map((check): ExhaustedWindow[] => {
      const i = counted.indexOf(check);
      if (i < 0) return [];
      const log = logs[i]!;
      const full: ExhaustedWindow[] = [];
      for (const window of check.windows) {
        const inWindow = log.length - upperBound(log, now - periodMs(window));
        if (inWindow + count > window.max) {
          // The hit that must leave for `count` more to fit; none when `count` alone exceeds the window.
          full.push(exhaustedWindow(window, log[log.length - window.max + count - 1] ?? now, now));
        }
      }
      return full;
    });
    if (exhausted.some((full) => full.length > 0)) return { allowed: false, exhausted };

    counted.forEach((check, i) => {
      const log = logs[i]!;
      // Callers may pass slightly out-of-order times (clock read before an await): keep it sorted.
      log.splice(upperBound(log, now), 0, ...new Array<number>(count).fill(now));
      // Re-setting refreshes the size and restarts the idle timer: dropped once all hits have left.
      this.#logs.set(check.key, log, { ttl: longestPeriodMs(check.windows) });
    });
    return { allowed: true, exhausted };
  }

  /** Keys currently tracked (idle and evicted keys excluded): for metrics and tests. */
  get trackedKeys(): number {
    this.#logs.purgeStale();
    return this.#logs.size;
  }

  async close(): Promise<void> {
    this.#logs.clear();
  }
}
