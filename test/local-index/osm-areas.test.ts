import { describe, expect, it } from 'vitest';
import { AreaGrid, areaContains, makeArea } from '../../src/local-index/import/osm-areas.js';
import { assembleRings, relationRings } from '../../src/local-index/import/osm-rings.js';
import { boundaryOf, PlaceLocator } from '../../src/local-index/import/osm-places.js';

const square = (s: number, w: number, n: number, e: number): [number, number][] => [[s, w], [s, e], [n, e], [n, w], [s, w]];

describe('assembling boundary rings', () => {
  it('takes a closed way as a ring and chains open ways at shared ends, either way round', () => {
    expect(assembleRings([[1, 2, 3, 4, 1]])).toEqual({ rings: [[1, 2, 3, 4, 1]] });
    const closed = assembleRings([[1, 2, 3], [5, 4, 3], [5, 6, 1]]);
    expect('rings' in closed && closed.rings).toHaveLength(1);
    const ring = 'rings' in closed ? closed.rings[0]! : [];
    // The same cycle, whichever node it starts from and whichever way round it runs.
    expect(new Set(ring)).toEqual(new Set([1, 2, 3, 4, 5, 6]));
    expect(ring[0]).toBe(ring[ring.length - 1]);
  });

  it('closes rings whose ways meet mid-way (a ring touching itself at a node) and cancels a segment drawn twice', () => {
    // A figure eight through node 5, drawn as two ways that each cross it.
    const eight = assembleRings([[1, 2, 5, 6, 7], [7, 8, 5, 1]]);
    const rings = 'rings' in eight ? eight.rings : [];
    expect(rings.every((r) => r[0] === r[r.length - 1])).toBe(true);
    expect(rings.reduce((n, r) => n + r.length - 1, 0)).toBe(7);
    expect(new Set(rings.flat())).toEqual(new Set([1, 2, 5, 6, 7, 8]));
    // Two squares sharing the side 2-3 drawn in both: the shared side cancels, one ring remains round both.
    const merged = assembleRings([[1, 2, 3, 4, 1], [2, 5, 6, 3, 2]]);
    expect('rings' in merged && merged.rings).toHaveLength(1);
    expect('rings' in merged && new Set(merged.rings[0])).toEqual(new Set([1, 2, 5, 6, 3, 4]));
  });

  it('names why a relation cannot be closed: a ring left open, a member way or node missing from the file', () => {
    expect(assembleRings([[1, 2, 3], [3, 4], [10, 11, 12, 13, 10]])).toEqual({ error: 'ring not closed at nodes n1, n4' });
    expect(relationRings([7, 8], (w) => (w === 7 ? [1, 2, 3, 1] : undefined), () => [47, 9])).toEqual({ error: 'member way w8 not in the file' });
    expect(relationRings([7], () => [1, 2, 3, 1], (n) => (n === 3 ? undefined : [47, n]))).toEqual({ error: 'node n3 not in the file' });
  });
});

describe('point in area', () => {
  const withHole = makeArea('Triesenberg', [square(47.1, 9.53, 47.13, 9.57), square(47.115, 9.55, 47.12, 9.56)])!;

  it('is inside the outer ring and outside its hole (even-odd over every ring)', () => {
    expect(areaContains(withHole, 47.1168, 9.5442)).toBe(true);
    expect(areaContains(withHole, 47.117, 9.555)).toBe(false);
    expect(areaContains(withHole, 47.2, 9.5442)).toBe(false);
    expect(areaContains(withHole, 47.11, 9.6)).toBe(false);
  });

  it('finds through the grid both small areas and ones too large to bucket', () => {
    const grid = new AreaGrid<string>();
    grid.add(withHole);
    grid.add(makeArea('country', [square(40, 0, 55, 20)])!);
    expect(grid.containing(47.1168, 9.5442).sort()).toEqual(['Triesenberg', 'country']);
    expect(grid.containing(47.117, 9.555)).toEqual(['country']);
    expect(grid.containing(60, 9.5)).toEqual([]);
  });

  it('answers through its cells exactly as the rings do, for concave areas with holes, bucketed or large', () => {
    // An L with a hole: 1.2 degrees across (checked by its box), and a copy shrunk to 0.12 (bucketed).
    const shape = (k: number): [number, number][][] => [
      [[0, 0], [0, 1.2 * k], [0.4 * k, 1.2 * k], [0.4 * k, 0.4 * k], [1.2 * k, 0.4 * k], [1.2 * k, 0], [0, 0]].map(([y, x]) => [45 + y!, 7 + x!] as [number, number]),
      square(45 + 0.1 * k, 7 + 0.1 * k, 45 + 0.3 * k, 7 + 0.25 * k),
    ];
    let seed = 7;
    const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
    for (const k of [1, 0.1]) {
      const area = makeArea(k, shape(k))!;
      const grid = new AreaGrid<number>();
      grid.add(area);
      for (let i = 0; i < 3000; i++) {
        const [lat, lng] = [44.9 + random() * 1.4 * k, 6.9 + random() * 1.4 * k];
        expect(grid.containing(lat, lng).length === 1, `${lat}, ${lng}`).toBe(areaContains(area, lat, lng));
      }
    }
  });

  it('makes no area of rings too short to enclose anything', () => {
    expect(makeArea('x', [[[47, 9], [47.1, 9.1], [47, 9]]])).toBeUndefined();
  });
});

