import type { IndexStore, StreetHit } from '../store/store.js';
import { streetTokens } from '../text.js';
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

/**
 * The streets whose house numbers the index holds whole: those with no same-named piece of the
 * other kind (with a town / without one) within SAME_STREET_METRES, whose houses may be the
 * same street's. A number absent from a split street is not known to be absent (issue 34).
 */
export async function wholeStreets(store: IndexStore, streets: readonly StreetHit[]): Promise<Set<number>> {
  const names = new Map<string, StreetHit>();
  for (const s of streets) names.set(`${s.country}|${s.street.toLowerCase()}`, s);
  const sameNamed: StreetHit[] = [];
  for (const s of names.values()) {
    const words = streetTokens(s.street, s.country);
    if (words.length > 0) sameNamed.push(...(await store.findStreets(words.map((word) => [{ word, prefix: false }]), s.country, 60)));
  }
  const whole = new Set<number>();
  for (const s of streets) {
    const name = s.street.toLowerCase();
    const split = sameNamed.some((o) => o.id !== s.id && o.country === s.country && o.street.toLowerCase() === name && !o.city !== !s.city && metresBetween(s, o) <= SAME_STREET_METRES);
    if (!split) whole.add(s.id);
  }
  return whole;
}

/** Equirectangular distance: exact enough at street scale. */
function metresBetween(a: { lat: number; lng: number }, b: { lat: number; lng: number }): number {
  const rad = Math.PI / 180;
  const x = (b.lng - a.lng) * rad * Math.cos(((a.lat + b.lat) / 2) * rad);
  const y = (b.lat - a.lat) * rad;
  return Math.sqrt(x * x + y * y) * 6_371_000;
}
