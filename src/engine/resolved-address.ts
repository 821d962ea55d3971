import type { ResolvedAddress } from '../contract/address.js';
import { postalLines } from './postal-lines.js';
import type { ScoredCandidate } from './types.js';

type Located = ScoredCandidate & { location: { lat: number; lng: number } };

/** Only a result with usable coordinates can become the standardized address. */
export function hasCoordinates(c: ScoredCandidate): c is Located {
  const p = c.location;
  return !!p && Number.isFinite(p.lat) && Number.isFinite(p.lng) && Math.abs(p.lat) <= 90 && Math.abs(p.lng) <= 180;
}

/**
 * A result as the standardized address: its components, the unit the input gave (the data's
 * house, the person's flat), and the postal lines of both; the country line only when the
 * request's country is another (postal-lines.ts).
 */
export function resolvedAddress(c: Located, unit: string | undefined, requestCountry: string | undefined): ResolvedAddress {
  const { unit: _dataUnit, ...components } = c.components;
  const address = { ...components, ...(unit ? { unit } : {}) };
  return { ...address, lat: c.location.lat, lng: c.location.lng, ...postalLines(address, requestCountry) };
}
