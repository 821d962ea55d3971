import type { Suggestion } from '../contract/autocomplete.js';
import { normalizeText } from '../address/normalize.js';
import type { ProviderAttempt } from './fan-out.js';

/**
 * Merges provider suggestion lists: round-robin by rank in provider order (each provider's own
 * order is kept, and no single provider crowds out the others), first occurrence of a label wins
 * (labels compared after normalization), cut at `limit`.
 */
export function mergeSuggestions(attempts: ProviderAttempt[], limit: number): Suggestion[] {
  const lists = attempts.map((attempt) =>
    attempt.candidates.map(
      (c): Suggestion => ({
        label: c.label ?? formatLabel(c.components),
        components: c.components,
        ...(c.location ? { location: c.location } : {}),
        provider: attempt.provider,
      }),
    ),
  );
  const seen = new Set<string>();
  const merged: Suggestion[] = [];
  const longest = Math.max(0, ...lists.map((l) => l.length));
  for (let rank = 0; rank < longest && merged.length < limit; rank += 1) {
    for (const list of lists) {
      const suggestion = list[rank];
      if (!suggestion || !suggestion.label) continue;
      const key = normalizeText(suggestion.label);
      if (seen.has(key)) continue;
      seen.add(key);
      merged.push(suggestion);
      if (merged.length >= limit) break;
    }
  }
  return merged;
}

/** A display label for providers that send none: `Street 1, 1012 AB City`. */
export function formatLabel(c: Suggestion['components']): string {
  const street = [c.street, c.houseNumber].filter(Boolean).join(' ');
  const place = [c.postcode, c.city].filter(Boolean).join(' ');
  return [street, place, c.country].filter(Boolean).join(', ');
}
