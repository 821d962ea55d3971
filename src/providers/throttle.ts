import { setTimeout as delay } from 'node:timers/promises';
import { type Clock, systemClock } from '../lib/clock.js';
import { ProviderSkipped } from './provider.js';

export interface ThrottleOptions {
  /** At most one request per interval (the public Nominatim allows 1 per second). */
  intervalMs: number;
  /** A slot further away than this is not waited for: the call is `skipped` instead. */
  maxWaitMs: number;
  clock?: Clock;
  /** Injected in tests together with a ManualClock. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

/**
 * Hands out request slots `intervalMs` apart, in call order. A caller either gets a slot
 * (and waits for it) or is told at once that none comes free within `maxWaitMs`. The slot is
 * spent even if the caller gives up while waiting: the upstream limit counts attempts.
 */
export class SlotThrottle {
  private nextFree = Number.NEGATIVE_INFINITY;
  private readonly clock: Clock;
  private readonly sleep: (ms: number, signal: AbortSignal) => Promise<void>;

  constructor(private readonly opts: ThrottleOptions) {
    this.clock = opts.clock ?? systemClock;
    this.sleep = opts.sleep ?? ((ms, signal) => delay(ms, undefined, { signal }));
  }

  async acquire(signal: AbortSignal): Promise<void> {
    const now = this.clock.now();
    const slot = Math.max(now, this.nextFree);
    const wait = slot - now;
    if (wait > this.opts.maxWaitMs) {
      throw new ProviderSkipped(`rate limit: next request slot in ${Math.ceil(wait)} ms`);
    }
    this.nextFree = slot + this.opts.intervalMs;
    if (wait > 0) await this.sleep(wait, signal);
  }
}
