/**
 * Areas of an OSM file (administrative and postal-code boundaries) as polygons, and which
 * of them contain a point. A boundary relation's rings come from osm-rings.ts (outer and
 * inner alike); a point is inside when a ray from it crosses the rings an odd number of
 * times, so holes and enclaves need no role bookkeeping.
 */

/** Coordinates are kept as integers of 1e-7 degree (OSM's own precision): 8 bytes a point. */
const SCALE = 1e7;

export interface Area<T> {
  value: T;
  /** Each ring as [lat, lng, lat, lng, …] in 1e-7 degree, closed (first point = last point). */
  rings: Int32Array[];
  minLat: number;
  maxLat: number;
  minLng: number;
  maxLng: number;
}

/** An area from its rings' coordinates (`[lat, lng]` per node); undefined without a usable ring. */
export function makeArea<T>(value: T, rings: readonly (readonly [number, number][])[]): Area<T> | undefined {
  const out: Int32Array[] = [];
  let minLat = Infinity;
  let maxLat = -Infinity;
  let minLng = Infinity;
  let maxLng = -Infinity;
  for (const ring of rings) {
    if (ring.length < 4) continue;
    const a = new Int32Array(ring.length * 2);
    ring.forEach(([lat, lng], i) => {
      a[2 * i] = Math.round(lat * SCALE);
      a[2 * i + 1] = Math.round(lng * SCALE);
      minLat = Math.min(minLat, lat);
      maxLat = Math.max(maxLat, lat);
      minLng = Math.min(minLng, lng);
      maxLng = Math.max(maxLng, lng);
    });
    out.push(a);
  }
  return out.length > 0 ? { value, rings: out, minLat, maxLat, minLng, maxLng } : undefined;
}

/** Even-odd ray casting over every ring of the area. */
export function areaContains(area: Area<unknown>, lat: number, lng: number): boolean {
  if (lat < area.minLat || lat > area.maxLat || lng < area.minLng || lng > area.maxLng) return false;
  const y = lat * SCALE;
  const x = lng * SCALE;
  let inside = false;
  for (const r of area.rings) {
    for (let i = 0, j = r.length - 2; i < r.length; j = i, i += 2) {
      const yi = r[i]!;
      const xi = r[i + 1]!;
      const yj = r[j]!;
      const xj = r[j + 1]!;
      if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
    }
  }
  return inside;
}

/** Grid cell size in degrees; an area spanning more than MAX_CELLS cells is checked by its box instead. */
const CELL = 0.05;
const MAX_CELLS = 400;

/** An area and the grid cells its edges pass through; any other cell lies wholly inside or outside it. */
interface GridArea<T> {
  area: Area<T>;
  edgeCells: Set<number>;
  /** Inside or not, per edge-free cell, tested once at the cell's centre. */
  cellInside: Map<number, boolean>;
}

/** The cells each edge's box covers: a superset of the cells the edge passes through. */
function edgeCells(area: Area<unknown>): Set<number> {
  const cells = new Set<number>();
  for (const r of area.rings) {
    for (let i = 2; i < r.length; i += 2) {
      const [y0, y1] = [cell(Math.min(r[i - 2]!, r[i]!) / SCALE), cell(Math.max(r[i - 2]!, r[i]!) / SCALE)];
      const [x0, x1] = [cell(Math.min(r[i - 1]!, r[i + 1]!) / SCALE), cell(Math.max(r[i - 1]!, r[i + 1]!) / SCALE)];
      for (let y = y0; y <= y1; y++) for (let x = x0; x <= x1; x++) cells.add(cellKey(y, x));
    }
  }
  return cells;
}

/**
 * Areas bucketed by a coarse grid, so a look-up tests only the few whose box is near the
 * point. Only points in cells an area's edges cross are tested against its rings; in any
 * other cell the answer is the same for every point and is computed once: a country's
 * thousands of border nodes cost nothing for the millions of addresses inland.
 */
export class AreaGrid<T> {
  private readonly cells = new Map<number, GridArea<T>[]>();
  private readonly large: GridArea<T>[] = [];

  add(area: Area<T>): void {
    const entry: GridArea<T> = { area, edgeCells: edgeCells(area), cellInside: new Map() };
    const [y0, y1, x0, x1] = [cell(area.minLat), cell(area.maxLat), cell(area.minLng), cell(area.maxLng)];
    if ((y1 - y0 + 1) * (x1 - x0 + 1) > MAX_CELLS) {
      this.large.push(entry);
      return;
    }
    for (let y = y0; y <= y1; y++) {
      for (let x = x0; x <= x1; x++) {
        const key = cellKey(y, x);
        const list = this.cells.get(key);
        if (list) list.push(entry);
        else this.cells.set(key, [entry]);
      }
    }
  }

  /** Every area containing the point. */
  containing(lat: number, lng: number): T[] {
    const y = cell(lat);
    const x = cell(lng);
    const key = cellKey(y, x);
    const out: T[] = [];
    // The cell's areas, then the large ones: two loops, no list joined for each point.
    for (const list of [this.cells.get(key), this.large]) {
      if (list) for (const g of list) if (this.holds(g, key, y, x, lat, lng)) out.push(g.area.value);
    }
    return out;
  }

  private holds(g: GridArea<T>, key: number, y: number, x: number, lat: number, lng: number): boolean {
    const a = g.area;
    if (lat < a.minLat || lat > a.maxLat || lng < a.minLng || lng > a.maxLng) return false;
    if (g.edgeCells.has(key)) return areaContains(a, lat, lng);
    let inside = g.cellInside.get(key);
    if (inside === undefined) g.cellInside.set(key, (inside = areaContains(a, (y + 0.5) * CELL, (x + 0.5) * CELL)));
    return inside;
  }
}

const cell = (deg: number) => Math.floor(deg / CELL);
const cellKey = (y: number, x: number) => (y + 2000) * 10000 + (x + 4000);
