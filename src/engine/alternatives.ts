import type { GeoPoint, VerdictField } from '../contract/address.js';
import { compareComponent } from '../address/compare.js';
import { distanceMeters } from './geo-distance.js';
import type { ScoredCandidate, Thresholds } from './types.js';

/**
 * `alternatives` (issue 27): other places the input fits nearly as well as the chosen one: the same
 * street and number in two towns when no postcode was typed, a typo two streets could have made.
 *
 * - "Nearly as well": a candidate's own confidence is at most ALTERNATIVE_MARGIN points below the
 *   chosen candidate's (both before the consensus adjustment), and at least the correctable threshold.
 * - "Another place": it differs from the chosen one (and from each alternative already listed) in
 *   the street, the postcode or the town (compareComponent other than `match`, where both carry the
 *   field) and lies more than ALTERNATIVE_MIN_DISTANCE_M away. Providers' answers of the same
 *   address (a consensus: the same house a few metres apart, a town written another way) are not
 *   alternatives.
 * - Only for an input that names a house number, and only candidates whose house number verdict is
 *   the chosen one's: a street typed without a number fits every house of it, which is an incomplete
 *   address (`missing`), not an ambiguous one.
 * At most MAX_ALTERNATIVES, best first; given the customer's position (`near`, issue 35), nearest
 * first instead: every one of them fits nearly as well, and the one nearby is the likelier meant.
 * An answer with alternatives is never `valid` (validate.ts).
 */
export const ALTERNATIVE_MARGIN = 10;
export const ALTERNATIVE_MIN_DISTANCE_M = 150;
export const MAX_ALTERNATIVES = 3;

const PLACE_FIELDS: readonly VerdictField[] = ['street', 'postcode', 'city'];

export function findAlternatives(
  selected: ScoredCandidate | null,
  usable: readonly ScoredCandidate[],
  thresholds: Thresholds,
  near?: GeoPoint,
): ScoredCandidate[] {
  if (!selected || !selected.reading.houseNumber?.trim()) return [];
  const floor = Math.max(thresholds.correctable, selected.confidence - ALTERNATIVE_MARGIN);
  const listed: ScoredCandidate[] = [];
  const away = (c: ScoredCandidate) => (near && c.location ? distanceMeters(near, c.location) : Infinity);
  const ranked = [...usable].sort((a, b) => (near ? away(a) - away(b) : 0) || b.confidence - a.confidence);
  for (const candidate of ranked) {
    if (listed.length === MAX_ALTERNATIVES) break;
    if (candidate === selected || candidate.confidence < floor) continue;
    if (candidate.componentVerdicts.houseNumber !== selected.componentVerdicts.houseNumber) continue;
    if ([selected, ...listed].every((other) => anotherPlace(candidate, other))) listed.push(candidate);
  }
  return listed;
}

function anotherPlace(a: ScoredCandidate, b: ScoredCandidate): boolean {
  if (a.location && b.location && distanceMeters(a.location, b.location) <= ALTERNATIVE_MIN_DISTANCE_M) return false;
  const country = a.components.country ?? b.components.country;
  return PLACE_FIELDS.some((field) => {
    const x = a.components[field];
    const y = b.components[field];
    return Boolean(x && y) && compareComponent(field, x as string, y as string, country) !== 'match';
  });
}
