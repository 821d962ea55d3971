import type { AddressComponents } from '../../contract/address.js';
import type { HttpClient } from '../http.js';
import { type AutocompleteQuery, type GeocodeQuery, type Provider, type ProviderCandidate, ProviderSkipped } from '../provider.js';
import { mapPhotonFeature } from './map.js';
import { PhotonResponse } from './wire.js';
import { photonReverse } from './reverse.js';

/**
 * Photon (OpenStreetMap, world-wide): `/api` serves both validate and autocomplete.
 * `lang` is sent when Photon supports the language (the public instance: de, en, fr; any
 * other value is a 400 there). Photon has no country filter, so results from another
 * country than the requested one are dropped here.
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

export function createPhotonProvider(opts: PhotonOptions): Provider {
  const base = opts.baseUrl.replace(/\/+$/, '');
  const languages = opts.languages ?? DEFAULT_LANGUAGES;

  const search = async (q: string, limit: number, country: string | undefined, language: string | undefined, signal: AbortSignal) => {
    const url = new URL(`${base}/api`);
    url.searchParams.set('q', q);
    const wanted = country?.toUpperCase();
    // Over-fetch when filtering by country, so the filter still leaves `limit` results.
    url.searchParams.set('limit', String(wanted ? Math.min(50, limit * 2) : limit));
    const lang = language?.split(/[-_]/)[0]?.toLowerCase();
    if (lang && languages.includes(lang)) url.searchParams.set('lang', lang);
    const body = await opts.http.getJson(url, PhotonResponse, signal);
    return body.features
      .filter((f) => !wanted || !f.properties.countrycode || f.properties.countrycode.toUpperCase() === wanted)
      .slice(0, limit)
      .map(mapPhotonFeature);
  };

  return {
    id: 'photon',
    covers: () => true,
    async geocode(query: GeocodeQuery, signal: AbortSignal): Promise<ProviderCandidate[]> {
      const q = photonQueryText(query);
      if (!q) throw new ProviderSkipped('nothing to search for');
      return search(q, opts.limit ?? 5, query.country ?? query.components.country, query.language, signal);
    },
    autocomplete(query: AutocompleteQuery, signal: AbortSignal): Promise<ProviderCandidate[]> {
      return search(query.query, query.limit, query.country, query.language, signal);
    },
    reverse: (query, signal) => photonReverse(base, opts.http, languages, query, signal),
  };
}
