import type { RankedStreet } from './streets.js';

/** How near a town-less piece of a street must lie to a same-named street of a town to be that street. */
const SAME_STREET_METRES = 1500;

/**
 * Offered streets, each once: a street whose addresses carry no town (a source without
 * `addr:city` and without boundaries) is left out when a street of the same name with a town
 * lies within SAME_STREET_METRES, so autocomplete does not offer `Bahnhofstrasse` next to
 * `Bahnhofstrasse, Schaan`. Further away it is another street and stays. Order is kept.
 */
export function foldTownless(streets: readonly RankedStreet[]): RankedStreet[] {
  const named = streets.filter((s) => s.street.city);
  return streets.filter(({ street }) => {
    if (street.city) return true;
    const name = street.street.toLowerCase();
    return !named.some(
      (other) => other.street.country === street.country && other.street.street.toLowerCase() === name && metresBetween(street, other.street) <= SAME_STREET_METRES,
    );
  });
}

/** Equirectangular distance: exact enough at street scale. */
function metresBetween(a: { lat: number; lng: number }, b: { lat: number; lng: number }): number {
  const rad = Math.PI / 180;
  const x = (b.lng - a.lng) * rad * Math.cos(((a.lat + b.lat) / 2) * rad);
  const y = (b.lat - a.lat) * rad;
  return Math.sqrt(x * x + y * y) * 6_371_000;
}
