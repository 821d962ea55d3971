import type { GeoPoint } from '../contract/address.js';
import { distanceMeters } from './geo-distance.js';

/**
 * The customer's position in ranking (issue 35), one formula for every step that uses it.
 *
 * - Cache cell: `near` rounded to NEAR_CELL_DEG (0.01°: 1.1 km north-south, less east-west away from
 *   the equator), so neighbours share cache entries; providers are asked with the rounded point
 *   too, so an entry is exactly what any request of its cell would have got.
 * - Decay (like Pelias's `focus.point`): 1 at the point, halved every NEAR_HALF_DISTANCE_M (10 km:
 *   0.8 at 3 km, 0.5 at 10 km, 0.125 at 30 km), and 0 from NEAR_MAX_DISTANCE_M (100 km) on.
 */
export const NEAR_CELL_DEG = 0.01;
export const NEAR_HALF_DISTANCE_M = 10_000;
export const NEAR_MAX_DISTANCE_M = 100_000;

export function nearCell(p: GeoPoint): GeoPoint {
  const round = (v: number) => Math.round(v / NEAR_CELL_DEG) * NEAR_CELL_DEG;
  // Two decimals written as such: 52.370000000000005 would make a second key for the same cell.
  return { lat: Number(round(p.lat).toFixed(2)), lng: Number(round(p.lng).toFixed(2)) };
}

/** 0-1: how much being at `location` counts for a customer at `near`. */
export function nearDecay(near: GeoPoint, location: GeoPoint | undefined): number {
  if (!location) return 0;
  const d = distanceMeters(near, location);
  return d >= NEAR_MAX_DISTANCE_M ? 0 : 0.5 ** (d / NEAR_HALF_DISTANCE_M);
}
