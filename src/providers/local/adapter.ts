import type { LocalHit, LocalIndex } from '../../local-index/index.js';
import type { GeocodeInput } from '../../local-index/types.js';
import type { AutocompleteQuery, GeocodeQuery, Provider, ProviderCandidate } from '../provider.js';

function toCandidate(hit: LocalHit): ProviderCandidate {
  return {
    components: hit.components,
    location: hit.location,
    providerConfidence: hit.score,
    label: hit.label,
    precision: hit.precision,
    ...(hit.placeNames ? { placeNames: hit.placeNames } : {}),
    ...(hit.units ? { units: hit.units } : {}),
    ...(hit.houseNumbersKnown ? { houseNumbersKnown: true } : {}),
    ...(hit.postcodesKnown ? { postcodesKnown: true } : {}),
    raw: { score: hit.score, precision: hit.precision },
  };
}

/** What the local provider asks its index for a geocode query. */
export function localGeocodeInput(query: GeocodeQuery): GeocodeInput {
  return { query: query.query, components: query.components, country: query.country, limit: 5 };
}

/**
 * The `local` provider: the offline index of imported open address data. It covers exactly
 * the countries its index holds (none while it is empty). The index is owned, and closed,
 * by whoever opened it.
 */
export function createLocalProvider(index: LocalIndex): Provider {
  return {
    id: 'local',
    // Listed by /healthz only once the index holds data.
    available: () => index.knownCountries().length > 0,
    covers(country) {
      const countries = index.knownCountries();
      return country === undefined ? countries.length > 0 : countries.includes(country.toUpperCase());
    },
    async geocode(query: GeocodeQuery, signal: AbortSignal): Promise<ProviderCandidate[]> {
      signal.throwIfAborted();
      const hits = await index.geocode(localGeocodeInput(query));
      return hits.map(toCandidate);
    },
    async autocomplete(query: AutocompleteQuery, signal: AbortSignal): Promise<ProviderCandidate[]> {
      signal.throwIfAborted();
      const hits = await index.autocomplete({ query: query.query, country: query.country, limit: query.limit });
      return hits.map(toCandidate);
    },
  };
}
