import type { ProviderAttempt } from './fan-out.js';

/**
 * "Nothing was checked" (every provider called failed, timed out or had an open circuit, or no
 * provider has data for the query's country, e.g. `PROVIDERS=local` with an empty index) is not
 * "the providers found nothing": the answer keeps SPEC's shape (invalid, no_results, 0 credits,
 * not cached) but the HTTP layer must be able to say so (header `X-Addressd-Unverified`). The
 * mark is a symbol key: it travels with the result object through spreads and never reaches the
 * JSON body.
 */
const UNVERIFIED = Symbol('providers-unavailable');

type Marked = { [UNVERIFIED]?: true };

/** True when no provider answered: none was called, or every one called failed. */
export function nobodyAnswered(attempts: readonly Pick<ProviderAttempt, 'answered'>[]): boolean {
  return !attempts.some((a) => a.answered);
}

export function markUnverified<T extends object>(result: T, unverified: boolean): T {
  if (unverified) (result as T & Marked)[UNVERIFIED] = true;
  return result;
}

export function isUnverified(result: object): boolean {
  return (result as Marked)[UNVERIFIED] === true;
}
