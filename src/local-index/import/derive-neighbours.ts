import type { InferredComponent } from '../../contract/address.js';
import type { RawAddress } from '../types.js';
import { GrowableFloat64, GrowableInt32 } from './growable.js';
import { lngScale, M_PER_DEG, PointGrid, squaredDegrees } from './point-grid.js';
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

/**
 * Sources in the order learnt, each with a chain to the next source of the same key (a street,
 * a street in a town), in typed arrays: a country's millions of sources cost about a hundred
 * bytes each, off the V8 heap.
 */
class Chains {
  private readonly first = new GrowableInt32();
  private readonly last = new GrowableInt32();
  private readonly count = new GrowableInt32();
  private readonly next = new GrowableInt32();

  /** Source `i` (the next one: sources come in order) joins key `key`'s chain, or none (-1). */
  add(key: number, i: number): void {
    this.next.put(i, -1, -1);
    if (key < 0) return;
    if (key >= this.first.length || this.first.get(key) < 0) {
      this.first.put(key, i, -1);
      this.last.put(key, i, -1);
      this.count.put(key, 1, 0);
      return;
    }
    this.next.set(this.last.get(key), i);
    this.last.set(key, i);
    this.count.set(key, this.count.get(key) + 1);
  }

  size(key: number): number {
    return key < this.count.length ? this.count.get(key) : 0;
  }

  /** The key's first source (-1: none); `after(i)` the one after `i`. */
  head(key: number): number {
    return key < this.first.length ? this.first.get(key) : -1;
  }

  after(i: number): number {
    return this.next.get(i);
  }
}

type KnownKeys = { cc: string; streetName: string; city: string; town?: number; street?: number; streetTown?: number };

export class NeighbourIndex {
  private readonly lat = new GrowableFloat64();
  private readonly lng = new GrowableFloat64();
  /** Each source's town and postcode as it states them (ids into `values`, -1: none). */
  private readonly city = new GrowableInt32();
  private readonly postcode = new GrowableInt32();
  private readonly values: string[] = [];
  private readonly valueIds = new Map<string, number>();
  /** Each source's town and streets as numbers (folded once), so a search compares numbers, not strings. */
  private readonly town = new GrowableInt32();
  private readonly street = new GrowableInt32();
  private readonly streetTown = new GrowableInt32();
  private readonly ids = new Map<string, number>();
  /** Sources with a postcode, and with a town, each in a grid of its own: a search visits only points that may answer it. */
  private readonly postcodes = new PointGrid<number>();
  private readonly cities = new PointGrid<number>();
  /** Sources by country, street and town (postcodes), and by country and street (towns). */
  private readonly byStreetTown = new Chains();
  private readonly byStreet = new Chains();
  /** Towns (ids) some source of which has a postcode: a town with none is not searched for one. */
  private readonly townsWithPostcodes = new Set<number>();
  /** Per country and town: how many addresses carry each postcode. */
  private readonly townPostcodes = new Map<string, Map<string, number>>();

  /** Learns from an address what it states: its town, its postcode (values derived from neighbours are never passed here). */
  add(a: RawAddress): void {
    if (!a.city && !a.postcode) return;
    const i = this.lat.push(a.lat);
    this.lng.push(a.lng);
    this.city.push(this.value(a.city));
    this.postcode.push(this.value(a.postcode));
    // Keys as the data writes the names (a row of one street repeats its spelling): no folding per row.
    const cc = a.country ?? '';
    const { town, street, streetTown } = this.keysOf(cc, a.street, a.city ?? '');
    this.town.push(town);
    this.street.push(street);
    this.streetTown.push(streetTown);
    this.byStreet.add(a.city ? street : -1, i);
    this.byStreetTown.add(a.postcode ? streetTown : -1, i);
    if (a.city) this.cities.add(a.lat, a.lng, i);
    if (a.postcode) {
      this.postcodes.add(a.lat, a.lng, i);
      this.townsWithPostcodes.add(this.town.get(i));
      // Counted under its town and, where that differs (a village, a misspelt tag), its municipality.
      if (a.city) this.count(`${cc}|${a.city}`, a.postcode);
      if (a.municipality && a.municipality !== a.city) this.count(`${cc}|${a.municipality}`, a.postcode);
    }
  }

  /**
   * A source's town, street and street-in-town ids. A file lists a street's addresses one after
   * another, so the last source's ids usually serve again: no key text made and looked up for
   * each of a country's millions of rows.
   */
  private keysOf(cc: string, streetName: string, city: string): { town: number; street: number; streetTown: number } {
    const last = this.last;
    if (last && last.cc === cc && last.streetName === streetName && last.city === city) return last;
    const keys = { cc, streetName, city, town: this.id(city), street: this.id(`${cc}|${streetName}`), streetTown: this.id(`${cc}|${streetName}|${city}`) };
    this.last = keys;
    return keys;
  }

