import type { AddressComponents } from '../../contract/address.js';
import { singlePostcode } from '../postcode-list.js';
import type { Precision, ProviderCandidate } from '../provider.js';
import type { NominatimPlace } from './wire.js';

/** Where OSM puts the street of an address, in order of preference. */
const STREET_KEYS = ['road', 'pedestrian', 'footway', 'path', 'cycleway', 'square'];
/** Where it puts the town: a city, town, village… depending on the place's size. */
const CITY_KEYS = ['city', 'town', 'village', 'municipality', 'hamlet'];

function first(address: Record<string, string>, keys: readonly string[]): string | undefined {
  for (const key of keys) if (address[key]) return address[key];
  return undefined;
}

/**
 * From `addresstype`/`type` and `place_rank` (30 address point, 26-27 street, 21-25 postcode
 * or suburb, 13-20 town, 5-12 region, 4 country). A rank-30 POI without a house number is
 * only as precise as its street.
 */
export function nominatimPrecision(place: NominatimPlace): Precision {
  const address = place.address ?? {};
  if (place.addresstype === 'postcode' || place.type === 'postcode') return 'postcode';
  const rank = place.place_rank;
  if (rank === undefined) {
    if (address.house_number) return 'address';
    if (first(address, STREET_KEYS)) return 'street';
    return first(address, CITY_KEYS) ? 'locality' : 'region';
  }
  if (rank >= 28) return address.house_number ? 'address' : 'street';
  if (rank >= 26) return 'street';
  if (rank >= 13) return 'locality';
  if (rank >= 5) return 'region';
  return 'country';
}

/**
 * `importance` ranks how prominent a place is (Wikipedia links, size), not how well it
 * matches the query, so it is not exposed as providerConfidence (left absent).
 */
export function mapNominatimPlace(place: NominatimPlace): ProviderCandidate {
  const a = place.address ?? {};
  const components: AddressComponents = {};
  const street = first(a, STREET_KEYS);
  const city = first(a, CITY_KEYS);
  const state = a.state ?? a.region;
  if (street) components.street = street;
  if (a.house_number) components.houseNumber = a.house_number;
  const postcode = singlePostcode(a.postcode);
  if (postcode) components.postcode = postcode;
  if (city) components.city = city;
  if (state) components.state = state;
  if (a.country_code && /^[a-z]{2}$/i.test(a.country_code)) components.country = a.country_code.toUpperCase();
  const candidate: ProviderCandidate = { components, precision: nominatimPrecision(place), label: place.display_name, raw: place };
  const lat = Number(place.lat);
  const lng = Number(place.lon);
  if (Math.abs(lat) <= 90 && Math.abs(lng) <= 180) candidate.location = { lat, lng };
  return candidate;
}
