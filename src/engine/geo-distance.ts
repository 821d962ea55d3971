import type { GeoPoint } from '../contract/address.js';
import { haversineMeters } from '../lib/sphere.js';

/** Great-circle (haversine) distance in metres; accurate to well under a metre at the 25 m scale. */
export function distanceMeters(a: GeoPoint, b: GeoPoint): number {
  return haversineMeters(a, b);
}
