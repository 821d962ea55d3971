import type { Suggestion } from '../contract/autocomplete.js';
import { normalizeText } from '../address/normalize.js';
import type { ProviderCandidate } from '../providers/provider.js';
import type { ProviderAttempt } from './fan-out.js';
import { postalLines } from './postal-lines.js';
import { listsUnits } from './unit-verdict.js';

export interface MergeOptions {
  /** The request's country: the label names the country only where it differs. */
  country?: string;
  /** The unit typed after the house, set aside from the provider query and carried back here. */
  unit?: string;
}

/**
 * Merges provider suggestion lists: round-robin by rank in provider order (each provider's own
 * order is kept, and no single provider crowds out the others), first occurrence of a label wins
 * (labels compared after normalization), cut at `limit`. Labels are the validate answer's postal
 * formatting (`postal-lines.ts`), so the same address from two providers is one suggestion and reads
 * as the checkout will store it.
 */
export function mergeSuggestions(attempts: ProviderAttempt[], limit: number, options: MergeOptions = {}): Suggestion[] {
  const seen = new Set<string>();
  const merged: Suggestion[] = [];
  const longest = Math.max(0, ...attempts.map((a) => a.candidates.length));
  for (let rank = 0; rank < longest && merged.length < limit; rank += 1) {
    for (const { candidates, provider } of attempts) {
      const candidate = candidates[rank];
      // Formatted only once its turn comes: the candidates past `limit` are never written out.
      const suggestion = candidate && toSuggestion(candidate, provider, options);
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

/**
 * One candidate as a suggestion. A typed unit belongs to a house, so only a house-level suggestion
 * carries it; a house whose data lists two or more units, chosen without one, asks for it.
 */
function toSuggestion(c: ProviderCandidate, provider: string, { country, unit }: MergeOptions): Suggestion {
  const house = c.components.houseNumber !== undefined;
  const components = house && unit ? { ...c.components, unit } : c.components;
  const askUnit = house && !unit && listsUnits(c);
  return {
    label: postalLines(components, country).formatted || c.label || '',
    components,
    ...(c.location ? { location: c.location } : {}),
    provider,
    ...(askUnit ? { action: 'add_unit' as const } : {}),
  };
}
