import type { HttpClient } from '../http.js';
import type { ProviderCandidate, ReverseQuery } from '../provider.js';
import { mapPhotonFeature } from './map.js';
import { PhotonResponse } from './wire.js';

/**
 * Photon `/reverse`: `lat`, `lon`, `radius` in kilometres, `limit`, `layer=house` (address points
 * only), `lang` where the instance speaks it; the answer is `/api`'s FeatureCollection, nearest first.
 */
export async function photonReverse(base: string, http: HttpClient, languages: readonly string[], query: ReverseQuery, signal: AbortSignal): Promise<ProviderCandidate[]> {
  const url = new URL(`${base}/reverse`);
  url.searchParams.set('lat', String(query.lat));
  url.searchParams.set('lon', String(query.lng));
  url.searchParams.set('radius', String(query.radiusMeters / 1000));
  url.searchParams.set('limit', String(query.limit));
  url.searchParams.set('layer', 'house');
  const lang = query.language?.split(/[-_]/)[0]?.toLowerCase();
  if (lang && languages.includes(lang)) url.searchParams.set('lang', lang);
  const body = await http.getJson(url, PhotonResponse, signal);
  return body.features.map(mapPhotonFeature);
}
