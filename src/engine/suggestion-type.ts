import type { SuggestionType } from '../contract/autocomplete.js';
import type { ProviderCandidate } from '../providers/provider.js';

/**
 * The kind of place a suggestion is (issue 35), from the precision every adapter reports: a house,
 * a whole street, a postcode area, or a place (town, village; a region or country is the broadest
 * place a provider offers, and is typed `locality` too).
 */
export function suggestionType(c: Pick<ProviderCandidate, 'precision'>): SuggestionType {
  switch (c.precision) {
    case 'address':
    case 'street':
    case 'postcode':
      return c.precision;
    default:
      return 'locality';
  }
}
