import { AreaGrid, type Area } from './osm-areas.js';
import { type PlaceNode, PlaceNodes } from './osm-place-nodes.js';

/** What a boundary relation tells about the addresses inside it. */
export interface Boundary {
  kind: 'country' | 'admin' | 'postal';
  /** OSM admin_level (2 country … 10); absent for postal-code areas. */
  level?: number;
  name?: string;
  /** ISO alpha-2, for a country. */
  country?: string;
  /** Its postcode: `postal_code` of a postal-code area, or of an administrative one that has a single one. */
  postcode?: string;
}

/** Admin levels that may be a municipality somewhere (see MUNICIPALITY_LEVELS). */
const ADMIN_LEVELS = new Set([7, 8, 9, 10]);

/**
 * The admin_level of the town people write, per country, finest first (OSM's per-country
 * admin_level table, as Nominatim's address levels; docs/towns-and-postcodes.md): the
 * municipality (8) in most of Europe (LI, AT, DE, CH, FR, …); the Dutch woonplaats (10) before
 * the gemeente; the Portuguese concelho (7); in Great Britain the parish (10), else the
 * district (8). None where the postal town is no administrative area (Danish postal districts,
 * Irish post towns): there `addr:city`, then the nearest place node.
 */
const MUNICIPALITY_LEVELS: Record<string, number[]> = { NL: [10, 8], PT: [7], GB: [10, 8], DK: [], IE: [] };
const DEFAULT_LEVELS = [8, 7];

const single = (v: string | undefined): string | undefined => {
  const t = v?.trim();
  return t && !/[;,]/.test(t) ? t : undefined;
};

/** The boundary a relation draws, or undefined when it is none the importer uses. */
export function boundaryOf(tags: Record<string, string>): Boundary | undefined {
  if (tags.type !== 'boundary' && tags.type !== 'multipolygon') return undefined;
  if (tags.boundary === 'postal_code') {
    const postcode = single(tags.postal_code) ?? single(tags['addr:postcode']) ?? single(tags.ref);
    return postcode ? { kind: 'postal', postcode } : undefined;
  }
  if (tags.boundary !== 'administrative') return undefined;
  const level = Number(tags.admin_level);
  if (level === 2) {
    const code = (tags['ISO3166-1:alpha2'] ?? tags['ISO3166-1'])?.toUpperCase();
    return code && /^[A-Z]{2}$/.test(code) ? { kind: 'country', level, country: code } : undefined;
  }
  // Every level osmium would build is an area (regions and districts too); only levels 7-10 name places (locate).
  if (!Number.isInteger(level) || level < 3 || level > 11) return undefined;
  const postcode = single(tags.postal_code);
  const name = tags.name?.trim();
  if (!name && !postcode) return undefined;
  return { kind: 'admin', level, ...(name ? { name } : {}), ...(postcode ? { postcode } : {}) };
}

export interface Located {
  country?: string;
  municipality?: string;
  /** Every other named admin area around the point (levels 7-10: parish, district, quarter), finest first. */
  places?: string[];
  postcode?: string;
}

/** Answers PlaceLocator.locate keeps. */
const RECENT = 8;

const sameItems = <T>(a: readonly T[], b: readonly T[]): boolean => a.length === b.length && a.every((x, i) => x === b[i]);

/** Where an address lies: its country, municipality and postcode area, from the file's boundaries. */
export class PlaceLocator {
  private readonly grid = new AreaGrid<Boundary>();
  private readonly nodes = new PlaceNodes();
  private size = 0;

  add(area: Area<Boundary>): void {
    this.grid.add(area);
    this.size++;
  }

  addPlaceNode(lat: number, lng: number, node: PlaceNode): void {
    this.nodes.add(lat, lng, node);
  }

  get areas(): number {
    return this.size;
  }

  get placeNodes(): number {
    return this.nodes.size;
  }

  /** Where no municipality holds a point: the nearest place node that reaches it (osm-place-nodes.ts). */
  town(lat: number, lng: number): string | undefined {
    return this.nodes.town(lat, lng);
  }

  /** `country` is the address's own (tag or import option); the file's country boundary decides otherwise. */
  locate(lat: number, lng: number, country: string | undefined): Located {
    if (this.size === 0) return {};
    const found = this.grid.containing(lat, lng);
    // The same areas give the same answer: a file's neighbouring addresses mostly lie in the same
    // ones, so the last few answers are kept (Located is only read, never changed, by its users).
    for (const m of this.recent) if (m.country === country && sameItems(m.found, found)) return m.located;
    const located = Object.freeze(this.decide(found, country));
    if (located.places) Object.freeze(located.places);
    this.recent[this.next] = { found, country, located };
    this.next = (this.next + 1) % RECENT;
    return located;
  }

  private readonly recent: { found: Boundary[]; country: string | undefined; located: Located }[] = [];
  private next = 0;

  private decide(found: Boundary[], country: string | undefined): Located {
    const cc = country ?? found.find((b) => b.kind === 'country')?.country;
    const all = found.filter((b) => b.kind === 'admin');
    const admin = all.filter((b) => ADMIN_LEVELS.has(b.level!));
    const out: Located = {};
    if (cc) out.country = cc;
    for (const level of (cc ? MUNICIPALITY_LEVELS[cc] : undefined) ?? DEFAULT_LEVELS) {
      const m = admin.find((b) => b.level === level && b.name);
      if (m) {
        out.municipality = m.name;
        break;
      }
    }
    // Residents write any level they live in (a parish, a quarter, the municipality): all are places of the address.
    const others = admin.filter((b) => b.name && b.name !== out.municipality).sort((a, b) => b.level! - a.level!).map((b) => b.name!);
    if (others.length > 0) out.places = [...new Set(others)];
    const postcode = found.find((b) => b.kind === 'postal')?.postcode ?? all.filter((b) => b.postcode).sort((a, b) => b.level! - a.level!)[0]?.postcode;
    if (postcode) out.postcode = postcode;
    return out;
  }
}
