import type { GeoPoint } from '../../contract/address.js';
import type { AddressHit } from '../store/store.js';
import type { LocalHit } from '../types.js';
import { mergedPartial, mergeUnits } from '../units.js';
import { addressLabel, addressToHit, roundScore } from './hits.js';
import { nearRank } from './near.js';
import type { Plan } from './plan.js';
import { scoreHit, scoreStreet } from './score.js';
import type { RankedStreet } from './streets.js';

/** Hits scoring below this are not the address asked for; returning them would only mislead. */
export const MIN_SCORE = 0.35;

export function scoredAddresses(plan: Plan, hits: AddressHit[], ranked: RankedStreet[]): LocalHit[] {
  const byId = new Map(ranked.map((r) => [r.street.id, r.score]));
  return hits.map((h) => addressToHit(h, scoreHit(plan, h.street, h, byId.get(h.street.id) ?? scoreStreet(plan, h.street).score)));
}

/**
 * `dedupe(byScore(scoredAddresses(plan, hits, ranked), plan.near)).slice(0, limit)`, with only the
 * addresses shown made into hits: a keystroke with a number reads up to 40 addresses (on its
 * streets and in its postcode) to show 5. Each is scored and labelled (the label is what dedupe
 * tells houses apart by), ordered as byScore orders hits; the addresses of the first `limit`
 * labels, and only they, become hits, merged by dedupe as they would have been among all of them.
 */
export function shownAddresses(plan: Plan, hits: AddressHit[], ranked: RankedStreet[], limit: number): LocalHit[] {
  const byId = new Map(ranked.map((r) => [r.street.id, r.score]));
  const order = hits
    .map((h, i) => {
      const score = scoreHit(plan, h.street, h, byId.get(h.street.id) ?? scoreStreet(plan, h.street).score);
      return { h, i, score, label: addressLabel(h), rank: nearRank(roundScore(score), plan.near, h) };
    })
    .sort((a, b) => b.rank - a.rank || a.i - b.i);
  const shown = new Set<string>();
  for (const { label } of order) {
    if (shown.size >= limit) break;
    shown.add(label);
  }
  return dedupe(order.filter((x) => shown.has(x.label)).map((x) => addressToHit(x.h, x.score)));
}

/**
 * Each result once. Several objects of one house (OSM: a node per flat, each with its
 * `addr:unit`) are one result with all their units. A number both mapped and in an
 * interpolation's range is the mapped one, at its own place.
 */
export function dedupe(hits: LocalHit[]): LocalHit[] {
  const seen = new Map<string, LocalHit>();
  return hits.filter((h) => {
    const key = `${h.precision}|${h.label}`;
    const first = seen.get(key);
    if (!first) {
      seen.set(key, h);
      return true;
    }
    if (h.units) {
      // A list is partial only where every object of the house gave a partial one (issue 34).
      const partial = mergedPartial(first, h);
      first.units = mergeUnits(first.units, h.units);
      if (partial) first.unitsPartial = true;
      else delete first.unitsPartial;
    }
    // A component one object of the house states is stated: derived only where every object derived it.
    if (first.inferred) {
      const kept = first.inferred.filter((c) => h.inferred?.includes(c));
      if (kept.length > 0) first.inferred = kept;
      else delete first.inferred;
    }
    if (first.interpolated && !h.interpolated) {
      first.location = h.location;
      delete first.interpolated;
    }
    return false;
  });
}

/**
 * Stable sort by score, with a position by the score raised by nearness (search/near.ts): ties keep
 * the store's order (house numbers ascending).
 */
export const byScore = (hits: LocalHit[], near?: GeoPoint) =>
  hits
    .map((h, i) => ({ h, i, rank: nearRank(h.score, near, h.location) }))
    .sort((a, b) => b.rank - a.rank || a.i - b.i)
    .map(({ h }) => h);

/** A plan's house number as the stores filter by it. */
export const numberFilter = (hn: NonNullable<Plan['hn']>) => ({ key: hn.key, prefix: hn.prefix });
