import { GrowableFloat64, GrowableInt32 } from './growable.js';

/**
 * Points bucketed by a fine grid, for "the nearest point within r metres that passes a test"
 * over millions of points: the search widens ring by ring around the query's cell and stops
 * once no unvisited cell can hold a nearer point, so a dense town costs a few cells and a
 * lonely farm a few empty look-ups. Coordinates and each cell's list live in typed arrays (a
 * cell's points are a chain through `next`, in the order added), 20 bytes a point besides its value.
 */

/** Metres per degree of latitude. */
export const M_PER_DEG = 111_320;

/** Distance in metres (equirectangular: exact enough within the few kilometres searched here). */
export function metres(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const x = (lng2 - lng1) * Math.cos(((lat1 + lat2) / 2) * (Math.PI / 180));
  return Math.hypot(lat2 - lat1, x) * M_PER_DEG;
}

/** The cosine of a latitude: how much narrower a degree of longitude is there. */
export const lngScale = (lat: number): number => Math.cos(lat * (Math.PI / 180));

/**
 * The squared distance from (lat, lng) to (lat2, lng2) in degrees of latitude, longitude scaled
 * by `scale` (lngScale of the point searched from): what a search's inner loop compares, where a
 * cosine and a root for each of millions of candidates were a sixth of a derivation's time.
 */
export function squaredDegrees(lat: number, lng: number, scale: number, lat2: number, lng2: number): number {
  const dy = lat2 - lat;
  const dx = (lng2 - lng) * scale;
  return dy * dy + dx * dx;
}

export class PointGrid<T> {
  /** Rows of cells, then cells (both keys small integers: a single key would leave V8's fast integer range), to the cell's number. */
  private readonly rows = new Map<number, Map<number, number>>();
  /** Per cell: its first and last point. */
  private readonly first = new GrowableInt32();
  private readonly last = new GrowableInt32();
  /** Per point: the next point of its cell (-1: none). */
  private readonly next = new GrowableInt32();
  private readonly lat = new GrowableFloat64();
  private readonly lng = new GrowableFloat64();
  private readonly values: T[] = [];

  /** `cell` in degrees: about the spacing of the points searched for. */
  constructor(private readonly cell = 0.002) {}

  get size(): number {
    return this.values.length;
  }

  add(lat: number, lng: number, value: T): void {
    const i = this.values.push(value) - 1;
    this.lat.push(lat);
    this.lng.push(lng);
    this.next.push(-1);
    const y = Math.floor(lat / this.cell);
    const x = Math.floor(lng / this.cell);
    let row = this.rows.get(y);
    if (!row) this.rows.set(y, (row = new Map()));
    const c = row.get(x);
    if (c === undefined) {
      row.set(x, this.first.push(i));
      this.last.push(i);
    } else {
      this.next.set(this.last.get(c), i);
      this.last.set(c, i);
    }
  }

  /** The nearest point within `radius` metres whose value passes `accept` (all by default), or undefined. */
  nearest(lat: number, lng: number, radius: number, accept?: (value: T) => boolean): { value: T; distance: number } | undefined {
    const cy = Math.floor(lat / this.cell);
    const cx = Math.floor(lng / this.cell);
    // Cells are narrower in metres east-west than north-south: the widest a ring may need to reach.
    const cosLat = lngScale(lat);
    const cos = Math.max(0.05, cosLat);
    const cellMetres = this.cell * M_PER_DEG * cos;
    const maxRing = Math.ceil(radius / cellMetres) + 1;
    let best = -1;
    let bestDistance = radius;
    let bestSquared = (radius / M_PER_DEG) ** 2;
    for (let ring = 0; ring <= maxRing; ring++) {
      // Every point of this ring and beyond is at least (ring - 1) cells away.
      if (best >= 0 && (ring - 1) * cellMetres > bestDistance) break;
      for (let dy = -ring; dy <= ring; dy++) {
        const edge = dy === -ring || dy === ring;
        const row = this.rows.get(cy + dy);
        if (!row) continue;
        for (let dx = -ring; dx <= ring; dx += edge ? 1 : 2 * ring) {
          const c = row.get(cx + dx);
          if (c !== undefined) {
            for (let i = this.first.get(c); i >= 0; i = this.next.get(i)) {
              const d = squaredDegrees(lat, lng, cosLat, this.lat.get(i), this.lng.get(i));
              if (d <= bestSquared && (d < bestSquared || best < 0) && (!accept || accept(this.values[i]!))) {
                best = i;
                bestSquared = d;
                bestDistance = Math.sqrt(d) * M_PER_DEG;
              }
            }
          }
          if (ring === 0) break;
        }
      }
    }
    return best >= 0 ? { value: this.values[best]!, distance: bestDistance } : undefined;
  }
}
