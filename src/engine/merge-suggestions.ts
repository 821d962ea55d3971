import type { GeoPoint } from '../contract/address.js';
import type { Suggestion, SuggestionType, TextMatch } from '../contract/autocomplete.js';
import { labelMatcher } from '../address/label-matches.js';
import { normalizeText } from '../address/normalize.js';
import type { ProviderCandidate } from '../providers/provider.js';
import type { ProviderAttempt } from './fan-out.js';
import { nearDecay } from './near.js';
import { postalLines } from './postal-lines.js';
import { suggestionType } from './suggestion-type.js';
import { listsUnits } from './unit-verdict.js';

export interface MergeOptions {
  /** The request's country: the label names the country only where it differs. */
  country?: string;
  /** The unit typed after the house, set aside from the provider query and carried back here. */
  unit?: string;
  /** What the user typed, unit included: the `matches` of each label are of this text. */
  query?: string;
  /** Kinds wanted: other suggestions are dropped (for providers that could not filter themselves). */
  types?: readonly SuggestionType[];
  /** The customer's position: re-ranks the lists of providers that do not rank by it themselves. */
  near?: GeoPoint;
  /** Whether a provider's own order already uses `near` (Provider.ranksByNear). */
  ranksByNear?: (provider: string) => boolean;
}

/**
 * Weight of the distance decay (near.ts) against the text rank, which runs from 1 (a provider's first)
 * down towards 0 (its last): a match at the customer's door outranks the provider's best text match
 * 100 km away, while at equal distance the provider's own order stands.
 */
export const NEAR_WEIGHT = 1;

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
  const lists = attempts.map(({ candidates, provider }) => ({ provider, candidates: ranked(candidates, provider, options) }));
  // The typed text is read once for every label's `matches`, per country a label is of.
  const matchers = new Map<string | undefined, (label: string) => TextMatch[]>();
  const matches = (label: string, country: string | undefined): TextMatch[] => {
    if (!options.query) return [];
    let match = matchers.get(country);
    if (!match) matchers.set(country, (match = labelMatcher(options.query, country)));
    return match(label);
  };
  const longest = Math.max(0, ...lists.map((a) => a.candidates.length));
  for (let rank = 0; rank < longest && merged.length < limit; rank += 1) {
    for (const { candidates, provider } of lists) {
      const candidate = candidates[rank];
      // Formatted only once its turn comes: the candidates past `limit` are never written out.
      const suggestion = candidate && toSuggestion(candidate, provider, options, matches);
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
 * A provider's list with the kinds not wanted taken out and, given `near`, blended with distance
 * where the provider did not rank by it: text rank (1 for its first, falling evenly) plus
 * NEAR_WEIGHT × nearDecay; ties keep the provider's order.
 */
function ranked(candidates: readonly ProviderCandidate[], provider: string, { types, near, ranksByNear }: MergeOptions): readonly ProviderCandidate[] {
  const wanted = types ? candidates.filter((c) => types.includes(suggestionType(c))) : candidates;
  if (!near || ranksByNear?.(provider)) return wanted;
  const n = wanted.length;
  return wanted
    .map((c, i) => ({ c, score: 1 - i / n + NEAR_WEIGHT * nearDecay(near, c.location) }))
    .sort((a, b) => b.score - a.score)
    .map(({ c }) => c);
}

/**
 * One candidate as a suggestion. A typed unit belongs to a house, so only a house-level suggestion
 * carries it; a house whose data lists two or more units, chosen without one, asks for it.
 */
function toSuggestion(c: ProviderCandidate, provider: string, { country, unit }: MergeOptions, matches: (label: string, country: string | undefined) => TextMatch[]): Suggestion {
  const house = c.components.houseNumber !== undefined;
  const components = house && unit ? { ...c.components, unit } : c.components;
  const askUnit = house && !unit && listsUnits(c);
  const label = postalLines(components, country).formatted || c.label || '';
  const type = suggestionType(c);
  const matched = matches(label, components.country ?? country);
  // The answer's fields in its order, written out rather than spread in (every suggestion shown is made here).
  const suggestion: Suggestion = c.location
    ? { label, components, location: c.location, provider, type, matches: matched }
    : { label, components, provider, type, matches: matched };
  if (askUnit) suggestion.action = 'add_unit';
  return suggestion;
}
