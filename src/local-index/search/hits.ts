import type { AddressComponents } from '../../contract/address.js';
import { formatLabel } from '../../providers/label.js';
import { placeNames } from '../../providers/place-names.js';
import { type AddressHit, PLACES_SEPARATOR, type StreetHit } from '../store/store.js';
import type { LocalHit } from '../types.js';

function streetComponents(s: StreetHit): AddressComponents {
  const c: AddressComponents = { street: s.street, country: s.country };
  if (s.city) c.city = s.city;
  if (s.state) c.state = s.state;
  return c;
}

/** The street's town, then its municipality where that is a larger place (Rotenboden, Triesenberg), then its other places (parish, quarter). */
function places(s: StreetHit): string[] | undefined {
  return placeNames(s.city, ...(s.municipality?.split(PLACES_SEPARATOR) ?? []));
}

/**
 * An address's components: its street's, its number, its postcode or else the street's. Written
 * out field by field in streetComponents' order (the order the answer's JSON shows them in): a
 * spread of streetComponents' result, whose shape varies with the fields present, cost most of a
 * hit, and a keystroke labels up to 40 addresses.
 */
function addressComponents(a: AddressHit): AddressComponents {
  const s = a.street;
  const components: AddressComponents = { street: s.street, country: s.country };
  if (s.city) components.city = s.city;
  if (s.state) components.state = s.state;
  components.houseNumber = a.hn;
  const postcode = a.postcode ?? s.postcode;
  if (postcode) components.postcode = postcode;
  return components;
}

/** The label addressToHit gives the address (what `dedupe` tells houses apart by), without the rest of the hit. */
export const addressLabel = (a: AddressHit): string => formatLabel(addressComponents(a));

/**
 * An address as a result. One the source gave no postcode (most OSM points) takes its
 * street's, when every address of the street that has one agrees (as Nominatim does). What
 * the import derived, and a postcode taken from the street, is named in `inferred`.
 */
export function addressToHit(a: AddressHit, score: number): LocalHit {
  const components = addressComponents(a);
  const postcode = components.postcode;
  const inferred = new Set(a.inferred?.filter((c) => components[c] !== undefined));
  if (!a.postcode && postcode) inferred.add('postcode');
  // Optional fields set one by one, not spread in: every address of a keystroke's answer is built here.
  const hit: LocalHit = { components, location: { lat: a.lat, lng: a.lng }, precision: 'address', kind: 'address', score: roundScore(score), label: formatLabel(components) };
  const names = places(a.street);
  if (names) hit.placeNames = names;
  if (a.units) hit.units = a.units;
  if (a.unitsPartial) hit.unitsPartial = true;
  if (a.interpolated) hit.interpolated = true;
  if (inferred.size > 0) hit.inferred = [...inferred].sort();
  return hit;
}

/**
 * A street as a result: its centre, and its postcode when all its addresses share one. Every
 * street of the index holds every number its data gives it (a street is indexed through its
 * numbered addresses), so a number it lacks is absent and one not typed is missing (issue 34).
 */
export function streetToHit(s: StreetHit, score: number): LocalHit {
  const components = streetComponents(s);
  // The label names no postcode: made before the postcode is added.
  const label = formatLabel(components);
  if (s.postcode) components.postcode = s.postcode;
  const hit: LocalHit = { components, location: { lat: s.lat, lng: s.lng }, precision: 'street', kind: 'street', score: roundScore(score), label };
  const names = places(s);
  if (names) hit.placeNames = names;
  hit.houseNumbersKnown = true;
  return hit;
}

/** A hit's score as it is shown (and ranked by `byScore`): within 0-1, to three decimals. */
export const roundScore = (x: number) => Math.round(Math.max(0, Math.min(1, x)) * 1000) / 1000;
