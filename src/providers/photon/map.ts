import type { AddressComponents } from '../../contract/address.js';
import { formatLabel } from '../label.js';
import { placeNames } from '../place-names.js';
import { singlePostcode } from '../postcode-list.js';
import type { Precision, ProviderCandidate } from '../provider.js';
import type { PhotonFeature, PhotonProperties } from './wire.js';

const PRECISION: Record<string, Precision> = {
  house: 'address',
  street: 'street',
  locality: 'locality',
  district: 'locality',
  city: 'locality',
  county: 'region',
  state: 'region',
  country: 'country',
};

/**
 * Photon's `type` (house/street/city…); older instances omit it, so the parts decide. Photon also
 * types every POI `house`, with or without a house number: one without is only as precise as
 * its street (like Nominatim's rank-30 POIs), or its town when it has no street either.
 */
export function photonPrecision(p: PhotonProperties): Precision {
  if (p.type === 'house' && !p.housenumber) return p.street ? 'street' : 'locality';
  const known = p.type ? PRECISION[p.type] : undefined;
  if (known) return known;
  if (p.housenumber) return 'address';
  if (p.street || p.osm_key === 'highway') return 'street';
  if (p.postcode && !p.city) return 'postcode';
  return 'locality';
}

/** Photon reports no match confidence of its own, so providerConfidence stays absent. */
export function mapPhotonFeature(feature: PhotonFeature): ProviderCandidate {
  const p = feature.properties;
  const precision = photonPrecision(p);
  const components: AddressComponents = {};
  // A street feature names the street in `name`; a city feature names the city there.
  const street = p.street ?? (precision === 'street' ? p.name : undefined);
  const city = p.city ?? (p.type === 'city' || p.type === 'locality' ? p.name : undefined);
  if (street) components.street = street;
  if (p.housenumber) components.houseNumber = p.housenumber;
  const postcode = singlePostcode(p.postcode);
  if (postcode) components.postcode = postcode;
  if (city) components.city = city;
  if (p.state) components.state = p.state;
  if (p.countrycode && /^[A-Za-z]{2}$/.test(p.countrycode)) components.country = p.countrycode.toUpperCase();
  const [lng, lat] = feature.geometry.coordinates as [number, number];
  const candidate: ProviderCandidate = {
    components,
    precision,
    label: formatLabel(components, p.name, p.country),
    raw: feature,
  };
  if (Math.abs(lat) <= 90 && Math.abs(lng) <= 180) candidate.location = { lat, lng };
  // Lowest first: Photon's `locality` (a quarter), `district` (a village or suburb), `city` (the municipality), `county`.
  const places = placeNames(p.locality, p.district, city, p.county);
  if (places) candidate.placeNames = places;
  return candidate;
}
