/** A position in WGS 84 degrees (the contract's GeoPoint, restated here: lib imports nothing of src/). */
export interface LatLng {
  lat: number;
  lng: number;
}

/** Mean Earth radius (IUGG), metres. */
export const EARTH_RADIUS_M = 6_371_008.8;

const RAD = Math.PI / 180;

/** Great-circle (haversine) distance in metres: exact on the sphere, across the antimeridian and at the poles. */
export function haversineMeters(a: LatLng, b: LatLng): number {
  const dLat = (b.lat - a.lat) * RAD;
  const dLng = (b.lng - a.lng) * RAD;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * RAD) * Math.cos(b.lat * RAD) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** A latitude/longitude rectangle that never crosses the antimeridian (`west <= east`). */
export interface GeoBox {
  south: number;
  north: number;
  west: number;
  east: number;
}

/**
 * Rectangles that together hold every point within `radiusM` of `center` (the spherical cap):
 * latitudes ±r/R; longitudes ±asin(sin(r/R)/cos φ), the meridians tangent to the cap (Matuschek,
 * "Finding points within a distance of a latitude/longitude"). A cap over a pole takes every
 * longitude; one across the antimeridian is cut in two rectangles.
 */
export function capBoxes(center: LatLng, radiusM: number): GeoBox[] {
  const angular = radiusM / EARTH_RADIUS_M;
  const south = center.lat - angular / RAD;
  const north = center.lat + angular / RAD;
  if (south <= -90 || north >= 90 || angular >= Math.PI / 2) {
    return [{ south: Math.max(-90, south), north: Math.min(90, north), west: -180, east: 180 }];
  }
  const ratio = Math.sin(angular) / Math.cos(center.lat * RAD);
  const dLng = ratio >= 1 ? 180 : Math.asin(ratio) / RAD;
  if (dLng >= 180) return [{ south, north, west: -180, east: 180 }];
  const west = center.lng - dLng;
  const east = center.lng + dLng;
  if (west < -180) return [{ south, north, west: west + 360, east: 180 }, { south, north, west: -180, east }];
  if (east > 180) return [{ south, north, west, east: 180 }, { south, north, west: -180, east: east - 360 }];
  return [{ south, north, west, east }];
}

/**
 * A lower bound of the great-circle distance (metres) to any point whose planar distance in
 * degrees from `center` (longitude difference taken the short way round) is at least `degrees`,
 * among the points within `radiusM`: on the cap every parallel is at least cos φmax as long as
 * the equator's, so no path between two of its points is shorter than R·cos φmax times the planar
 * one. Zero when the cap reaches a pole (no bound there).
 */
export function planarLowerBoundMeters(center: LatLng, radiusM: number, degrees: number): number {
  const maxLat = Math.abs(center.lat) + radiusM / EARTH_RADIUS_M / RAD;
  if (maxLat >= 90) return 0;
  return EARTH_RADIUS_M * Math.cos(maxLat * RAD) * degrees * RAD;
}
