import type { CreditLedger } from './credit-ledger.js';

export interface ReservationSweeperOptions {
  /** How often to look (RESERVATION_SWEEP_MS). */
  intervalMs: number;
  /** Older than this, a reservation's process is gone (RESERVATION_MAX_AGE_MS). */
  maxAgeMs: number;
  /** After each sweep that released something: the service logs it. */
  onReleased?: (released: number) => void;
  /** A sweep that failed (the database is away): the next one tries again. */
  onError?: (error: unknown) => void;
}

/**
 * Recovers reservations that any crashed instance left behind (a single call's settled from
 * itself, a batch's or bulk chunk's released: CreditLedger.releaseStale), every `intervalMs`, once they are
 * older than the longest possible request: a customer is never kept overcharged for longer than
 * `maxAgeMs + intervalMs`, however long the surviving instances run. The timer never keeps the
 * process alive; sweeps never overlap.
 */
export class ReservationSweeper {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | undefined;
  private waiters: ((released: number) => void)[] = [];

  constructor(
    private readonly ledger: CreditLedger,
    private readonly options: ReservationSweeperOptions,
  ) {}

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.sweep(), this.options.intervalMs);
    this.timer.unref();
  }

  /** One sweep now (or the one already running); resolves with how many it released, 0 on error. */
  sweep(): Promise<number> {
    if (this.running) return this.running;
    // Those waiting for the next sweep are told by this one: it starts after they asked.
    const waiters = this.waiters.splice(0);
    this.running = this.ledger
      .releaseStale(this.options.maxAgeMs)
      .then(
        (released) => {
          if (released > 0) this.options.onReleased?.(released);
          return released;
        },
        (error: unknown) => {
          this.options.onError?.(error);
          return 0;
        },
      )
      .then((released) => {
        this.running = undefined;
        for (const resolve of waiters) resolve(released);
        return released;
      });
    return this.running;
  }

  /**
   * Resolves with the result of the next sweep that starts after this call (tests and operators
   * wait on it instead of sleeping). A sweep already running when it is called does not count: it
   * read the clock and the reservations before the caller's change.
   */
  nextSweep(): Promise<number> {
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Stops the timer and waits for a sweep in progress, so the database can close under it. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }
}
