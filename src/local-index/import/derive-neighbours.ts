import type { InferredComponent } from '../../contract/address.js';
import type { RawAddress } from '../types.js';
import { metres, PointGrid } from './point-grid.js';
import { ONE_POSTCODE_PER_TOWN } from '../../address/postcode.js';

/**
 * A town and a postcode for addresses whose row (and, for OSM, whose areas and place nodes)
 * gave none, from the file's other addresses, as Nominatim derives its postcode points:
 * - the nearest address of the same street (same name, same town) within SAME_STREET metres;
 * - where a country has one postcode per municipality (ONE_POSTCODE_PER_TOWN), the postcode
 *   most addresses of the town carry, else of the municipality around the point;
 * - else the nearest address within NEARBY metres (of the same town, where the town is known).
 * Only values the file states (or its areas give) serve as sources: a derived value never
 * derives another. Docs: docs/towns-and-postcodes.md.
 */
export const SAME_STREET = 2_000;
export const NEARBY = 1_000;


/** A street list longer than this is searched through the grid rather than read whole. */
const LONG_STREET = 128;

export class NeighbourIndex {
  private readonly lat: number[] = [];
  private readonly lng: number[] = [];
  private readonly city: (string | undefined)[] = [];
  private readonly postcode: (string | undefined)[] = [];
  /** Each source's town and streets as numbers (folded once), so a search compares numbers, not strings. */
  private readonly town: number[] = [];
  private readonly street: number[] = [];
  private readonly streetTown: number[] = [];
  private readonly ids = new Map<string, number>();
  /** Sources with a postcode, and with a town, each in a grid of its own: a search visits only points that may answer it. */
  private readonly postcodes = new PointGrid<number>();
  private readonly cities = new PointGrid<number>();
  /** Sources by country, street and town (postcodes), and by country and street (towns). */
  private readonly byStreetTown = new Map<number, number[]>();
  private readonly byStreet = new Map<number, number[]>();
  /** Towns (ids) some source of which has a postcode: a town with none is not searched for one. */
  private readonly townsWithPostcodes = new Set<number>();
  /** Per country and town: how many addresses carry each postcode. */
  private readonly townPostcodes = new Map<string, Map<string, number>>();

  /** Learns from an address what it states: its town, its postcode (values derived from neighbours are never passed here). */
  add(a: RawAddress): void {
    if (!a.city && !a.postcode) return;
    const i = this.lat.push(a.lat) - 1;
    this.lng.push(a.lng);
    this.city.push(a.city);
    this.postcode.push(a.postcode);
    // Keys as the data writes the names (a row of one street repeats its spelling): no folding per row.
    const cc = a.country ?? '';
    this.town.push(this.id(a.city ?? ''));
    const street = this.id(`${cc}|${a.street}`);
    const streetTown = this.id(`${cc}|${a.street}|${a.city ?? ''}`);
    this.street.push(street);
    this.streetTown.push(streetTown);
    if (a.city) {
      this.cities.add(a.lat, a.lng, i);
      push(this.byStreet, street, i);
    }
    if (a.postcode) {
      this.postcodes.add(a.lat, a.lng, i);
      this.townsWithPostcodes.add(this.town[i]!);
      push(this.byStreetTown, streetTown, i);
      // Counted under its town and, where that differs (a village, a misspelt tag), its municipality.
      if (a.city) this.count(`${cc}|${a.city}`, a.postcode);
      if (a.municipality && a.municipality !== a.city) this.count(`${cc}|${a.municipality}`, a.postcode);
    }
  }

  private count(town: string, postcode: string): void {
    let counts = this.townPostcodes.get(town);
    if (!counts) this.townPostcodes.set(town, (counts = new Map()));
    counts.set(postcode, (counts.get(postcode) ?? 0) + 1);
  }

  /** The address with its missing town and postcode filled where its neighbours tell them, marked inferred. */
  fill(a: RawAddress): RawAddress {
    const cc = a.country ?? '';
    const inferred = new Set<InferredComponent>(a.inferred);
    let city = a.city;
    if (!city) {
      const street = this.ids.get(`${cc}|${a.street}`);
      const i = this.sameStreet(this.cities, street === undefined ? undefined : this.byStreet.get(street), a, (j) => this.street[j] === street)
        ?? this.cities.nearest(a.lat, a.lng, NEARBY)?.value;
      city = i === undefined ? undefined : this.city[i];
      if (city) inferred.add('city');
    }
    let postcode = a.postcode;
    if (!postcode) {
      const town = city ?? '';
      const streetTown = this.ids.get(`${cc}|${a.street}|${town}`);
      const townId = this.ids.get(town);
      const i = this.sameStreet(this.postcodes, streetTown === undefined ? undefined : this.byStreetTown.get(streetTown), a, (j) => this.streetTown[j] === streetTown);
      postcode = (i === undefined ? undefined : this.postcode[i])
        ?? (ONE_POSTCODE_PER_TOWN.has(cc.toUpperCase()) ? this.townPostcode(`${cc}|${town}`) ?? this.townPostcode(`${cc}|${a.municipality ?? ''}`) : undefined);
      if (!postcode && (!city || (townId !== undefined && this.townsWithPostcodes.has(townId)))) {
        const found = this.postcodes.nearest(a.lat, a.lng, NEARBY, city ? (j) => this.town[j] === townId : undefined);
        postcode = found === undefined ? undefined : this.postcode[found.value];
      }
      if (postcode) inferred.add('postcode');
    }
    if (city === a.city && postcode === a.postcode) return a;
    return { ...a, ...(city ? { city } : {}), ...(postcode ? { postcode } : {}), inferred: [...inferred] };
  }

  /** The nearest source of the same street within SAME_STREET metres: a short list read whole, a long one through the grid. */
  private sameStreet(grid: PointGrid<number>, list: number[] | undefined, a: RawAddress, onStreet: (i: number) => boolean): number | undefined {
    if (!list) return undefined;
    if (list.length > LONG_STREET) return grid.nearest(a.lat, a.lng, SAME_STREET, onStreet)?.value;
    let best: number | undefined;
    let bestDistance = SAME_STREET;
    for (const i of list) {
      const d = metres(a.lat, a.lng, this.lat[i]!, this.lng[i]!);
      if (d <= bestDistance) {
        best = i;
        bestDistance = d;
      }
    }
    return best;
  }

  private id(key: string): number {
    let id = this.ids.get(key);
    if (id === undefined) this.ids.set(key, (id = this.ids.size));
    return id;
  }

  /** The postcode most of the town's addresses carry. */
  private townPostcode(key: string): string | undefined {
    let best: [string, number] | undefined;
    for (const entry of this.townPostcodes.get(key) ?? []) if (!best || entry[1] > best[1]) best = entry;
    return best?.[0];
  }
}

function push(map: Map<number, number[]>, key: number, i: number): void {
  const list = map.get(key);
  if (list) list.push(i);
  else map.set(key, [i]);
}
