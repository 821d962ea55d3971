import {
  BrokenCircuitError,
  type CircuitBreakerPolicy,
  ConsecutiveBreaker,
  circuitBreaker,
  handleWhen,
  TaskCancelledError,
  type TimeoutPolicy,
  TimeoutStrategy,
  timeout,
} from 'cockatiel';
import type { TraceStatus } from '../contract/enums.js';
import { ProviderError, ProviderSkipped } from '../providers/provider.js';

/**
 * One provider's resilience: a cockatiel timeout inside a consecutive-failure circuit breaker.
 * Errors and timeouts count against the breaker; a caller's abort and a `skipped` call do not
 * (the provider did nothing wrong). Every outcome comes back as a value, never thrown.
 */
export interface BreakerOptions {
  /** Consecutive failures that open the circuit. */
  failures: number;
  /** How long it stays open before one trial call is let through (half-open). */
  halfOpenAfterMs: number;
}

export const DEFAULT_BREAKER: BreakerOptions = { failures: 5, halfOpenAfterMs: 30_000 };

export type GuardOutcome<T> =
  | { status: 'ok'; value: T; latencyMs: number }
  | { status: Exclude<TraceStatus, 'ok'>; error: string; latencyMs?: number };

/** Wraps outcomes the breaker must not count as failures. */
class NotAFailure extends Error {
  constructor(
    readonly status: 'aborted' | 'skipped',
    message: string,
  ) {
    super(message);
  }
}

export class ProviderGuard {
  private readonly breaker: CircuitBreakerPolicy;
  private readonly timeout: TimeoutPolicy;

  constructor(
    private readonly timeoutMs: number,
    breaker: BreakerOptions = DEFAULT_BREAKER,
  ) {
    this.breaker = circuitBreaker(
      handleWhen((error) => !(error instanceof NotAFailure)),
      { halfOpenAfter: breaker.halfOpenAfterMs, breaker: new ConsecutiveBreaker(breaker.failures) },
    );
    // Aggressive: give up at the deadline even if the call ignores its signal.
    // abortOnReturn off: the inner signal is then aborted only by the deadline or the caller.
    this.timeout = timeout(timeoutMs, { strategy: TimeoutStrategy.Aggressive, abortOnReturn: false });
  }

  async call<T>(fn: (signal: AbortSignal) => Promise<T>, caller?: AbortSignal): Promise<GuardOutcome<T>> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    try {
      const value = await this.breaker.execute(() => this.timed(fn, caller));
      return { status: 'ok', value: value as T, latencyMs: elapsed() };
    } catch (error) {
      if (error instanceof BrokenCircuitError) return { status: 'circuit-open', error: 'circuit breaker open: provider not called' };
      if (error instanceof NotAFailure) return { status: error.status, error: error.message, latencyMs: elapsed() };
      if (error instanceof TaskCancelledError) return { status: 'timeout', error: `no answer within ${this.timeoutMs} ms`, latencyMs: elapsed() };
      const message = error instanceof ProviderError ? error.message : `unexpected failure: ${error instanceof Error ? error.message : String(error)}`;
      return { status: 'error', error: message, latencyMs: elapsed() };
    }
  }

  private async timed<T>(fn: (signal: AbortSignal) => Promise<T>, caller?: AbortSignal): Promise<T> {
    let inner: AbortSignal | undefined;
    try {
      return await this.timeout.execute(({ signal }) => {
        inner = signal;
        return fn(signal);
      }, caller);
    } catch (error) {
      if (caller?.aborted) throw new NotAFailure('aborted', 'request aborted by the caller');
      if (error instanceof ProviderSkipped) throw new NotAFailure('skipped', error.message);
      // Only the deadline aborts the inner signal now; the adapter's own AbortError may win the race.
      if (inner?.aborted) throw new TaskCancelledError(`no answer within ${this.timeoutMs} ms`);
      throw error;
    }
  }
}
