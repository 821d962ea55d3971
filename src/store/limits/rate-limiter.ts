/**
 * Rolling-window rate limits (DESIGN §8): a sliding log per key, so "10 per 5 minutes" means
 * any 300 s span, never a fixed bucket. In-process by default, Redis when REDIS_URL is set;
 * both give the same answers for the same clock.
 */
export interface LimitWindow {
  /** Name reported back, e.g. `five_minute` or `minute`. */
  name: string;
  max: number;
  periodSeconds: number;
}

export interface ExhaustedWindow {
  name: string;
  max: number;
  periodSeconds: number;
  /** Whole seconds until this window admits one more hit (at least 1). */
  retryAfterSeconds: number;
}

export interface LimitResult {
  allowed: boolean;
  /** Every window that is full; empty when allowed. */
  exhausted: ExhaustedWindow[];
}

/** One key's windows, as one of several limits a request must pass together (`hitAll`). */
export interface LimitCheck {
  key: string;
  windows: readonly LimitWindow[];
}

export interface LimitsResult {
  allowed: boolean;
  /** Each check's full windows, in the checks' order (empty where it had room); all empty when allowed. */
  exhausted: ExhaustedWindow[][];
}

export interface RateLimiter {
  /**
   * Records `count` hits (default 1: a batch counts each item) under `key` when every window has
   * room for all of them (all-or-nothing, atomic), else records nothing and reports the windows
   * without room.
   */
  hit(key: string, windows: readonly LimitWindow[], nowMs: number, count?: number): Promise<LimitResult>;
  /**
   * `hit` over several keys at once (the widget's per-token and per-origin limits): the hits are
   * recorded under every key only when every window of every key has room, atomically across the
   * keys (a request one limit refuses uses up none of the others), in one step: one Redis round
   * trip, not one per key. Keys must be distinct.
   */
  hitAll(checks: readonly LimitCheck[], nowMs: number, count?: number): Promise<LimitsResult>;
  close(): Promise<void>;
}
