import type { ProviderAttempt } from './fan-out.js';

/** True when every provider that was meant to be called answered: only such results are cached. */
export function everyoneAnswered(attempts: readonly ProviderAttempt[], meant: readonly string[]): boolean {
  if (meant.length === 0) return false;
  return meant.every((id) => attempts.some((a) => a.provider === id && a.answered));
}
