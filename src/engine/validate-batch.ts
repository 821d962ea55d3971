import type { ValidateRequest, ValidateResponse } from '../contract/validate.js';
import { mapBounded } from '../lib/bounded.js';
import type { CallContext } from './billing.js';
import { CreditsExhaustedError } from './errors.js';
import type { Thresholds } from './types.js';
import type { ValidateEngine } from './validate.js';

/** One item of a batch: answered, or refused because the account ran out of credits (cost nothing). */
export type BatchOutcome = { ok: true; response: ValidateResponse } | { ok: false; exhausted: CreditsExhaustedError };

export interface BatchOptions {
  /** Items in flight at once: a batch must not take every provider slot from other callers. */
  concurrency: number;
  signal?: AbortSignal;
}

/**
 * Validates each request exactly as a single call would (same gate, cache, bill, one usage event
 * each), a few at a time, outcomes in input order. Once one item finds the credits exhausted, the
 * items not yet started are refused without touching the engine; those already running finish.
 * `context(i)` is asked when item i starts, so its latency counts from then.
 */
export async function validateEach(
  engine: ValidateEngine,
  requests: readonly ValidateRequest[],
  context: (index: number) => CallContext & { thresholds: Thresholds },
  options: BatchOptions,
): Promise<BatchOutcome[]> {
  let exhausted: CreditsExhaustedError | undefined;
  return mapBounded(requests, options.concurrency, async (request, index): Promise<BatchOutcome> => {
    if (exhausted) return { ok: false, exhausted };
    try {
      return { ok: true, response: await engine.validate(request, context(index), options.signal) };
    } catch (error) {
      if (!(error instanceof CreditsExhaustedError)) throw error;
      exhausted = error;
      return { ok: false, exhausted: error };
    }
  });
}
