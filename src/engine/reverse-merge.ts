import type { GeoPoint } from '../contract/address.js';
import type { ReverseSuggestion } from '../contract/reverse.js';
import { normalizeText } from '../address/normalize.js';
import type { ProviderAttempt } from './fan-out.js';
import { distanceMeters } from './geo-distance.js';
import { postalLines } from './postal-lines.js';
import { listsUnits } from './unit-verdict.js';

/**
 * The answer of a reverse look-up from every provider's candidates: houses only (a street or a
 * town is no address to fill a form with), each measured from the position here (one formula for
 * every provider), none beyond the radius, nearest first (equal distances in provider order),
 * the same address from two providers once (labels compared after normalization), cut at `limit`.
 * Labels are the validate answer's postal lines, as autocomplete's are.
 */
export function nearestSuggestions(attempts: ProviderAttempt[], position: GeoPoint, radiusMeters: number, limit: number): ReverseSuggestion[] {
  const measured = attempts.flatMap(({ candidates, provider }, order) =>
    candidates.flatMap((c) => {
      if (!c.location || !c.components.street || !c.components.houseNumber) return [];
      const distance = distanceMeters(position, c.location);
      return distance <= radiusMeters ? [{ c, provider, order, distance }] : [];
    }),
  );
  measured.sort((a, b) => a.distance - b.distance || a.order - b.order);
  const seen = new Set<string>();
  const out: ReverseSuggestion[] = [];
  for (const { c, provider, distance } of measured) {
    const label = postalLines(c.components).formatted || c.label || '';
    const key = normalizeText(label);
    if (!label || seen.has(key)) continue;
    seen.add(key);
    out.push({
      label,
      components: c.components,
      location: c.location!,
      provider,
      type: 'address',
      // Nothing was typed: no part of the label is a match.
      matches: [],
      distanceMeters: Math.round(distance),
      ...(listsUnits(c) ? { action: 'add_unit' as const } : {}),
    });
    if (out.length >= limit) break;
  }
  return out;
}
