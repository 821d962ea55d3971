import { readFileSync, writeFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { normalizeHouseNumber, normalizePostcode, normalizeStreet } from '../../src/address/normalize.js';
import { type CorpusAddress, writtenRows } from './rows.js';

export type { CorpusAddress } from './rows.js';

const here = (path: string) => new URL(path, import.meta.url);

interface DatasetRow {
  street: string;
  houseNumber: string;
  postcode: string;
  city: string;
  state?: string;
  country: string;
  lat: number;
  lng: number;
}

/** The emulators' dataset (NL, DE, FR, GB, US) and their place-level addresses (LI, NL). */
function emulatorRows(): CorpusAddress[] {
  return ['dataset.json', 'place-levels.json'].flatMap((name) => {
    const rows = JSON.parse(readFileSync(here(`../../test/emulators/fixtures/${name}`), 'utf8')) as DatasetRow[];
    return rows.map((r) => ({
      street: r.street,
      houseNumber: r.houseNumber,
      postcode: r.postcode,
      city: r.city,
      ...(r.state && r.country === 'US' ? { state: r.state } : {}),
      country: r.country,
      lat: r.lat,
      lng: r.lng,
      source: `emulators/${name}`,
    }));
  });
}

/** The project's OpenAddresses (Amsterdam) and plain CSV (Berlin) import fixtures; rows without a postcode or coordinates are left out. */
function fixtureRows(): CorpusAddress[] {
  const read = (name: string) =>
    parse(readFileSync(here(`../../test/fixtures/import/${name}`), 'utf8'), { columns: (h: string[]) => h.map((c) => c.trim().toLowerCase()), skip_empty_lines: true, relax_column_count: true }) as Record<string, string>[];
  const oa = read('amsterdam.oa.csv').map((r) => ({
    street: r.street ?? '',
    houseNumber: r.unit ? `${r.number}-${r.unit}` : (r.number ?? ''),
    postcode: r.postcode ?? '',
    city: r.city ?? '',
    country: 'NL',
    lat: Number(r.lat),
    lng: Number(r.lon),
    source: 'fixtures/amsterdam.oa.csv',
  }));
  const berlin = read('berlin.csv').map((r) => ({
    street: r.street ?? '',
    houseNumber: r.house_number ?? '',
    postcode: r.postcode ?? '',
    city: r.city ?? '',
    country: 'DE',
    lat: Number(r.lat),
    lng: Number(r.lng),
    source: 'fixtures/berlin.csv',
  }));
  return [...oa, ...berlin].filter((r) => r.street && r.houseNumber && r.postcode && Number.isFinite(r.lat) && Number.isFinite(r.lng));
}

/** Identity of an address in the corpus: one per country, street and house number. */
export function addressKey(a: Pick<CorpusAddress, 'country' | 'street' | 'houseNumber'>): string {
  return `${a.country}|${normalizeStreet(a.street, a.country).replace(/\s+/g, '')}|${normalizeHouseNumber(a.houseNumber)}`;
}

/** Every base address, first source winning on duplicates (the OA fixture repeats dataset rows); postcodes in their display form. */
export function corpusAddresses(extra: readonly CorpusAddress[] = []): CorpusAddress[] {
  const seen = new Set<string>();
  return [...emulatorRows(), ...fixtureRows(), ...writtenRows(), ...extra]
    .map((a) => ({ ...a, postcode: normalizePostcode(a.postcode, a.country) }))
    .filter((a) => {
      const key = addressKey(a);
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
}

/** Writes the addresses as a plain CSV the `local` importer reads (`addressd import --format csv`). */
export function writeImportCsv(path: string, addresses: readonly CorpusAddress[]): void {
  const quote = (s: string | number | undefined) => `"${String(s ?? '').replace(/"/g, '""')}"`;
  const lines = addresses.map((a) => [a.street, a.houseNumber, a.postcode, a.city, a.state, a.country, a.lat, a.lng].map(quote).join(','));
  writeFileSync(path, ['street,house_number,postcode,city,state,country,lat,lng', ...lines].join('\n') + '\n');
}
