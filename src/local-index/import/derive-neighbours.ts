import type { InferredComponent } from '../../contract/address.js';
import type { RawAddress } from '../types.js';
import { metres, PointGrid } from './point-grid.js';

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

/** Countries where each municipality has its own postcode (Liechtenstein's 949x, Monaco's 98000, …). */
export const ONE_POSTCODE_PER_TOWN = new Set(['LI', 'MC', 'SM', 'VA']);

const fold = (s: string | undefined) => (s ?? '').trim().toLowerCase();

export class NeighbourIndex {
  private readonly lat: number[] = [];
  private readonly lng: number[] = [];
  private readonly city: (string | undefined)[] = [];
  private readonly postcode: (string | undefined)[] = [];
  private readonly grid = new PointGrid<number>();
  /** Addresses by country, street and town (postcode sources), and by country and street (town sources). */
  private readonly byStreetTown = new Map<string, number[]>();
  private readonly byStreet = new Map<string, number[]>();
  /** Per country and town: how many addresses carry each postcode. */
  private readonly townPostcodes = new Map<string, Map<string, number>>();

  /** Learns from an address what it states: its town, its postcode (values derived from neighbours are never passed here). */
  add(a: RawAddress): void {
    if (!a.city && !a.postcode) return;
    const i = this.lat.push(a.lat) - 1;
    this.lng.push(a.lng);
    this.city.push(a.city);
    this.postcode.push(a.postcode);
    this.grid.add(a.lat, a.lng, i);
    const cc = fold(a.country);
    if (a.city) push(this.byStreet, `${cc}|${fold(a.street)}`, i);
    if (a.postcode) {
      push(this.byStreetTown, `${cc}|${fold(a.street)}|${fold(a.city)}`, i);
      // Counted under its town and, where that differs (a village, a misspelt tag), its municipality.
      for (const town of new Set([fold(a.city), fold(a.municipality)])) {
        if (!town) continue;
        const key = `${cc}|${town}`;
        const counts = this.townPostcodes.get(key) ?? new Map<string, number>();
        counts.set(a.postcode, (counts.get(a.postcode) ?? 0) + 1);
        this.townPostcodes.set(key, counts);
      }
    }
  }

  /** The address with its missing town and postcode filled where its neighbours tell them, marked inferred. */
  fill(a: RawAddress): RawAddress {
    const cc = fold(a.country);
    const inferred = new Set<InferredComponent>(a.inferred);
    let city = a.city;
    if (!city) {
      city = this.nearestOf(this.byStreet.get(`${cc}|${fold(a.street)}`), a, SAME_STREET, (i) => this.city[i] !== undefined, this.city)
        ?? this.nearby(a, (i) => this.city[i] !== undefined, this.city);
      if (city) inferred.add('city');
    }
    let postcode = a.postcode;
    if (!postcode) {
      const town = fold(city);
      postcode = this.nearestOf(this.byStreetTown.get(`${cc}|${fold(a.street)}|${town}`), a, SAME_STREET, () => true, this.postcode)
        ?? (ONE_POSTCODE_PER_TOWN.has(cc.toUpperCase()) ? this.townPostcode(`${cc}|${town}`) ?? this.townPostcode(`${cc}|${fold(a.municipality)}`) : undefined)
        ?? this.nearby(a, (i) => this.postcode[i] !== undefined && (!city || fold(this.city[i]) === town), this.postcode);
      if (postcode) inferred.add('postcode');
    }
    if (city === a.city && postcode === a.postcode) return a;
    return { ...a, ...(city ? { city } : {}), ...(postcode ? { postcode } : {}), inferred: [...inferred] };
  }

  private nearestOf(list: number[] | undefined, a: RawAddress, radius: number, accept: (i: number) => boolean, values: (string | undefined)[]): string | undefined {
    if (!list) return undefined;
    let best = -1;
    let bestDistance = radius;
    for (const i of list) {
      const d = metres(a.lat, a.lng, this.lat[i]!, this.lng[i]!);
      if (d <= bestDistance && accept(i)) {
        best = i;
        bestDistance = d;
      }
    }
    return best >= 0 ? values[best] : undefined;
  }

  private nearby(a: RawAddress, accept: (i: number) => boolean, values: (string | undefined)[]): string | undefined {
    const found = this.grid.nearest(a.lat, a.lng, NEARBY, accept);
    return found ? values[found.value] : undefined;
  }

  /** The postcode most of the town's addresses carry. */
  private townPostcode(key: string): string | undefined {
    let best: [string, number] | undefined;
    for (const entry of this.townPostcodes.get(key) ?? []) if (!best || entry[1] > best[1]) best = entry;
    return best?.[0];
  }
}

function push(map: Map<string, number[]>, key: string, i: number): void {
  const list = map.get(key);
  if (list) list.push(i);
  else map.set(key, [i]);
}
