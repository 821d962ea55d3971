import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLocalProvider } from '../../src/providers/local/adapter.js';
import { STORAGE_BACKENDS } from '../support/backends.js';
import { corners, closed } from './support/osm-boundaries-fixture.js';
import { openIndexSandbox, type IndexSandbox } from './support/local-sandbox.js';
import { type PbfNode, type PbfRelation, writePbf } from './support/pbf-writer.js';

const addr = (street: string, hn: string, more: Record<string, string> = {}) => ({ 'addr:street': street, 'addr:housenumber': hn, ...more });

/**
 * Issue 34 items 2-4: a town and a postcode for every address the data can place, in this order:
 * tagged > area > place node > nearest addresses; what was derived is named in `inferred`.
 */
function extract(): Buffer {
  const nodes: PbfNode[] = [
    ...corners(1000, 47.1, 9.53, 47.13, 9.57), // Triesenberg
    ...corners(1010, 47.13, 9.5, 47.15, 9.53), // Vaduz, also the postal area 9490
    { id: 1100, lat: 47.1, lon: 9.61, tags: { place: 'village', name: 'Malbun' } },
    { id: 1101, lat: 47.24, lon: 9.6, tags: { place: 'city', name: 'Feldkirch' } },
    // Tagged: nothing derived.
    { id: 1, lat: 47.115, lon: 9.55, tags: addr('Landstrasse', '1', { 'addr:city': 'Triesenberg', 'addr:postcode': '9497' }) },
    // Town from the area, postcode from the same street.
    { id: 2, lat: 47.1154, lon: 9.5504, tags: addr('Landstrasse', '3') },
    // Town from the area, postcode from the town (Liechtenstein: one postcode per municipality).
    { id: 3, lat: 47.125, lon: 9.565, tags: addr('Jonaboda', '2') },
    // Town and postcode from the areas.
    { id: 4, lat: 47.14, lon: 9.515, tags: addr('Städtle', '5') },
    // Outside every boundary: the village's place node names the town; the postcode of a house on the street.
    { id: 5, lat: 47.101, lon: 9.612, tags: addr('Malbunweg', '1') },
    { id: 6, lat: 47.1012, lon: 9.6132, tags: addr('Malbunweg', '3', { 'addr:postcode': '9497' }) },
    // A tagged village inside the municipality keeps its tag; the postcode comes from the municipality.
    { id: 7, lat: 47.11, lon: 9.545, tags: addr('Burkatstrasse', '5', { 'addr:city': 'Rotenboden' }) },
    // Far from areas and place nodes: the nearest address of the same street gives both.
    { id: 8, lat: 47.35, lon: 9.45, tags: addr('Feldweg', '2', { 'addr:city': 'Ruggell', 'addr:postcode': '9491' }) },
    { id: 9, lat: 47.3505, lon: 9.4505, tags: addr('Feldweg', '4') },
    // 2.3 km from the village (its radius is 2 km), 15.6 km from the city (15 km): no town.
    { id: 10, lat: 47.1, lon: 9.641, tags: addr('Alpweg', '1') },
    // 4.5 km from the city's node: the city.
    { id: 11, lat: 47.2, lon: 9.62, tags: addr('Stadtweg', '7') },
    // A street leaving the municipality: its house outside every boundary and place node's reach takes the street's town.
    { id: 12, lat: 47.108, lon: 9.535, tags: addr('Bergstrasse', '1') },
    { id: 13, lat: 47.1082, lon: 9.5352, tags: addr('Bergstrasse', '3') },
    { id: 14, lat: 47.105, lon: 9.522, tags: addr('Bergstrasse', '86') },
  ];
  const relations: PbfRelation[] = [
    { id: 3000, tags: { type: 'boundary', boundary: 'administrative', admin_level: '8', name: 'Triesenberg' }, members: [{ type: 'way', id: 2000, role: 'outer' }] },
    { id: 3001, tags: { type: 'boundary', boundary: 'administrative', admin_level: '8', name: 'Vaduz' }, members: [{ type: 'way', id: 2001, role: 'outer' }] },
    { id: 3002, tags: { type: 'boundary', boundary: 'postal_code', postal_code: '9490' }, members: [{ type: 'way', id: 2001, role: 'outer' }] },
  ];
  return writePbf(nodes, [closed(2000, 1000), closed(2001, 1010)], relations);
}

