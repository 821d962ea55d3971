import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalHit } from '../../src/local-index/index.js';
import { STORAGE_BACKENDS } from '../support/backends.js';
import { openIndexSandbox, type IndexSandbox } from './support/local-sandbox.js';

/**
 * Issue 35's `near`: a generated country where `Mühlenweg` is in 150 towns (more than the 60
 * streets a search fetches), on a grid 8 km apart. Typed near one town, its Mühlenweg comes
 * first, also for towns imported last (beyond any pool fetched in the index's order).
 */
const TOWNS = 150;
const COLUMNS = 15;
const town = (i: number) => `${String.fromCharCode(65 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}bach`;
const postcode = (i: number) => String(10000 + i * 11);
/** Town centres: 8 km apart (0.072° of latitude, 0.117° of longitude at 52°). */
const centre = (i: number) => ({ lat: 50 + Math.floor(i / COLUMNS) * 0.072, lng: 8 + (i % COLUMNS) * 0.117 });

function csv(): string {
  const rows = Array.from({ length: TOWNS }, (_, i) => i).flatMap((i) => {
    const c = centre(i);
    const street = (name: string, numbers: number, dLat: number) =>
      Array.from({ length: numbers }, (_, k) => `${name}-${i}-${k},${(c.lng + k * 0.0001).toFixed(5)},${(c.lat + dLat).toFixed(5)},${k + 1},${name},,${town(i)},,,${postcode(i)},`);
    return [...street('Mühlenweg', 60, 0), ...street('Mühlenstraße', 12, 0.002), ...street(`${town(i)}er Weg`, 3, 0.004)];
  });
  return ['hash,lon,lat,number,street,unit,city,district,region,postcode,id', ...rows].join('\n');
}

const where = (h: LocalHit | undefined) => (h ? `${h.components.street} ${h.components.houseNumber ?? '-'} ${h.components.city}` : undefined);
/** A point about 2 km north-east of a town's centre. */
const nearTown = (i: number) => ({ lat: centre(i).lat + 0.013, lng: centre(i).lng + 0.02 });

describe.each(STORAGE_BACKENDS)('near: the customer’s position ranks (%s)', (backend) => {
  let box: IndexSandbox;
  const probes = [0, 77, TOWNS - 1];

  beforeAll(async () => {
    box = await openIndexSandbox(backend);
    await box.index.importFile(box.file('de.csv', csv()), { format: 'openaddresses', country: 'DE' });
  });
  afterAll(async () => {
    await box?.close();
  });

  it('a street and number in 150 towns: the near town’s first, as it is typed', async () => {
    for (const i of probes) {
      const near = nearTown(i);
      for (const typed of ['Mühlenweg 56', 'Mühlenweg 5', 'Mühlenweg ', 'Mühlenw']) {
        const hits = await box.index.autocomplete({ query: typed, country: 'DE', near });
        expect(hits[0]?.components.city, `${typed} near ${town(i)}`).toBe(town(i));
      }
      expect(where((await box.index.autocomplete({ query: 'Mühlenweg 56', country: 'DE', near }))[0])).toBe(`Mühlenweg 56 ${town(i)}`);
      expect(where((await box.index.autocomplete({ query: '56 Mühlenweg', near }))[0])).toBe(`Mühlenweg 56 ${town(i)}`);
    }
  });

  it('the nearer towns follow, nearest first; the typed words still count first', async () => {
    const hits = await box.index.autocomplete({ query: 'Mühlenweg 56', country: 'DE', near: nearTown(77), limit: 5 });
    const neighbours = hits.map((h) => h.components.city);
    // Town 77's neighbours 8 km away: 62 (south), 76 (west), 78 (east), 92 (north).
    expect(neighbours[0]).toBe(town(77));
    expect(new Set(neighbours.slice(1)).size).toBe(4);
    for (const city of neighbours.slice(1)) expect([62, 76, 78, 92].map(town)).toContain(city);
    // Text first: near a town with both, the street typed is offered, not the other of its words' start.
    const typed = await box.index.autocomplete({ query: 'Mühlenstraße 3', country: 'DE', near: nearTown(10) });
    expect(where(typed[0])).toBe(`Mühlenstraße 3 ${town(10)}`);
  });

  it('validate’s alternatives come nearest first, each with its own score', async () => {
    const near = nearTown(TOWNS - 1);
    const hits = await box.index.geocode({ query: 'Mühlenweg 56', country: 'DE', near });
    expect(where(hits[0])).toBe(`Mühlenweg 56 ${town(TOWNS - 1)}`);
    const without = await box.index.geocode({ query: 'Mühlenweg 56', country: 'DE' });
    expect(hits[0]?.score).toBe(without[0]?.score);
    const structured = await box.index.geocode({ components: { street: 'Mühlenweg', houseNumber: '56' }, country: 'DE', near });
    expect(where(structured[0])).toBe(`Mühlenweg 56 ${town(TOWNS - 1)}`);
  });

  it('without a position, the ranking is the text’s alone', async () => {
    const a = await box.index.autocomplete({ query: 'Mühlenweg 56', country: 'DE' });
    const b = await box.index.autocomplete({ query: 'Mühlenweg 56', country: 'DE', near: nearTown(0) });
    expect(a.map(where)).not.toEqual(b.map(where));
    expect(a.every((h) => h.components.houseNumber === '56')).toBe(true);
  });
});