describe('which boundaries tell an address its place', () => {
  it('reads administrative levels, countries and postal-code areas; ignores the rest', () => {
    expect(boundaryOf({ type: 'boundary', boundary: 'administrative', admin_level: '8', name: 'Vaduz' })).toEqual({ kind: 'admin', level: 8, name: 'Vaduz' });
    expect(boundaryOf({ type: 'boundary', boundary: 'administrative', admin_level: '2', 'ISO3166-1:alpha2': 'li' })).toEqual({ kind: 'country', level: 2, country: 'LI' });
    expect(boundaryOf({ type: 'boundary', boundary: 'postal_code', postal_code: '9494' })).toEqual({ kind: 'postal', postcode: '9494' });
    expect(boundaryOf({ type: 'boundary', boundary: 'administrative', admin_level: '6', name: 'Bezirk Feldkirch', postal_code: '6800' })).toMatchObject({ postcode: '6800' });
    // Every administrative level is an area, as osmium builds it; only levels 7-10 name the places of an address.
    expect(boundaryOf({ type: 'boundary', boundary: 'administrative', admin_level: '4', name: 'Vorarlberg' })).toEqual({ kind: 'admin', level: 4, name: 'Vorarlberg' });
    expect(boundaryOf({ type: 'boundary', boundary: 'administrative', name: 'Levelless' })).toBeUndefined();
    expect(boundaryOf({ type: 'boundary', boundary: 'postal_code', postal_code: '6800;6801' })).toBeUndefined();
    expect(boundaryOf({ type: 'boundary', boundary: 'political', admin_level: '8', name: 'Wahlkreis' })).toBeUndefined();
    expect(boundaryOf({ type: 'route', boundary: 'administrative', admin_level: '8', name: 'Vaduz' })).toBeUndefined();
  });

  it('takes the municipality level of the country: the Dutch woonplaats before the gemeente, level 8 elsewhere', () => {
    const locator = new PlaceLocator();
    const area = [square(52, 3, 53, 4)];
    locator.add(makeArea({ kind: 'country', level: 2, country: 'NL' }, area)!);
    locator.add(makeArea({ kind: 'admin', level: 8, name: 'Veere' }, area)!);
    locator.add(makeArea({ kind: 'admin', level: 10, name: 'Westkapelle' }, area)!);
    locator.add(makeArea({ kind: 'postal', postcode: '4361' }, area)!);
    // The other containing level stays as an alternative place: residents write either.
    expect(locator.locate(52.5, 3.5, undefined)).toEqual({ country: 'NL', municipality: 'Westkapelle', postcode: '4361', places: ['Veere'] });
    // The address's own country decides the level: level 8 for Germany.
    expect(locator.locate(52.5, 3.5, 'DE')).toEqual({ country: 'DE', municipality: 'Veere', postcode: '4361', places: ['Westkapelle'] });
    expect(locator.locate(60, 3.5, undefined)).toEqual({});
    // A region around it is an area, never a place of the address.
    locator.add(makeArea({ kind: 'admin', level: 4, name: 'Zeeland' }, area)!);
    expect(locator.locate(52.5, 3.5, undefined)).toEqual({ country: 'NL', municipality: 'Westkapelle', postcode: '4361', places: ['Veere'] });
  });
});