describe.each(STORAGE_BACKENDS)('towns and postcodes derived at import (%s)', (backend) => {
  let box: IndexSandbox;
  beforeEach(async () => {
    box = await openIndexSandbox(backend);
  });
  afterEach(async () => box.close());

  const house = async (query: string) => {
    const [best] = await box.index.geocode({ query, country: 'LI' });
    return best?.precision === 'address' ? best : undefined;
  };

  it('fills town and postcode in the order tagged > area > place node > nearest addresses, naming what it derived', async () => {
    const summary = await box.index.importFile(box.file('li.osm.pbf', extract()), { format: 'osm', country: 'LI' });
    expect(summary).toMatchObject({ imported: 14, derived: { city: 10, postcode: 9 }, areasNotClosed: [] });
    const seen = async (query: string) => {
      const hit = await house(query);
      return { city: hit?.components.city, postcode: hit?.components.postcode, inferred: hit?.inferred };
    };
    expect(await seen('Landstrasse 1')).toEqual({ city: 'Triesenberg', postcode: '9497', inferred: undefined });
    expect(await seen('Landstrasse 3')).toEqual({ city: 'Triesenberg', postcode: '9497', inferred: ['city', 'postcode'] });
    expect(await seen('Jonaboda 2')).toEqual({ city: 'Triesenberg', postcode: '9497', inferred: ['city', 'postcode'] });
    expect(await seen('Städtle 5')).toEqual({ city: 'Vaduz', postcode: '9490', inferred: ['city', 'postcode'] });
    expect(await seen('Malbunweg 1')).toEqual({ city: 'Malbun', postcode: '9497', inferred: ['city', 'postcode'] });
    expect(await seen('Malbunweg 3')).toEqual({ city: 'Malbun', postcode: '9497', inferred: ['city'] });
    expect(await seen('Burkatstrasse 5')).toEqual({ city: 'Rotenboden', postcode: '9497', inferred: ['postcode'] });
    expect(await seen('Feldweg 4')).toEqual({ city: 'Ruggell', postcode: '9491', inferred: ['city', 'postcode'] });
    expect(await seen('Alpweg 1')).toEqual({ city: undefined, postcode: undefined, inferred: undefined });
    expect(await seen('Stadtweg 7')).toEqual({ city: 'Feldkirch', postcode: undefined, inferred: ['city'] });
  });

  it('keeps a street whole: no piece without a town beside the one with it, so an absent number is known absent', async () => {
    await box.index.importFile(box.file('li.osm.pbf', extract()), { format: 'osm', country: 'LI' });
    expect(await house('Bergstrasse 86, Triesenberg')).toMatchObject({ components: { city: 'Triesenberg', postcode: '9497' }, inferred: ['city', 'postcode'] });
    const [street] = await box.index.geocode({ query: 'Bergstrasse 90, Triesenberg', country: 'LI' });
    expect(street).toMatchObject({ precision: 'street', components: { street: 'Bergstrasse', city: 'Triesenberg' }, houseNumbersKnown: true });
    const streets = (await box.index.autocomplete({ query: 'Bergstr', country: 'LI', limit: 10 })).filter((h) => h.precision === 'street');
    expect(streets.map((h) => h.label)).toEqual(['Bergstrasse, Triesenberg']);
  });

  it('hands the derived components to the engine on the candidate, and autocomplete labels carry them', async () => {
    await box.index.importFile(box.file('li.osm.pbf', extract()), { format: 'osm', country: 'LI' });
    const [candidate] = await createLocalProvider(box.index).geocode({ query: 'Jonaboda 2', components: {}, country: 'LI' }, AbortSignal.timeout(5000));
    expect(candidate).toMatchObject({ precision: 'address', components: { city: 'Triesenberg', postcode: '9497' }, inferred: ['city', 'postcode'] });
    const [tagged] = await createLocalProvider(box.index).geocode({ query: 'Landstrasse 1', components: {}, country: 'LI' }, AbortSignal.timeout(5000));
    expect(tagged?.inferred).toBeUndefined();
    const suggestions = await box.index.autocomplete({ query: 'Jonaboda 2', country: 'LI', limit: 5 });
    expect(suggestions[0]).toMatchObject({ label: 'Jonaboda 2, 9497 Triesenberg', inferred: ['city', 'postcode'] });
  });
});

describe.each(STORAGE_BACKENDS)('OpenAddresses rows without CITY or POSTCODE (%s)', (backend) => {
  let box: IndexSandbox;
  beforeEach(async () => {
    box = await openIndexSandbox(backend);
  });
  afterEach(async () => box.close());

  it('take them from the nearest rows that have them: the same street first, then within a kilometre', async () => {
    const csv = [
      'LON,LAT,NUMBER,STREET,UNIT,CITY,DISTRICT,REGION,POSTCODE,ID,HASH',
      '-89.6500,39.7800,1,Main St,,Springfield,,IL,62701,,',
      '-89.6510,39.7801,3,Main St,,,,IL,,,',
      '-89.6450,39.7820,5,Oak Ave,,,,IL,,,',
      '-89.7100,39.7800,9,Far Rd,,,,IL,,,',
    ].join('\n');
    const summary = await box.index.importFile(box.file('il.csv', `${csv}\n`), { format: 'openaddresses', country: 'US' });
    expect(summary).toMatchObject({ imported: 4, derived: { city: 2, postcode: 2 } });
    const hit = async (query: string) => (await box.index.geocode({ query, country: 'US' })).find((h) => h.precision === 'address');
    expect(await hit('3 Main St')).toMatchObject({ components: { city: 'Springfield', postcode: '62701' }, inferred: ['city', 'postcode'] });
    // 500 m from the Main St house, on another street.
    expect(await hit('5 Oak Ave')).toMatchObject({ components: { city: 'Springfield', postcode: '62701' }, inferred: ['city', 'postcode'] });
    // 5 km away: nothing the file says reaches it.
    const far = await hit('9 Far Rd');
    expect(far?.components.city).toBeUndefined();
    expect(far?.inferred).toBeUndefined();
    expect((await hit('1 Main St'))?.inferred).toBeUndefined();
  });
});
