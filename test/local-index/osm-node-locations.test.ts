import { describe, expect, it } from 'vitest';
import { NodeLocations } from '../../src/local-index/import/osm-node-locations.js';

/** The importer's store of the coordinates address and boundary ways need (osm-pbf.ts). */
describe('NodeLocations', () => {
  const build = (needed: number[]) => {
    const l = new NodeLocations();
    for (const id of needed) l.need(id);
    l.seal();
    return l;
  };

  it('keeps the coordinates of needed nodes only, at OSM precision, from a file in id order', () => {
    // Ids as large as today's OSM node ids (beyond 2^32), repeated as ways share nodes.
    const l = build([12_000_000_003, 5, 12_000_000_003, 7, 5]);
    expect(l.size).toBe(3);
    for (const [id, lat, lon] of [[1, 1, 1], [5, 52.3702157, 4.8951679], [6, 9, 9], [7, -33.8688197, 151.2092955], [12_000_000_003, 47.1, 9.5]] as const) l.set(id, lat, lon);
    expect(l.get(5)).toEqual([52.3702157, 4.8951679]);
    expect(l.get(7)).toEqual([-33.8688197, 151.2092955]);
    expect(l.get(12_000_000_003)).toEqual([47.1, 9.5]);
    expect(l.get(6)).toBeUndefined(); // in the file, never needed
    expect(l.get(1)).toBeUndefined();
  });

  it('finds nodes of a file that is not sorted by id, and says when a needed node never came', () => {
    const l = build([30, 10, 20, 40]);
    l.set(30, 3, 3);
    l.set(10, 1, 1);
    l.set(20, 2, 2);
    expect([l.get(10), l.get(20), l.get(30)]).toEqual([[1, 1], [2, 2], [3, 3]]);
    expect(l.get(40)).toBeUndefined();
  });

  it('grows past its first allocation', () => {
    const l = build(Array.from({ length: 200_000 }, (_, i) => 200_000 - i));
    expect(l.size).toBe(200_000);
    l.set(199_999, 1.5, 2.5);
    expect(l.get(199_999)).toEqual([1.5, 2.5]);
  });
});
