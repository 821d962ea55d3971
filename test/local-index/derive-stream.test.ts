import { describe, expect, it } from 'vitest';
import { deriveFromNeighbours } from '../../src/local-index/import/derive-stream.js';
import type { ReaderItem } from '../../src/local-index/types.js';

const address = (row: number, street: string, lat: number, more: { city?: string; postcode?: string } = {}): ReaderItem => ({
  kind: 'address',
  row,
  address: { street, houseNumber: String(row), country: 'DE', lat, lng: 8, ...more },
});

async function run(items: ReaderItem[][], inMemory?: number): Promise<ReaderItem[]> {
  async function* source() {
    yield* items;
  }
  const out: ReaderItem[] = [];
  for await (const chunk of deriveFromNeighbours(source(), inMemory)) out.push(...chunk);
  return out;
}

/** Rows missing a town or postcode wait for the whole file, in memory or (many of them) on disk, and come out alike. */
describe('neighbour derivation over a reader stream', () => {
  const items: ReaderItem[][] = [
    [address(1, 'Hauptstraße', 50.1, { city: 'Adorf', postcode: '11111' }), address(2, 'Hauptstraße', 50.1002), { kind: 'bad', row: 3, reason: 'missing_street' }],
    [address(4, 'Nebenweg', 50.1004, { city: 'Adorf' }), address(5, 'Hauptstraße', 50.1003, { city: 'Adorf', postcode: '11112' }), address(6, 'Feldweg', 50.5)],
  ];

  it('passes complete rows and bad rows on at once, and fills the others after the last row, in their order', async () => {
    const out = await run(items);
    expect(out.map((i) => (i.kind === 'area' || i.kind === 'state' ? i.kind : i.row))).toEqual([1, 3, 5, 2, 4, 6]);
    const byRow = new Map(out.flatMap((i) => (i.kind === 'address' ? [[i.row, i.address] as const] : [])));
    // The nearest house of the street, read after it: 11112 lies 11 m away, 11111 22 m.
    expect(byRow.get(2)).toMatchObject({ city: 'Adorf', postcode: '11112', inferred: ['city', 'postcode'] });
    expect(byRow.get(4)).toMatchObject({ city: 'Adorf', postcode: '11112', inferred: ['postcode'] });
    // 45 km from every other row: nothing reaches it.
    expect(byRow.get(6)).toEqual({ street: 'Feldweg', houseNumber: '6', country: 'DE', lat: 50.5, lng: 8 });
  });

  it('gives the same rows when the waiting ones spill to disk', async () => {
    expect(await run(items, 1)).toEqual(await run(items));
  });

  it('gives the same rows, in their order, when pages of them wait on disk', async () => {
    // 4,999 rows waiting: 100 in memory, two pages of 2,000 on disk, the rest after them.
    const street = [address(0, 'Lange Straße', 50, { city: 'Bdorf', postcode: '22222' })];
    for (let row = 1; row < 5000; row++) street.push(address(row, 'Lange Straße', 50 + row * 1e-6));
    const many = [street.slice(0, 2500), street.slice(2500)];
    const spilled = await run(many, 100);
    expect(spilled.map((i) => (i.kind === 'address' ? i.row : i.kind))).toEqual(Array.from({ length: 5000 }, (_, row) => row));
    expect(spilled.at(-1)).toMatchObject({ address: { city: 'Bdorf', postcode: '22222', inferred: ['city', 'postcode'] } });
    expect(spilled).toEqual(await run(many));
  });
});
