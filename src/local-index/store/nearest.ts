import { haversineMeters, type LatLng } from '../../lib/sphere.js';
import { streetColumns } from './queries.js';

/** An address point a spatial index found near a position, with its great-circle distance once measured. */
export interface NearCandidate {
  id: number;
  lat: number;
  lng: number;
  distanceM?: number;
}

export type Measured = NearCandidate & { distanceM: number };

/**
 * The candidates within `radiusM` of `center`, nearest first, ties by id: both stores order the
 * same addresses the same way (haversine distance, measured here, never by the database).
 */
export function nearestFirst(candidates: NearCandidate[], center: LatLng, radiusM: number): Measured[] {
  return candidates
    .map((c) => ({ ...c, distanceM: haversineMeters(center, c) }))
    .filter((c) => c.distanceM <= radiusM)
    .sort((a, b) => a.distanceM - b.distanceM || a.id - b.id);
}

/**
 * Addresses with their streets by id (`n` placeholders), in the columns `toAddressHit` reads plus
 * `a_id`. `t` is the table prefix, as in queries.ts; PostgreSQL joins on the country too (its partition key).
 */
export function addressesByIdSql(t: string, n: number): string {
  return `SELECT ${streetColumns}, a.id AS a_id, a.hn, a.hn_key, a.postcode AS a_postcode, a.lat AS a_lat, a.lng AS a_lng, a.units AS a_units
          FROM ${t}addresses a JOIN ${t}streets s ON s.id = a.street_id${t ? ' AND s.country = a.country' : ''}
          WHERE a.id IN (${Array.from({ length: n }, () => '?').join(', ')})`;
}
