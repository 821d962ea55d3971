import type { AddressComponents } from '../../contract/address.js';
import { cityStateNames } from '../../address/compare.js';
import { placeNames } from '../place-names.js';
import { singlePostcode } from '../postcode-list.js';
import type { Precision, ProviderCandidate } from '../provider.js';
import { nominatimPlaces } from './places.js';
import type { NominatimPlace } from './wire.js';

/** Where OSM puts the street of an address, in order of preference. */
const STREET_KEYS = ['road', 'pedestrian', 'footway', 'path', 'cycleway', 'square'];
/** Where it puts the town: a city, town, village… depending on the place's size. */
const CITY_KEYS = ['city', 'town', 'village', 'municipality', 'hamlet'];
/** Keys of places that may lie inside a municipality of the same key (a village in a village). */
const SMALL_KEYS = ['village', 'municipality', 'hamlet'];

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
 * The town a person writes: `city` or `town` when named; else the village (or hamlet), unless
 * `display_name` names a place just above it that `address` lost (the village's municipality,
 * also an OSM `village`): Rotenboden lies in Triesenberg, and people write Triesenberg.
 */
function townOf(a: Record<string, string>, names: string[], hidden: Set<string>): string | undefined {
  const big = a.city ?? a.town;
  if (big) return big;
  const small = first(a, SMALL_KEYS);
  if (!small) return undefined;
  const at = names.indexOf(small);
  return (at >= 0 ? names.slice(at + 1).find((n) => hidden.has(n)) : undefined) ?? small;
}

/**
 * `importance` ranks how prominent a place is (Wikipedia links, size), not how well it
 * matches the query, so it is not exposed as providerConfidence (left absent).
 */
export function mapNominatimPlace(place: NominatimPlace): ProviderCandidate {
  const a = place.address ?? {};
  const components: AddressComponents = {};
  const street = first(a, STREET_KEYS);
  const places = nominatimPlaces(place.display_name, a, [place.name ?? '', a.house_number ?? '', street ?? '']);
  // A city-state's answer names quarters, never a town: the country is the town (`98000 Monaco`).
  const city = townOf(a, places.names, places.hidden) ?? (cityStateNames(a.country_code).length > 0 ? a.country : undefined);
  const state = a.state ?? a.region;
  if (street) components.street = street;
  if (a.house_number) components.houseNumber = a.house_number;
  const postcode = singlePostcode(a.postcode);
  if (postcode) components.postcode = postcode;
  if (city) components.city = city;
  if (state) components.state = state;
  if (a.country_code && /^[a-z]{2}$/i.test(a.country_code)) components.country = a.country_code.toUpperCase();
  const candidate: ProviderCandidate = { components, precision: nominatimPrecision(place), label: place.display_name, raw: place };
  const names = places.names.includes(city ?? '') ? places.names : placeNames(city, ...places.names);
  if (names?.length) candidate.placeNames = names;
  const lat = Number(place.lat);
  const lng = Number(place.lon);
  if (Math.abs(lat) <= 90 && Math.abs(lng) <= 180) candidate.location = { lat, lng };
  return candidate;
}
