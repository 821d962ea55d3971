import { PointGrid } from './point-grid.js';

/**
 * Place nodes (`place=city|town|village|hamlet|suburb` with a name) name the town of an address
 * the file holds no municipality boundary for (a city cut out of a country, a boundary cut by
 * the extract's edge): the nearest one whose usual radius reaches the address, as Nominatim
 * reaches a place node without an area.
 */
export const PLACE_RADIUS = { city: 15_000, town: 5_000, village: 2_000, hamlet: 1_000, suburb: 1_000 } as const;
export type PlaceKind = keyof typeof PLACE_RADIUS;

const SETTLEMENTS: PlaceKind[] = ['city', 'town', 'village', 'hamlet'];

export interface PlaceNode {
  name: string;
  place: PlaceKind;
}

/** The place a node's tags name, or undefined for any other node. */
export function placeNodeOf(tags: Record<string, string>): PlaceNode | undefined {
  const place = tags.place;
  const name = tags.name?.trim();
  if (!name || !place || !Object.hasOwn(PLACE_RADIUS, place)) return undefined;
  return { name, place: place as PlaceKind };
}

export class PlaceNodes {
  /** Cells of about 5 km: a city's radius is three of them. */
  private readonly grid = new PointGrid<PlaceNode>(0.05);

  get size(): number {
    return this.grid.size;
  }

  add(lat: number, lng: number, node: PlaceNode): void {
    this.grid.add(lat, lng, node);
  }

  /**
   * The town of a point: the nearest settlement (city, town, village, hamlet) within its own
   * radius; a suburb (part of a city) only where no settlement reaches the point.
   */
  town(lat: number, lng: number): string | undefined {
    if (this.grid.size === 0) return undefined;
    let best: { value: PlaceNode; distance: number } | undefined;
    for (const kind of SETTLEMENTS) {
      const found = this.grid.nearest(lat, lng, PLACE_RADIUS[kind], (n) => n.place === kind);
      if (found && (!best || found.distance < best.distance)) best = found;
    }
    best ??= this.grid.nearest(lat, lng, PLACE_RADIUS.suburb, (n) => n.place === 'suburb');
    return best?.value.name;
  }
}
