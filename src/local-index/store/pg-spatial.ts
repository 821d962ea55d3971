import type pg from 'pg';
import { capBoxes, type GeoBox, type LatLng, planarLowerBoundMeters } from '../../lib/sphere.js';
import { nearestFirst } from './nearest.js';
import { streetColumns } from './queries.js';
import { type AddressRow, toAddressHit } from './rows.js';
import type { NearAddress } from './store.js';

/**
 * The PostgreSQL spatial index (reverse look-up), with nothing beyond the core: a GiST index over
 * each address's `point(lng, lat)`, which answers "inside this rectangle, nearest first" (`<@`
 * with `<->` ordering, a KNN index scan per country partition, merged). Created on the partitioned
 * parent, so every country's partition has it; an index from before it gets it when opened.
 */
export const PG_SPATIAL_INDEX = 'CREATE INDEX IF NOT EXISTS local_addresses_point ON local_addresses USING gist (point(lng, lat))';

/**
 * The statement for `boxes` rectangles reading `fetch` rows each (null: every row inside). The row
 * count is written into the text, not bound: with `LIMIT $n` the generic plan is costed for an
 * unknown limit (a tenth of the estimate) and looks dearer than each custom one, so PostgreSQL
 * planned the statement on every call (0.13-0.14 ms of planning for 0.03-0.1 ms of running, 1M
 * addresses); with the count written, both plans cost the same and the generic one is kept. The
 * texts are few: FIRST_FETCH or 4 × the limit, then 8 times as many (up to READ_WHOLE), then none.
 */
const nearestTexts = new Map<string, string>();
const nearestSql = (boxes: number, fetch: number | null) => {
  const key = `${boxes}|${fetch}`;
  const kept = nearestTexts.get(key);
  if (kept !== undefined) return kept;
  const one = (b: number) => {
    const p = (i: number) => `$${b * 6 + i}`;
    return `(SELECT ${b} AS box, a.id, a.country, a.street_id, a.hn, a.hn_key, a.postcode, a.lat, a.lng, a.units,
              point(a.lng, a.lat) <-> point(${p(1)}, ${p(2)}) AS planar
            FROM local_addresses a
            WHERE point(a.lng, a.lat) <@ box(point(${p(3)}, ${p(4)}), point(${p(5)}, ${p(6)}))
            ORDER BY point(a.lng, a.lat) <-> point(${p(1)}, ${p(2)})${fetch === null ? '' : ` LIMIT ${Math.trunc(fetch)}`})`;
  };
  const text = `SELECT a.box, a.planar, ${streetColumns}, a.id AS a_id, a.hn, a.hn_key, a.postcode AS a_postcode, a.lat AS a_lat, a.lng AS a_lng, a.units AS a_units
          FROM (${Array.from({ length: boxes }, (_, b) => one(b)).join(' UNION ALL ')}) a
          JOIN local_streets s ON s.id = a.street_id AND s.country = a.country`;
  nearestTexts.set(key, text);
  return text;
};

type Row = AddressRow & { box: number; planar: number; a_id: string | number };
export type RunQuery = (text: string, values: unknown[]) => Promise<pg.QueryResultRow[]>;

/** The centre's longitude as seen from a rectangle on the other side of the antimeridian (planar distances then measure the short way round). */
function shiftedLng(center: LatLng, box: GeoBox): number {
  if (center.lng >= box.west && center.lng <= box.east) return center.lng;
  return box.west > center.lng ? center.lng + 360 : center.lng - 360;
}

/** Rows fetched at first: enough that the planar order (degrees) rarely leaves a nearer address out. */
const FIRST_FETCH = 16;
/** Beyond this many rows a rectangle is read whole. */
const READ_WHOLE = 50_000;

/**
 * The `limit` addresses nearest to `center` within `radiusM`. The index orders by planar distance
 * in degrees, which is not the distance on the sphere (a degree of longitude shrinks with
 * latitude), so more rows are read than asked for and measured (haversine); the rows read are
 * enough once no row left unread can be nearer than the last one kept (`planarLowerBoundMeters`),
 * else eight times as many are read. Caps over a pole are read whole (no such bound there).
 */
export async function pgNearest(query: RunQuery, center: LatLng, radiusM: number, limit: number): Promise<NearAddress[]> {
  const boxes = capBoxes(center, radiusM);
  const polar = planarLowerBoundMeters(center, radiusM, 1) === 0;
  let fetch: number | null = polar ? null : Math.max(FIRST_FETCH, limit * 4);
  for (;;) {
    const args = boxes.flatMap((b) => [shiftedLng(center, b), center.lat, b.west, b.south, b.east, b.north]);
    const rows = (await query(nearestSql(boxes.length, fetch), args)) as Row[];
    let bound = Number.POSITIVE_INFINITY;
    if (fetch !== null) {
      for (let b = 0; b < boxes.length; b++) {
        const own = rows.filter((r) => r.box === b);
        if (own.length >= fetch) bound = Math.min(bound, planarLowerBoundMeters(center, radiusM, Math.max(...own.map((r) => Number(r.planar)))));
      }
    }
    const byId = new Map(rows.map((r) => [Number(r.a_id), r]));
    const found = nearestFirst([...byId.values()].map((r) => ({ id: Number(r.a_id), lat: Number(r.a_lat), lng: Number(r.a_lng) })), center, radiusM);
    const enough = found.length >= limit ? found[limit - 1]!.distanceM <= bound : bound > radiusM;
    if (enough || fetch === null) {
      return found.slice(0, limit).map((f) => ({ ...toAddressHit(byId.get(f.id)!), id: f.id, distanceM: f.distanceM }));
    }
    fetch = fetch * 8 > READ_WHOLE ? null : fetch * 8;
  }
}
