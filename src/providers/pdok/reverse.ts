import type { GeoPoint } from '../../contract/address.js';
import type { HttpClient } from '../http.js';
import type { ProviderCandidate, ReverseQuery } from '../provider.js';
import { mapPdokDoc } from './map.js';
import { PDOK_FIELDS, PdokResponse } from './wire.js';

/** The Netherlands (BAG's European part) with its coastal waters: PDOK has no address outside it. */
const NETHERLANDS = { south: 50.7, north: 53.7, west: 3.2, east: 7.3 };

export function inNetherlands(p: GeoPoint): boolean {
  return p.lat >= NETHERLANDS.south && p.lat <= NETHERLANDS.north && p.lng >= NETHERLANDS.west && p.lng <= NETHERLANDS.east;
}

/**
 * Locatieserver v3_1 `/reverse`: `lat`/`lon` (WGS 84), `type=adres`, `distance` in metres, `rows`,
 * `fl` (the fields we map and `afstand`, its distance); the Solr envelope of `/free`, nearest first.
 */
export async function pdokReverse(base: string, http: HttpClient, query: ReverseQuery, signal: AbortSignal): Promise<ProviderCandidate[]> {
  const url = new URL(`${base}/reverse`);
  url.searchParams.set('lat', String(query.lat));
  url.searchParams.set('lon', String(query.lng));
  url.searchParams.set('type', 'adres');
  url.searchParams.set('distance', String(query.radiusMeters));
  url.searchParams.set('rows', String(query.limit));
  url.searchParams.set('fl', [...PDOK_FIELDS.filter((f) => f !== 'score'), 'afstand'].join(','));
  const body = await http.getJson(url, PdokResponse, signal);
  return body.response.docs.map((doc) => mapPdokDoc(doc, 0));
}
