import { z } from 'zod';
import type { HttpClient } from '../http.js';
import type { ProviderCandidate, ReverseQuery } from '../provider.js';
import type { SlotThrottle } from '../throttle.js';
import { mapNominatimPlace } from './map.js';
import { NominatimPlace } from './wire.js';

/**
 * Nominatim `/reverse` answers exactly one place, or, where it has nothing there, HTTP 200 with
 * `{"error": "Unable to geocode"}`: a well-formed "no result", not a failure.
 */
const NominatimReverseResponse = z.union([z.looseObject({ error: z.string() }), NominatimPlace]);

/** `format=jsonv2`, `addressdetails=1`, `zoom=18` (building level: the house, not the street or the town). */
export async function nominatimReverse(base: string, http: HttpClient, throttle: SlotThrottle | undefined, query: ReverseQuery, signal: AbortSignal): Promise<ProviderCandidate[]> {
  const url = new URL(`${base}/reverse`);
  url.searchParams.set('lat', String(query.lat));
  url.searchParams.set('lon', String(query.lng));
  url.searchParams.set('format', 'jsonv2');
  url.searchParams.set('addressdetails', '1');
  url.searchParams.set('zoom', '18');
  if (query.language) url.searchParams.set('accept-language', query.language);
  await throttle?.acquire(signal);
  const body = await http.getJson(url, NominatimReverseResponse, signal);
  return 'place_id' in body ? [mapNominatimPlace(body as NominatimPlace)] : [];
}
