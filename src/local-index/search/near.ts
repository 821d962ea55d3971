import type { GeoPoint } from '../../contract/address.js';

/**
 * The customer's position in the ranking (issue 35's `near`), as Pelias's `focus.point`: a street
 * or address's text score is raised by up to NEAR_BOOST times its nearness, which halves every
 * HALF_KM: 0.81 at 3 km, 0.5 at 10 km, 0.03 at 50 km, nothing to speak of beyond 100 km. It ranks;
 * it never changes a hit's score (what the engine judges the match by).
 */
export const HALF_KM = 10;
export const NEAR_BOOST = 0.4;

/**
 * Great-circle distance in km (haversine). The PostgreSQL search function ranks streets with the
 * same arithmetic, step for step (pg-rank-streets.ts: `nearKmSql`).
 */
export function kmBetween(a: GeoPoint, b: GeoPoint): number {
  const rad = Math.PI / 180;
  const sLat = Math.sin(((b.lat - a.lat) * rad) / 2);
  const sLng = Math.sin(((b.lng - a.lng) * rad) / 2);
  const h = sLat * sLat + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * (sLng * sLng);
  return 2 * 6371 * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** 1 at the position, halving every HALF_KM; 0 without a position. */
export function nearness(near: GeoPoint | undefined, at: GeoPoint): number {
  return near ? 0.5 ** (kmBetween(near, at) / HALF_KM) : 0;
}

/** What results are ordered by: the text score, raised by nearness. Without a position, the score itself. */
export function nearRank(score: number, near: GeoPoint | undefined, at: GeoPoint): number {
  return near ? score * (1 + NEAR_BOOST * nearness(near, at)) : score;
}
