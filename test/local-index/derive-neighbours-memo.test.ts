import { describe, expect, it } from 'vitest';
import { NeighbourIndex } from '../../src/local-index/import/derive-neighbours.js';
import type { RawAddress } from '../../src/local-index/types.js';

describe('NeighbourIndex (the last keys reused)', () => {
  const at = (street: string, lat: number, over: Partial<RawAddress> = {}): RawAddress => ({ street, houseNumber: '1', country: 'DE', lat, lng: 13.4, ...over });

  it('fills each row from the sources of its own street and town, whatever the row before it', () => {
    const index = new NeighbourIndex();
    index.add(at('Lindenweg', 52.5, { city: 'Berlin', postcode: '10115' }));
    index.add(at('Ahornweg', 52.6, { city: 'Potsdam', postcode: '14467' }));
    // About 1.1 km apart: farther than NEARBY, within SAME_STREET, so only the street can tell.
    const rows = [at('Lindenweg', 52.51), at('Lindenweg', 52.51, { city: 'Potsdam' }), at('Ahornweg', 52.61), at('Lindenweg', 52.51), at('Birkenweg', 52.51)];
    expect(rows.map((r) => [index.fill(r).city, index.fill(r).postcode])).toEqual([
      ['Berlin', '10115'],
      ['Potsdam', undefined],
      ['Potsdam', '14467'],
      ['Berlin', '10115'],
      [undefined, undefined],
    ]);
  });

  it('finds a street learnt after a row asked for it', () => {
    const index = new NeighbourIndex();
    index.add(at('Lindenweg', 52.5, { city: 'Berlin' }));
    expect(index.fill(at('Birkenweg', 52.51)).city).toBeUndefined();
    index.add(at('Birkenweg', 52.5, { city: 'Berlin' }));
    expect(index.fill(at('Birkenweg', 52.51)).city).toBe('Berlin');
  });
});
