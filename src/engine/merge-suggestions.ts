import type { Suggestion } from '../contract/autocomplete.js';
import { normalizeText } from '../address/normalize.js';
import type { ProviderAttempt } from './fan-out.js';

/**
 * Merges provider suggestion lists: round-robin by rank in provider order (each provider's own
 * order is kept, and no single provider crowds out the others), first occurrence of a label wins
 * (labels compared after normalization), cut at `limit`. Labels are written one way for every
 * provider (`Damrak 1, 1012 LG Amsterdam`), so the same address from two providers is one
 * suggestion and the list reads consistently; the country is added only when none was asked for.
 */
export function mergeSuggestions(attempts: ProviderAttempt[], limit: number, country?: string): Suggestion[] {
  const lists = attempts.map((attempt) =>
    attempt.candidates.map(
      (c): Suggestion => ({
        label: formatLabel(c.components, country === undefined) || c.label || '',
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

/** Countries that write the house number before the street (`221B Baker Street`). */
const NUMBER_FIRST = new Set(['GB', 'US', 'FR', 'IE', 'CA', 'AU', 'NZ', 'LU', 'IL', 'ZA']);

/** One display label for every provider: `Street 1, 1012 AB City[, CC]`, in the country's order. */
export function formatLabel(c: Suggestion['components'], withCountry: boolean): string {
  const numberFirst = c.country !== undefined && NUMBER_FIRST.has(c.country.toUpperCase());
  const street = (numberFirst ? [c.houseNumber, c.street] : [c.street, c.houseNumber]).filter(Boolean).join(' ');
  const place = [c.postcode, c.city].filter(Boolean).join(' ');
  if (!street && !place) return '';
  return [street, place, withCountry ? c.country : undefined].filter(Boolean).join(', ');
}
