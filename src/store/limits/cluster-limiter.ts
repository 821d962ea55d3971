import { type Inbox, isMessage, type ToPrimary, type ToWorker } from '../../cluster-messages.js';
import type { LimitCheck, LimitResult, LimitsResult, LimitWindow, RateLimiter } from './rate-limiter.js';
import { singleResult } from './sliding-window.js';

/**
 * The rate limiter of a cluster worker without Redis: every hit is counted by the primary's one
 * in-process limiter (an IPC round trip), so N workers on one port keep the limits of one process.
 */
export class ClusterRateLimiter implements RateLimiter {
  #next = 0;
  readonly #pending = new Map<number, { resolve: (r: LimitsResult) => void; reject: (e: Error) => void }>();
  readonly #onMessage = (message: unknown) => {
    if (!isMessage<ToWorker>(message) || message.addressd !== 'limit-result') return;
    const waiting = this.#pending.get(message.id);
    if (!waiting) return;
    this.#pending.delete(message.id);
    if (message.result) waiting.resolve(message.result);
    else waiting.reject(new Error(`rate limiter: ${message.error ?? 'no answer'}`));
  };

  constructor(
    private readonly send: (message: ToPrimary) => boolean = (m) => process.send?.(m) ?? false,
    private readonly inbox: Inbox = process,
  ) {
    inbox.on('message', this.#onMessage);
  }

  async hit(key: string, windows: readonly LimitWindow[], nowMs: number, count = 1): Promise<LimitResult> {
    return singleResult(await this.hitAll([{ key, windows }], nowMs, count));
  }

  /** One message for all the keys: the primary judges and records them together, all or nothing. */
  hitAll(checks: readonly LimitCheck[], nowMs: number, count = 1): Promise<LimitsResult> {
    return new Promise((resolve, reject) => {
      const id = this.#next++;
      this.#pending.set(id, { resolve, reject });
      // A closed channel (the primary going away) fails the hit: limits fail closed, as with Redis.
      const message = { addressd: 'limit' as const, id, checks: checks.map((c) => ({ key: c.key, windows: [...c.windows] })), nowMs, count };
      if (!this.send(message)) {
        this.#pending.delete(id);
        reject(new Error('rate limiter: the cluster primary is unreachable'));
      }
    });
  }

  async close(): Promise<void> {
    this.inbox.off('message', this.#onMessage);
    for (const waiting of this.#pending.values()) waiting.reject(new Error('rate limiter closed'));
    this.#pending.clear();
  }
}
