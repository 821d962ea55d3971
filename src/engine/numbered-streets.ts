import type { AddressComponents } from '../contract/address.js';
import { sameStreet } from '../address/compare.js';
import type { ProviderCandidate } from '../providers/provider.js';
import { distanceMeters } from './geo-distance.js';

/** Two providers' points for one street (its centre, a point on it) lie within this of each other. */
export const SAME_STREET_M = 2_000;

/**
 * A street one provider's data numbers (the local index holds every number of its streets:
 * `houseNumbersKnown` on a street result) is numbered whoever else answers with it (issue 34): for
 * input without a house number, another provider's result for the same street (same name, within
 * SAME_STREET_M) is marked so too, and none of them can make the incomplete address `valid`.
 * With a typed number nothing is shared: a number is absent only from the data that holds the street.
 */
export function shareNumberedStreets<A extends { candidates: ProviderCandidate[] }>(attempts: readonly A[], input: AddressComponents, country: string | undefined): readonly A[] {
  if (input.houseNumber?.trim()) return attempts;
  const numbered = attempts.flatMap((a) => a.candidates).filter((c) => c.houseNumbersKnown && isStreet(c));
  if (numbered.length === 0) return attempts;
  const numberedToo = (c: ProviderCandidate) =>
    !c.houseNumbersKnown &&
    isStreet(c) &&
    numbered.some((n) => sameStreet(n.components.street!, c.components.street!, country ?? c.components.country) && distanceMeters(n.location!, c.location!) <= SAME_STREET_M);
  return attempts.map((a) => (a.candidates.some(numberedToo) ? { ...a, candidates: a.candidates.map((c) => (numberedToo(c) ? { ...c, houseNumbersKnown: true as const } : c)) } : a));
}

function isStreet(c: ProviderCandidate): boolean {
  return c.precision === 'street' && !c.components.houseNumber && Boolean(c.components.street) && c.location !== undefined;
}
