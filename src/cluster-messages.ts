import type { Change } from './store/changes/index.js';
import type { LimitsResult, LimitWindow } from './store/limits/rate-limiter.js';

/**
 * What a cluster's workers and their primary tell each other over IPC (src/cluster.ts): changes to
 * pass on to the other workers, and rate-limit hits the primary counts for all of them, so that
 * without Redis the workers still share one set of limits.
 */
export type ToPrimary =
  | { addressd: 'change'; change: Change }
  | { addressd: 'limit'; id: number; checks: { key: string; windows: LimitWindow[] }[]; nowMs: number; count: number }
  | { addressd: 'listening' };

export type ToWorker = { addressd: 'change'; change: Change } | { addressd: 'limit-result'; id: number; result?: LimitsResult; error?: string };

export function isMessage<T extends { addressd: string }>(value: unknown): value is T {
  return typeof value === 'object' && value !== null && typeof (value as { addressd?: unknown }).addressd === 'string';
}

/** Where a worker hears its primary: `process` in a cluster worker, an emitter in tests. */
export interface Inbox {
  on(event: 'message', listener: (message: unknown) => void): unknown;
  off(event: 'message', listener: (message: unknown) => void): unknown;
}
