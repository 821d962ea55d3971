import type { NextAction } from '../contract/enums.js';
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

/**
 * An unverified answer's next action is `confirm` (issue 34, DESIGN §3): nothing was checked, so
 * the customer confirms what they typed and goes on; `fix` would block a checkout that follows
 * `action` for an outage or a country without data (docs/operating.md says to accept such
 * addresses as typed). The verdict keeps SPEC's shape (invalid, no_results).
 */
export function confirmUnverified<T extends { action: NextAction }>(result: T, unverified: boolean): T {
  return markUnverified(unverified ? { ...result, action: 'confirm' } : result, unverified);
}
