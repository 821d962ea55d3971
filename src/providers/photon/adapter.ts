import type { AddressComponents, GeoPoint } from '../../contract/address.js';
import type { SuggestionType } from '../../contract/autocomplete.js';
import type { HttpClient } from '../http.js';
import { type AutocompleteQuery, type GeocodeQuery, type Provider, type ProviderCandidate, ProviderSkipped } from '../provider.js';
import { mapPhotonFeature } from './map.js';
import { PhotonResponse } from './wire.js';
import { photonReverse } from './reverse.js';

/**
 * Photon (OpenStreetMap, world-wide): `/api` serves both validate and autocomplete.
 * `lang` is sent when Photon supports the language (the public instance: de, en, fr; any
 * other value is a 400 there). Photon has no country filter, so results from another
 * country than the requested one are dropped here. The customer's position goes as `lat`/`lon`
 * (Photon's location bias), the kinds wanted as `layer` where Photon has one for each.
 */
export interface PhotonOptions {
  baseUrl: string;
  http: HttpClient;
  /** Results asked for per validate call. */
  limit?: number;
  languages?: readonly string[];
}

const DEFAULT_LANGUAGES = ['de', 'en', 'fr'];

export function photonQueryText(query: GeocodeQuery): string {
  if (query.query?.trim()) return query.query.trim();
  const c: AddressComponents = query.components;
  // The country code stays out of the text: Photon would read "NL" as a word to match.
  return [[c.street, c.houseNumber].filter(Boolean).join(' '), [c.postcode, c.city].filter(Boolean).join(' '), c.state]
    .filter(Boolean)
    .join(', ');
}

/**
 * Photon's `layer` filter for the kinds wanted; undefined where Photon has no layer for one of them
 * (postcodes), so the engine filters what comes back instead.
 */
const LAYERS: Partial<Record<SuggestionType, readonly string[]>> = {
  address: ['house'],
  street: ['street'],
  locality: ['city', 'district', 'locality'],
};
export function photonLayers(types: readonly SuggestionType[] | undefined): string[] | undefined {
  if (!types) return undefined;
  const layers = types.map((t) => LAYERS[t]);
  return layers.every((l) => l !== undefined) ? layers.flat() : undefined;
}

interface Search {
  q: string;
  limit: number;
  country?: string | undefined;
  language?: string | undefined;
  /** The customer's position: Photon's location bias (`lat`, `lon`). */
  near?: GeoPoint | undefined;
  types?: readonly SuggestionType[] | undefined;
}

export function createPhotonProvider(opts: PhotonOptions): Provider {
  const base = opts.baseUrl.replace(/\/+$/, '');
  const languages = opts.languages ?? DEFAULT_LANGUAGES;

  const search = async ({ q, limit, country, language, near, types }: Search, signal: AbortSignal) => {
    const url = new URL(`${base}/api`);
    url.searchParams.set('q', q);
    const wanted = country?.toUpperCase();
    const layers = photonLayers(types);
    // Over-fetch when filtering by country, or by kinds Photon cannot filter, so `limit` results remain.
    const spare = (wanted ? 2 : 1) * (types && !layers ? 3 : 1);
    url.searchParams.set('limit', String(Math.min(50, limit * spare)));
    const lang = language?.split(/[-_]/)[0]?.toLowerCase();
    if (lang && languages.includes(lang)) url.searchParams.set('lang', lang);
    if (near) {
      url.searchParams.set('lat', String(near.lat));
      url.searchParams.set('lon', String(near.lng));
    }
    for (const layer of layers ?? []) url.searchParams.append('layer', layer);
    const body = await opts.http.getJson(url, PhotonResponse, signal);
    return body.features
      .filter((f) => !wanted || !f.properties.countrycode || f.properties.countrycode.toUpperCase() === wanted)
      .slice(0, limit)
      .map(mapPhotonFeature);
  };

  return {
    id: 'photon',
    covers: () => true,
    ranksByNear: true,
    async geocode(query: GeocodeQuery, signal: AbortSignal): Promise<ProviderCandidate[]> {
      const q = photonQueryText(query);
      if (!q) throw new ProviderSkipped('nothing to search for');
      return search({ q, limit: opts.limit ?? 5, country: query.country ?? query.components.country, language: query.language, near: query.near }, signal);
    },
    autocomplete(query: AutocompleteQuery, signal: AbortSignal): Promise<ProviderCandidate[]> {
      return search({ ...query, q: query.query }, signal);
    },
    reverse: (query, signal) => photonReverse(base, opts.http, languages, query, signal),
  };
}
