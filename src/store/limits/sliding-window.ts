import type { ExhaustedWindow, LimitCheck, LimitResult, LimitsResult, LimitWindow } from './rate-limiter.js';

/**
 * Arithmetic shared by the in-process and Redis sliding logs, so both give the same answers.
 * A hit at time t counts in a window of period P at `now` while t > now - P; it leaves at t + P.
 */

export function periodMs(window: LimitWindow): number {
  return window.periodSeconds * 1000;
}

/** Rejects windows that could never admit a hit or never let one leave. */
export function assertValidWindows(windows: readonly LimitWindow[]): void {
  for (const w of windows) {
    if (!Number.isInteger(w.max) || w.max < 1) {
      throw new RangeError(`Rate limit window ${w.name}: max must be a positive integer, got ${w.max}`);
    }
    if (!Number.isFinite(w.periodSeconds) || w.periodSeconds <= 0) {
      throw new RangeError(`Rate limit window ${w.name}: periodSeconds must be positive, got ${w.periodSeconds}`);
    }
  }
}

/** Hits recorded at once: a whole number from 1. */
export function assertValidCount(count: number): void {
  if (!Number.isInteger(count) || count < 1) throw new RangeError(`Rate limit hit count must be a positive integer, got ${count}`);
}

export function longestPeriodMs(windows: readonly LimitWindow[]): number {
  return Math.max(...windows.map(periodMs));
}

/** Hits are stored at whole milliseconds in both stores. */
export function normalizeNow(nowMs: number): number {
  if (!Number.isFinite(nowMs)) throw new RangeError(`nowMs must be a finite number, got ${nowMs}`);
  return Math.floor(nowMs);
}

/**
 * A full window admits one more hit once its `max`-th most recent hit (`blockingHitMs`, the oldest
 * one in the window when it holds exactly `max`) leaves it; `count` more hits once its
 * (`max` - `count` + 1)-th most recent one leaves. More hits than `max` at once never fit: the
 * caller passes `nowMs` as the blocking hit, so the wait is the whole period. Whole seconds,
 * rounded up, at least 1.
 */
export function exhaustedWindow(window: LimitWindow, blockingHitMs: number, nowMs: number): ExhaustedWindow {
  const waitMs = blockingHitMs + periodMs(window) - nowMs;
  return {
    name: window.name,
    max: window.max,
    periodSeconds: window.periodSeconds,
    retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)),
  };
}

/** Every check's windows valid, and no key twice (its hits would be recorded twice). */
export function assertValidChecks(checks: readonly LimitCheck[]): void {
  const keys = new Set<string>();
  for (const check of checks) {
    assertValidWindows(check.windows);
    if (keys.has(check.key)) throw new RangeError(`Rate limit key ${check.key} is checked twice in one hit`);
    keys.add(check.key);
  }
}

/** `hit` as `hitAll` of one key: both backends implement the one on the other. */
export function singleResult(result: LimitsResult): LimitResult {
  return { allowed: result.allowed, exhausted: result.exhausted[0] ?? [] };
}