  private last: { cc: string; streetName: string; city: string; town: number; street: number; streetTown: number } | undefined;

  /** A stated value's id, each distinct string kept once (a town's name repeats on every row of it). */
  private value(v: string | undefined): number {
    if (!v) return -1;
    let id = this.valueIds.get(v);
    if (id === undefined) this.valueIds.set(v, (id = this.values.push(v) - 1));
    return id;
  }

  private stated(column: GrowableInt32, i: number | undefined): string | undefined {
    if (i === undefined) return undefined;
    const id = column.get(i);
    return id < 0 ? undefined : this.values[id];
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
      const street = this.known(0, cc, a.street, '').street;
      const i = this.sameStreet(this.cities, this.byStreet, street, a, (j) => this.street.get(j) === street)
        ?? this.cities.nearest(a.lat, a.lng, NEARBY)?.value;
      city = this.stated(this.city, i);
      if (city) inferred.add('city');
    }
    let postcode = a.postcode;
    if (!postcode) {
      const town = city ?? '';
      const { streetTown, town: townId } = this.known(1, cc, a.street, town);
      const i = this.sameStreet(this.postcodes, this.byStreetTown, streetTown, a, (j) => this.streetTown.get(j) === streetTown);
      postcode = this.stated(this.postcode, i)
        ?? (ONE_POSTCODE_PER_TOWN.has(cc.toUpperCase()) ? this.townPostcode(`${cc}|${town}`) ?? this.townPostcode(`${cc}|${a.municipality ?? ''}`) : undefined);
      if (!postcode && (!city || (townId !== undefined && this.townsWithPostcodes.has(townId)))) {
        const found = this.postcodes.nearest(a.lat, a.lng, NEARBY, city ? (j) => this.town.get(j) === townId : undefined);
        postcode = this.stated(this.postcode, found?.value);
      }
      if (postcode) inferred.add('postcode');
    }
    if (city === a.city && postcode === a.postcode) return a;
    return { ...a, ...(city ? { city } : {}), ...(postcode ? { postcode } : {}), inferred: [...inferred] };
  }

  /** The nearest source of the same street within SAME_STREET metres: a short list read whole, a long one through the grid. */
  private sameStreet(grid: PointGrid<number>, chains: Chains, key: number | undefined, a: RawAddress, onStreet: (i: number) => boolean): number | undefined {
    if (key === undefined || chains.size(key) === 0) return undefined;
    if (chains.size(key) > LONG_STREET) return grid.nearest(a.lat, a.lng, SAME_STREET, onStreet)?.value;
    let best: number | undefined;
    let bestSquared = (SAME_STREET / M_PER_DEG) ** 2;
    const scale = lngScale(a.lat);
    for (let i = chains.head(key); i >= 0; i = chains.after(i)) {
      const d = squaredDegrees(a.lat, a.lng, scale, this.lat.get(i), this.lng.get(i));
      if (d <= bestSquared) {
        best = i;
        bestSquared = d;
      }
    }
    return best;
  }

  /**
   * The ids `keysOf` gave a town, street and street-in-town (undefined: no source has it), for
   * `fill`: the rows waiting for a town come a street at a time, and a row asks what the last
   * asked, so the last answer serves again without key text made and looked up. Two answers are
   * kept (`slot`): the town's question and the postcode's, which a row asks in turn.
   */
  private known(slot: 0 | 1, cc: string, streetName: string, city: string): KnownKeys {
    const last = this.lastKnown[slot];
    if (last && last.cc === cc && last.streetName === streetName && last.city === city) return last;
    const keys = { cc, streetName, city, town: this.ids.get(city), street: this.ids.get(`${cc}|${streetName}`), streetTown: this.ids.get(`${cc}|${streetName}|${city}`) };
    this.lastKnown[slot] = keys;
    return keys;
  }

  private readonly lastKnown: (KnownKeys | undefined)[] = [undefined, undefined];

  private id(key: string): number {
    let id = this.ids.get(key);
    if (id === undefined) {
      this.ids.set(key, (id = this.ids.size));
      // A key `known` kept as missing may be one now.
      this.lastKnown[0] = this.lastKnown[1] = undefined;
    }
    return id;
  }

  /** The postcode most of the town's addresses carry. */
  private townPostcode(key: string): string | undefined {
    let best: [string, number] | undefined;
    for (const entry of this.townPostcodes.get(key) ?? []) if (!best || entry[1] > best[1]) best = entry;
    return best?.[0];
  }
}
