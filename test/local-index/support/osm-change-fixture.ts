import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Two small extracts, before and after a day of edits, written as OPL text and converted by
 * osmium (Debian's osmium-tool), and the change file between them from `osmium
 * derive-changes`, as a replication diff would carry it. Every kind of edit `--update` must
 * apply is in it; the comments name them.
 */
export type Tags = Record<string, string>;
export interface Node {
  id: number;
  lat: number;
  lon: number;
  tags?: Tags;
}
export interface Way {
  id: number;
  refs: number[];
  tags: Tags;
}

/** OPL escapes everything but plain characters as `%hex%`. */
const esc = (s: string) => [...s].map((c) => (/[A-Za-z0-9:_.\-]/.test(c) ? c : `%${c.codePointAt(0)!.toString(16)}%`)).join('');
export const tagText = (tags: Tags = {}) => Object.entries(tags).map(([k, v]) => `${esc(k)}=${esc(v)}`).join(',');

/** Elements as OPL lines without their version, by `n1`, `w2`, `r3`. */
function elements(nodes: Node[], ways: Way[], relations: Relation[]): Map<string, string> {
  return new Map([
    ...nodes.sort((a, b) => a.id - b.id).map((n): [string, string] => [`n${n.id}`, `x${n.lon} y${n.lat} T${tagText(n.tags)}`]),
    ...ways.sort((a, b) => a.id - b.id).map((w): [string, string] => [`w${w.id}`, `T${tagText(w.tags)} N${w.refs.map((r) => `n${r}`).join(',')}`]),
    ...relations.map((r): [string, string] => [`r${r.id}`, `T${tagText(r.tags)} Mw${r.way}@outer`]),
  ]);
}

/** OPL text; an element that differs from `previous` gets version 2, as an edit would give it (derive-changes compares versions). */
export function opl(current: Map<string, string>, previous?: Map<string, string>): string {
  return [...current].map(([id, rest]) => `${id} v${previous?.has(id) && previous.get(id) !== rest ? 2 : 1} ${rest}`).join('\n') + '\n';
}

/** Four corner nodes from `id`, and the closed way `way` through them. */
export function square(id: number, way: number, south: number, west: number, north: number, east: number, tags: Tags = {}): { nodes: Node[]; way: Way } {
  const nodes = [
    { id, lat: south, lon: west },
    { id: id + 1, lat: south, lon: east },
    { id: id + 2, lat: north, lon: east },
    { id: id + 3, lat: north, lon: west },
  ];
  return { nodes, way: { id: way, refs: [id, id + 1, id + 2, id + 3, id], tags } };
}

export const addr = (street: string, hn: string, more: Tags = {}): Tags => ({ 'addr:street': street, 'addr:housenumber': hn, ...more });
const building = (tags: Tags = {}): Tags => ({ building: 'yes', ...tags });

/** The boundaries, the same in both extracts: a country, and two municipalities side by side (Adorf west, Bdorf east). */
interface Relation {
  id: number;
  tags: Tags;
  way: number;
}

function boundaries(): { nodes: Node[]; ways: Way[]; relations: Relation[] } {
  const country = square(900, 900, 50.0, 8.0, 50.2, 8.4);
  const adorf = square(910, 910, 50.0, 8.0, 50.2, 8.2);
  const bdorf = square(920, 920, 50.0, 8.2, 50.2, 8.4);
  return {
    nodes: [...country.nodes, ...adorf.nodes, ...bdorf.nodes],
    ways: [country.way, adorf.way, bdorf.way],
    relations: [
      { id: 900, way: 900, tags: { type: 'boundary', boundary: 'administrative', admin_level: '2', 'ISO3166-1:alpha2': 'DE', name: 'Deutschland' } },
      { id: 910, way: 910, tags: { type: 'boundary', boundary: 'administrative', admin_level: '8', name: 'Adorf' } },
      { id: 920, way: 920, tags: { type: 'boundary', boundary: 'administrative', admin_level: '8', name: 'Bdorf' } },
    ],
  };
}

function before(): Map<string, string> {
  const b = boundaries();
  const w20 = square(100, 20, 50.15, 8.1, 50.16, 8.11, building(addr('Hauptstraße', '10')));
  // Shares the nodes 101 and 102 with w20: moving them moves both.
  const w21: Way = { id: 21, refs: [101, 104, 105, 102, 101], tags: building(addr('Hauptstraße', '11')) };
  const w22 = square(110, 22, 50.05, 8.1, 50.051, 8.101, building(addr('Hauptstraße', '12')));
  const w23 = square(120, 23, 50.06, 8.1, 50.061, 8.101, building(addr('Hauptstraße', '13')));
  const w24 = square(130, 24, 50.05, 8.3, 50.051, 8.301, building());
  const w26 = square(150, 26, 50.07, 8.1, 50.071, 8.101, building(addr('Hauptstraße', '26')));
  const w27 = square(170, 27, 50.08, 8.1, 50.081, 8.101, { amenity: 'school', ...addr('Schulweg', '1') });
  const road: Way = { id: 30, refs: [160, 161], tags: { highway: 'residential', name: 'Hauptstraße' } };
  return elements(
    [
      ...b.nodes,
      { id: 1, lat: 50.1, lon: 8.05, tags: addr('Hauptstraße', '1') },
      { id: 2, lat: 50.1, lon: 8.06, tags: addr('Hauptstraße', '2') },
      { id: 3, lat: 50.1, lon: 8.07, tags: addr('Hauptstraße', '3') },
      { id: 4, lat: 50.1, lon: 8.25, tags: addr('Kirchweg', '4') },
      { id: 5, lat: 50.1, lon: 8.26 },
      { id: 6, lat: 50.1, lon: 8.08, tags: addr('Hauptstraße', '6', { 'addr:city': 'Adorf', 'addr:postcode': '11111', 'addr:unit': '1' }) },
      { id: 7, lat: 50.12, lon: 8.1, tags: addr('Hauptstraße', '7') },
      ...w20.nodes,
      { id: 104, lat: 50.15, lon: 8.12 },
      { id: 105, lat: 50.16, lon: 8.12 },
      ...w22.nodes,
      ...w23.nodes,
      ...w24.nodes,
      ...w26.nodes,
      ...w27.nodes,
      { id: 160, lat: 50.11, lon: 8.0 + 0.05 },
      { id: 161, lat: 50.11, lon: 8.0 + 0.15 },
    ],
    [...b.ways, w20.way, w21, w22.way, w23.way, w24.way, w26.way, w27.way, road],
    b.relations,
  );
}

function after(): Map<string, string> {
  const b = boundaries();
  // The building moved east, into Bdorf: every node of w20 (two of them shared with w21).
  const w20 = square(100, 20, 50.15, 8.3, 50.16, 8.31, building(addr('Hauptstraße', '10')));
  const w21: Way = { id: 21, refs: [101, 104, 105, 102, 101], tags: building(addr('Hauptstraße', '11')) };
  // Lost its address, stays a building.
  const w23 = square(120, 23, 50.06, 8.1, 50.061, 8.101, building());
  // Gained an address (with its flats); none of its nodes changed.
  const w24 = square(130, 24, 50.05, 8.3, 50.051, 8.301, building(addr('Kirchweg', '24', { 'addr:flats': '1-2' })));
  // New, sharing an unchanged node of w24.
  const w25: Way = { id: 25, refs: [133, 140, 141, 142, 133], tags: building(addr('Kirchweg', '25')) };
  // One corner deleted, the way now a triangle.
  const w26 = square(150, 26, 50.07, 8.1, 50.071, 8.101, building(addr('Hauptstraße', '26')));
  w26.way.refs = [151, 152, 153, 151];
  const w27 = square(170, 27, 50.08, 8.1, 50.081, 8.101, { amenity: 'school', ...addr('Schulweg', '1a') });
  const road: Way = { id: 30, refs: [160, 161], tags: { highway: 'residential', name: 'Hauptstraße' } };
  return elements(
    [
      ...b.nodes,
      // n1 deleted; n2 renumbered; n3 moved to another street; n4 unchanged; n5 gained an address.
      { id: 2, lat: 50.1, lon: 8.06, tags: addr('Hauptstraße', '2a') },
      { id: 3, lat: 50.1, lon: 8.07, tags: addr('Nebenweg', '3') },
      { id: 4, lat: 50.1, lon: 8.25, tags: addr('Kirchweg', '4') },
      { id: 5, lat: 50.1, lon: 8.26, tags: addr('Kirchweg', '5') },
      // Moved into Bdorf, but its tags name Adorf: the tags win. A unit added.
      { id: 6, lat: 50.1, lon: 8.3, tags: addr('Hauptstraße', '6', { 'addr:city': 'Adorf', 'addr:postcode': '11111', 'addr:unit': '1;2' }) },
      // Moved into Bdorf, untagged town: its municipality changes.
      { id: 7, lat: 50.12, lon: 8.3, tags: addr('Hauptstraße', '7') },
      ...w20.nodes,
      { id: 104, lat: 50.15, lon: 8.12 },
      { id: 105, lat: 50.16, lon: 8.12 },
      ...w23.nodes,
      ...w24.nodes,
      { id: 140, lat: 50.052, lon: 8.3 },
      { id: 141, lat: 50.052, lon: 8.302 },
      { id: 142, lat: 50.05, lon: 8.302 },
      ...w26.nodes.filter((n) => n.id !== 150),
      ...w27.nodes,
      // A road's nodes moved: nothing to do for the index.
      { id: 160, lat: 50.111, lon: 8.05 },
      { id: 161, lat: 50.111, lon: 8.15 },
    ],
    // w22 deleted with its nodes.
    [...b.ways, w20.way, w21, w23.way, w24.way, w25, w26.way, w27.way, road],
    b.relations,
  );
}

export interface ChangeFixture {
  before: string;
  after: string;
  change: string;
}

/** Writes both extracts (`name-before.osm.pbf`, `name-after.osm.pbf`) and the change file between them (gzip, as replication serves it) into `dir`. */
export function writeExtracts(dir: string, old: Map<string, string>, next: Map<string, string>, name = 'day'): ChangeFixture {
  const osmium = (...args: string[]) => execFileSync('osmium', [...args, '--overwrite', '--no-progress'], { stdio: 'pipe' });
  writeFileSync(join(dir, `${name}-before.opl`), opl(old));
  writeFileSync(join(dir, `${name}-after.opl`), opl(next, old));
  const out = { before: join(dir, `${name}-before.osm.pbf`), after: join(dir, `${name}-after.osm.pbf`), change: join(dir, `${name}.osc.gz`) };
  osmium('cat', join(dir, `${name}-before.opl`), '-o', out.before);
  osmium('cat', join(dir, `${name}-after.opl`), '-o', out.after);
  osmium('derive-changes', out.before, out.after, '-o', out.change);
  return out;
}

/** Writes both extracts and the change file into `dir`. */
export function writeChangeFixture(dir: string): ChangeFixture {
  return writeExtracts(dir, before(), after());
}
