import type { LocalHit, LocalIndex } from '../../local-index/index.js';
import type { GeocodeInput } from '../../local-index/types.js';
import type { AutocompleteQuery, GeocodeQuery, Provider, ProviderCandidate, ReverseQuery } from '../provider.js';

/** Optional fields set one by one, in this order, not spread in: every keystroke's hits pass here. */
function toCandidate(hit: LocalHit): ProviderCandidate {
  const c: ProviderCandidate = { components: hit.components, location: hit.location, providerConfidence: hit.score, label: hit.label, precision: hit.precision };
  if (hit.placeNames) c.placeNames = hit.placeNames;
  if (hit.units) c.units = hit.units;
  if (hit.units && hit.unitsPartial) c.unitsPartial = true;
  if (hit.interpolated) c.interpolated = true;
  if (hit.inferred) c.inferred = hit.inferred;
  if (hit.houseNumbersKnown) c.houseNumbersKnown = true;
  if (hit.postcodesKnown) c.postcodesKnown = true;
  c.raw = { score: hit.score, precision: hit.precision };
  return c;
}

/** What the local provider asks its index for a geocode query. */
export function localGeocodeInput(query: GeocodeQuery): GeocodeInput {
  // The position picks between equal houses (the index ranks by it); it never changes a verdict.
  return { query: query.query, components: query.components, country: query.country, limit: 5, ...(query.near ? { near: query.near } : {}) };
}

/**
 * The `local` provider: the offline index of imported open address data. It covers the
 * countries imports were made for (none while it is empty). The index is owned, and closed,
 * by whoever opened it.
 */
export function createLocalProvider(index: LocalIndex): Provider {
  return {
    id: 'local',
    // Listed by /healthz only once the index holds data.
    available: () => index.knownCountries().length > 0,
    // Only countries an import was made for (or LOCAL_COUNTRIES): a neighbour's border addresses that
    // came along with an extract are searchable, but their country's answers stay unverified.
    covers(country) {
      return country === undefined ? index.knownCountries().length > 0 : index.covered().includes(country.toUpperCase());
    },
    dataGeneration: (country) => index.dataGeneration(country),
    // The index blends text and distance to `near` itself, and filters `types` inside the search (issue 35).
    ranksByNear: true,
    // Searched in our own database: nothing is paid to anyone for asking it.
    ownData: true,
    async geocode(query: GeocodeQuery, signal: AbortSignal): Promise<ProviderCandidate[]> {
      signal.throwIfAborted();
      const hits = await index.geocode(localGeocodeInput(query));
      return hits.map(toCandidate);
    },
    prime: (queries) => index.prime(queries.map(localGeocodeInput)),
    async autocomplete(query: AutocompleteQuery, signal: AbortSignal): Promise<ProviderCandidate[]> {
      signal.throwIfAborted();
      const hits = await index.autocomplete({
        query: query.query,
        country: query.country,
        limit: query.limit,
        ...(query.near ? { near: query.near } : {}),
        ...(query.types ? { types: query.types } : {}),
      });
      return hits.map(toCandidate);
    },
    async reverse(query: ReverseQuery, signal: AbortSignal): Promise<ProviderCandidate[]> {
      signal.throwIfAborted();
      const hits = await index.reverse({ lat: query.lat, lng: query.lng, radiusMeters: query.radiusMeters, limit: query.limit });
      return hits.map(toCandidate);
    },
  };
}
