import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { scoreCandidate } from '../../src/engine/score.js';
import { readValidateInput } from '../../src/engine/validate-input.js';
import { createLocalProvider } from '../../src/providers/local/adapter.js';
import { STORAGE_BACKENDS } from '../support/backends.js';
import { openIndexSandbox, type IndexSandbox } from './support/local-sandbox.js';
import { closed, corners } from './support/osm-boundaries-fixture.js';
import { type PbfNode, type PbfRelation, writePbf } from './support/pbf-writer.js';

/**
 * Issue 21: an OSM address keeps every admin level around it (and its `addr:suburb`, `is_in`
 * names) as alternative places, so a resident may write the parish, the quarter or the
 * municipality as the town and the address is still found and its town a match.
 * The extract has Portugal's shape: the concelho Lisboa (admin_level 7, the municipality) and in
 * it the freguesia Santa Maria Maior (8).
 */
const area = (id: number, tags: Record<string, string>, way: number): PbfRelation => ({ id, tags: { type: 'boundary', ...tags }, members: [{ type: 'way', id: way, role: 'outer' }] });

function lisbonExtract(): Buffer {
  const nodes: PbfNode[] = [
    ...corners(100, 38.6, -9.3, 38.8, -9.0), // Portugal (this corner of it)
    ...corners(110, 38.69, -9.23, 38.8, -9.08), // concelho Lisboa
    ...corners(120, 38.705, -9.145, 38.72, -9.125), // freguesia Santa Maria Maior
    { id: 1, lat: 38.7105, lon: -9.1373, tags: { 'addr:housenumber': '100', 'addr:street': 'Rua Augusta', 'addr:postcode': '1100-053' } },
    { id: 2, lat: 38.711, lon: -9.136, tags: { 'addr:housenumber': '50', 'addr:street': 'Rua dos Fanqueiros', 'addr:suburb': 'Baixa' } },
    { id: 3, lat: 38.7115, lon: -9.13, tags: { 'addr:housenumber': '12', 'addr:street': 'Rua de São Miguel', is_in: 'Alfama;Lisboa' } },
    { id: 4, lat: 38.75, lon: -9.15, tags: { 'addr:housenumber': '20', 'addr:street': 'Avenida de Roma' } },
    // the same street further on, outside the freguesia
    { id: 5, lat: 38.74, lon: -9.14, tags: { 'addr:housenumber': '200', 'addr:street': 'Rua Augusta' } },
  ];
  const ways = [closed(200, 100), closed(210, 110), closed(220, 120)];
  const relations = [
    area(300, { boundary: 'administrative', admin_level: '2', 'ISO3166-1': 'PT', name: 'Portugal' }, 200),
    area(310, { boundary: 'administrative', admin_level: '7', name: 'Lisboa' }, 210),
    area(320, { boundary: 'administrative', admin_level: '8', name: 'Santa Maria Maior' }, 220),
  ];
  return writePbf(nodes, ways, relations);
}

describe.each(STORAGE_BACKENDS)('OSM admin levels as alternative places (%s)', (backend) => {
  let box: IndexSandbox;
  beforeEach(async () => {
    box = await openIndexSandbox(backend);
    await box.index.importFile(box.file('lisboa.osm.pbf', lisbonExtract()), { format: 'osm' });
  });
  afterEach(async () => box.close());

  const house = async (query: string) => {
    const [best] = await box.index.geocode({ query, country: 'PT' });
    return best?.precision === 'address' ? best : undefined;
  };

  it.each([
    ['Rua Augusta 100, Lisboa', 'Rua Augusta', ['Lisboa', 'Santa Maria Maior']],
    ['Rua Augusta 100, Santa Maria Maior', 'Rua Augusta', ['Lisboa', 'Santa Maria Maior']],
    ['Rua dos Fanqueiros 50, Baixa', 'Rua dos Fanqueiros', ['Lisboa', 'Baixa', 'Santa Maria Maior']],
    ['Rua de São Miguel 12, Alfama', 'Rua de São Miguel', ['Lisboa', 'Alfama', 'Santa Maria Maior']],
    ['Avenida de Roma 20, Lisboa', 'Avenida de Roma', ['Lisboa']],
  ])('%s is found, with every place around it', async (query, street, places) => {
    const hit = await house(query);
    expect(hit?.components).toMatchObject({ street, city: 'Lisboa', country: 'PT' });
    expect(hit?.placeNames).toEqual(places);
  });

  it('answers the town a resident wrote at any level as a match, and names it', async () => {
    const provider = createLocalProvider(box.index);
    for (const [query, town] of [['Rua Augusta 100, 1100-053 Santa Maria Maior', 'Santa Maria Maior'], ['Rua de São Miguel 12, Alfama', 'Alfama']] as const) {
      const read = readValidateInput({ query, country: 'PT' });
      const [candidate] = await provider.geocode(read.query, AbortSignal.timeout(5000));
      const scored = scoreCandidate(read.readFor(candidate!), { ...candidate!, provider: 'local' }, { country: 'PT' });
      expect({ query, city: scored.componentVerdicts.city, named: scored.components.city }).toEqual({ query, city: 'match', named: town });
    }
  });

  it('keeps a street one street whatever levels its addresses lie in', async () => {
    const hits = await box.index.autocomplete({ query: 'Rua Augusta', country: 'PT', limit: 10 });
    expect(hits.filter((h) => h.precision === 'street').map((h) => h.label)).toEqual(['Rua Augusta, Lisboa']);
    expect((await house('Rua Augusta 200, Lisboa'))?.components).toMatchObject({ street: 'Rua Augusta', houseNumber: '200', city: 'Lisboa' });
  });
});
