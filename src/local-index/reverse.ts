import { addressToHit } from './search/hits.js';
import type { IndexStore, NearAddress } from './store/store.js';
import type { LocalHit, ReverseInput } from './types.js';

/** Several objects of one house (an OSM node per flat) are one answer: rows are read ahead for them. */
const ROWS_PER_ANSWER = 3;

/**
 * Reverse look-up: the addresses nearest to a position within a radius, nearest first, through
 * the store's spatial index (an R*Tree on SQLite, GiST on PostgreSQL; never a scan). Each house
 * once, at its nearest object, with the units of all its objects.
 */
export async function reverse(store: IndexStore, input: ReverseInput): Promise<(LocalHit & { distanceMeters: number })[]> {
  const rows = await store.nearest({ lat: input.lat, lng: input.lng }, input.radiusMeters, input.limit * ROWS_PER_ANSWER);
  const houses = new Map<string, { first: NearAddress; units: Set<string> }>();
  for (const row of rows) {
    const key = `${row.street.id}\n${row.hnKey}`;
    const house = houses.get(key);
    if (!house) houses.set(key, { first: row, units: new Set(row.units ?? []) });
    else for (const unit of row.units ?? []) house.units.add(unit);
  }
  return [...houses.values()].slice(0, input.limit).map(({ first, units }) => ({
    ...addressToHit({ ...first, ...(units.size > 0 ? { units: [...units] } : {}) }, 1),
    distanceMeters: first.distanceM,
  }));
}
