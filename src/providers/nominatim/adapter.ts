import type { GeoPoint } from '../../contract/address.js';
import type { HttpClient } from '../http.js';
import { type GeocodeQuery, type Provider, type ProviderCandidate, ProviderSkipped } from '../provider.js';
import type { SlotThrottle } from '../throttle.js';
import { mapNominatimPlace } from './map.js';
import { NominatimSearchResponse } from './wire.js';
import { nominatimReverse } from './reverse.js';

/**
 * Nominatim (OpenStreetMap, world-wide) `/search`, validate only: its usage policy forbids
 * autocomplete, so `autocomplete` is absent and the runner reports `unsupported` at no cost.
 * Free-form `q=` when the caller sent text; structured parameters when it sent components.
 * On the public instance a SlotThrottle keeps us to 1 request/s (see registry.ts).
 */
export interface NominatimOptions {
  baseUrl: string;
  http: HttpClient;
  throttle?: SlotThrottle;
  limit?: number;
}

export const PUBLIC_NOMINATIM_HOST = 'nominatim.openstreetmap.org';

export function isPublicNominatim(baseUrl: string): boolean {
  return new URL(baseUrl).hostname.toLowerCase() === PUBLIC_NOMINATIM_HOST;
}

/** Search parameters: `q`, or Nominatim's structured fields (`street` is "<number> <name>"). */
export function nominatimSearchParams(query: GeocodeQuery): [string, string][] {
  if (query.query?.trim()) return [['q', query.query.trim()]];
  const c = query.components;
  const street = [c.houseNumber, c.street].filter(Boolean).join(' ');
  const params: [string, string][] = [];
  if (street) params.push(['street', street]);
  if (c.city) params.push(['city', c.city]);
  if (c.postcode) params.push(['postalcode', c.postcode]);
  if (c.state) params.push(['state', c.state]);
  if (c.country) params.push(['country', c.country]);
  return params;
}

/** Half the side of the `viewbox` around the customer's position, in degrees of latitude (about 50 km). */
export const VIEWBOX_HALF_DEG = 0.45;

/**
 * Nominatim's `viewbox` (`<left>,<top>,<right>,<bottom>` in degrees) around the customer's position,
 * sent without `bounded`: places inside are preferred, those outside still found. About 100 km
 * across at any latitude; clamped at the poles and the antimeridian rather than wrapped.
 */
export function nominatimViewbox(near: GeoPoint): string {
  const halfLng = Math.min(180, VIEWBOX_HALF_DEG / Math.max(0.01, Math.cos((near.lat * Math.PI) / 180)));
  const clamp = (v: number, max: number) => Math.max(-max, Math.min(max, v));
  const r = (v: number) => String(Math.round(v * 1e5) / 1e5);
  return [
    clamp(near.lng - halfLng, 180),
    clamp(near.lat + VIEWBOX_HALF_DEG, 90),
    clamp(near.lng + halfLng, 180),
    clamp(near.lat - VIEWBOX_HALF_DEG, 90),
  ].map(r).join(',');
}

export function createNominatimProvider(opts: NominatimOptions): Provider {
  const base = opts.baseUrl.replace(/\/+$/, '');
  return {
    id: 'nominatim',
    covers: () => true,
    async geocode(query: GeocodeQuery, signal: AbortSignal): Promise<ProviderCandidate[]> {
      const search = nominatimSearchParams(query);
      if (search.length === 0) throw new ProviderSkipped('nothing to search for');
      const url = new URL(`${base}/search`);
      for (const [k, v] of search) url.searchParams.set(k, v);
      url.searchParams.set('format', 'jsonv2');
      url.searchParams.set('addressdetails', '1');
      url.searchParams.set('limit', String(opts.limit ?? 5));
      const country = query.country ?? query.components.country;
      if (country) url.searchParams.set('countrycodes', country.toLowerCase());
      if (query.language) url.searchParams.set('accept-language', query.language);
      if (query.near) url.searchParams.set('viewbox', nominatimViewbox(query.near));
      await opts.throttle?.acquire(signal);
      const places = await opts.http.getJson(url, NominatimSearchResponse, signal);
      return places.map(mapNominatimPlace);
    },
    // Reverse look-up is within its usage policy (one place per call, under the same 1 request/s).
    reverse: (query, signal) => nominatimReverse(base, opts.http, opts.throttle, query, signal),
  };
}
