import {
  BrokenCircuitError,
  type CircuitBreakerPolicy,
  CircuitState,
  ConsecutiveBreaker,
  circuitBreaker,
  handleWhen,
  TaskCancelledError,
} from 'cockatiel';
import type { TraceStatus } from '../contract/enums.js';
import type { CircuitStateName } from '../lib/metrics.js';
import { ProviderError, ProviderSkipped } from '../providers/provider.js';
import { type Deadline, armLater, disarm, turnSignal } from './deadline-timers.js';

/**
 * One provider's resilience: a timeout inside a cockatiel consecutive-failure circuit breaker.
 * Errors and timeouts count against the breaker; a caller's abort and a `skipped` call do not
 * (the provider did nothing wrong). Each call has one deadline, `timeoutMs` after it started,
 * even when it first queues behind a half-open trial call. Every outcome comes back as a value.
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
  | {
      status: Exclude<TraceStatus, 'ok'>;
      error: string;
      /** Why an `error`, in a word for metrics and logs: the HTTP status, `malformed`, `network`, `unexpected`. */
      cause?: string;
      latencyMs?: number;
    };

/** `500` for an HTTP status, else the kind of failure. */
function errorCause(error: ProviderError): string {
  return error.kind === 'http' ? (/\d{3}/.exec(error.message)?.[0] ?? 'http') : error.kind;
}

/** Wraps outcomes the breaker must not count as failures. */
class NotAFailure extends Error {
  constructor(
    readonly status: 'aborted' | 'skipped' | 'timeout',
    message: string,
  ) {
    super(message);
  }
}

/** A circuit transition; `cause` is the failure that opened it. */
export type CircuitListener = (state: CircuitStateName, cause?: string) => void;

const STATE_NAMES: Record<CircuitState, CircuitStateName> = {
  [CircuitState.Closed]: 'closed',
  [CircuitState.HalfOpen]: 'half-open',
  [CircuitState.Open]: 'open',
  [CircuitState.Isolated]: 'open',
};

export class ProviderGuard {
  private readonly breaker: CircuitBreakerPolicy;

  constructor(
    private readonly timeoutMs: number,
    breaker: BreakerOptions = DEFAULT_BREAKER,
    onCircuit?: CircuitListener,
  ) {
    this.breaker = circuitBreaker(
      handleWhen((error) => !(error instanceof NotAFailure)),
      { halfOpenAfter: breaker.halfOpenAfterMs, breaker: new ConsecutiveBreaker(breaker.failures) },
    );
    if (onCircuit) {
      this.breaker.onBreak((reason) => onCircuit('open', 'error' in reason ? this.describe(reason.error) : 'isolated'));
      this.breaker.onHalfOpen(() => onCircuit('half-open'));
      this.breaker.onReset(() => onCircuit('closed'));
    }
  }

  /** The breaker's state now; an open circuit past its wait stays `open` until a call tries it. */
  get circuit(): CircuitStateName {
    return STATE_NAMES[this.breaker.state];
  }

  private describe(error: unknown): string {
    if (error instanceof TaskCancelledError) return this.timeoutMessage();
    return error instanceof Error ? error.message : String(error);
  }

  async call<T>(fn: (signal: AbortSignal) => Promise<T>, caller?: AbortSignal): Promise<GuardOutcome<T>> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    // One deadline per call: time spent queued behind a half-open trial call comes out of it.
    const deadline = started + this.timeoutMs;
    try {
      const value = await this.breaker.execute(() => this.timed(fn, deadline, caller));
      return { status: 'ok', value: value as T, latencyMs: elapsed() };
    } catch (error) {
      if (error instanceof BrokenCircuitError) return { status: 'circuit-open', error: 'circuit breaker open: provider not called' };
      if (error instanceof NotAFailure) return { status: error.status, error: error.message, latencyMs: elapsed() };
      if (error instanceof TaskCancelledError) return { status: 'timeout', error: this.timeoutMessage(), latencyMs: elapsed() };
      if (error instanceof ProviderError) return { status: 'error', error: error.message, cause: errorCause(error), latencyMs: elapsed() };
      const message = `unexpected failure: ${error instanceof Error ? error.message : String(error)}`;
      return { status: 'error', error: message, cause: 'unexpected', latencyMs: elapsed() };
    }
  }

  private timeoutMessage(): string {
    return `no answer within ${this.timeoutMs} ms`;
  }

  /**
   * The call raced against its deadline (cockatiel's aggressive timeout, by hand): rejects with a
   * TaskCancelledError at the deadline even if the call ignores its signal, and as soon as the
   * caller aborts. The inner signal is aborted only by the deadline or the caller, never on return;
   * without a caller's signal it is shared with the calls started in the same macrotask. The
   * timer is armed only if the call outlives that macrotask (deadline-timers.ts).
   */
  private timed<T>(fn: (signal: AbortSignal) => Promise<T>, deadline: number, caller?: AbortSignal): Promise<T> {
    const remaining = Math.floor(deadline - performance.now());
    // The wait ate the whole budget: a timeout for this call, but the provider was never asked.
    if (remaining <= 0) return Promise.reject(new NotAFailure('timeout', this.timeoutMessage()));
    const own = caller ? new AbortController() : undefined;
    const lease = own ? undefined : turnSignal();
    const signal = own ? own.signal : lease!.signal;
    return new Promise<T>((resolve, reject) => {
      const settle = (expired: boolean) => {
        disarm(d);
        caller?.removeEventListener('abort', cancel);
        lease?.end(expired);
      };
      const fail = (error: unknown) => {
        if (d.settled) return;
        settle(false);
        if (caller?.aborted) reject(new NotAFailure('aborted', 'request aborted by the caller'));
        else if (error instanceof ProviderSkipped) reject(new NotAFailure('skipped', error.message));
        // Only the deadline aborts the inner signal now; the adapter's own AbortError may win the race.
        else if (own?.signal.aborted) reject(new TaskCancelledError(this.timeoutMessage()));
        else reject(error);
      };
      // The deadline passed, or the caller aborted.
      const cancel = () => {
        if (d.settled) return;
        own?.abort();
        settle(true);
        reject(caller?.aborted ? new NotAFailure('aborted', 'request aborted by the caller') : new TaskCancelledError(this.timeoutMessage()));
      };
      const d: Deadline = { at: performance.now() + remaining, settled: false, expire: cancel };
      if (caller) {
        if (caller.aborted) return cancel();
        caller.addEventListener('abort', cancel, { once: true });
      }
      armLater(d);
      let pending: Promise<T>;
      try {
        pending = fn(signal);
      } catch (error) {
        return fail(error);
      }
      pending.then((value) => {
        if (d.settled) return;
        settle(false);
        resolve(value);
      }, fail);
    });
  }
}

