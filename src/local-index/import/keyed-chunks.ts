import { type DerivedCounts, ImportFormatError, type ImportOptions, type ReaderItem, type RowItem, type RowProblem, type UnclosedArea } from '../types.js';
import { AddressKeyer, type KeyedAddress } from './address-keys.js';
import { deriveFromNeighbours } from './derive-stream.js';
import { readOpenAddresses } from './openaddresses.js';
import { readOsmPbf } from './osm-pbf.js';
import { readPlainCsv } from './plain-csv.js';
import type { StateBatch } from '../update/osm-state.js';

/** What the reading side of an import hands the writing side: one reader chunk, checked and keyed. */
export interface KeyedChunk {
  /** Rows read, usable or not. */
  rows: number;
  keyed: { row: number | string; a: KeyedAddress }[];
  /** Rows that cannot be used, in file order. */
  skips: RowProblem[];
  /** Countries of the keyed rows. */
  countries: string[];
  /** File bytes read so far. */
  bytesRead: number;
  /** Keyed rows whose town or postcode was derived, not read. */
  derived: DerivedCounts;
  /** Area relations the reader could not close (OSM). */
  areasNotClosed: UnclosedArea[];
  /** The OSM update state's batches read since the last chunk (`recordState`), in order. */
  state: StateBatch[];
}

export type ReadOptions = Pick<ImportOptions, 'format' | 'country'> & {
  /** OSM: gather the `--update` state in the same reading of the file (chunks' `state`). */
  recordState?: boolean;
};

function reader(path: string, opts: ReadOptions, onBytes: (n: number) => void): AsyncGenerator<ReaderItem[]> {
  switch (opts.format) {
    case 'openaddresses':
      if (!opts.country) throw new ImportFormatError('OpenAddresses files carry no country: pass --country CC');
      return readOpenAddresses(path, opts.country, onBytes);
    case 'osm':
      return readOsmPbf(path, opts.country, onBytes, { recordState: opts.recordState ?? false });
    case 'csv':
      return readPlainCsv(path, opts.country, onBytes);
  }
}

/**
 * Reads a file and keys every row (normalization is memoised per import by one AddressKeyer):
 * the CPU-heavy half of an import, which runs in a worker thread while the store writes.
 * `opts.country` is the upper-cased fallback country.
 */
export async function* keyedChunks(path: string, opts: ReadOptions): AsyncGenerator<KeyedChunk> {
  let bytesRead = 0;
  const keyer = new AddressKeyer();
  for await (const items of deriveFromNeighbours(reader(path, opts, (n) => (bytesRead = n)))) {
    const keyed: KeyedChunk['keyed'] = [];
    const skips: RowProblem[] = [];
    const countries = new Set<string>();
    const derived: DerivedCounts = { city: 0, postcode: 0 };
    const areasNotClosed: UnclosedArea[] = [];
    const state: StateBatch[] = [];
    let rows = 0;
    for (const item of items) {
      if (item.kind === 'area') {
        areasNotClosed.push(item.area);
        continue;
      }
      if (item.kind === 'state') {
        state.push(item.batch);
        continue;
      }
      rows++;
      const a = accept(item, keyer, skips);
      if (!a) continue;
      countries.add(a.street.country);
      keyed.push({ row: item.row, a });
      const inferred = item.kind === 'address' ? item.address.inferred : undefined;
      if (inferred?.includes('city')) derived.city++;
      if (inferred?.includes('postcode')) derived.postcode++;
    }
    yield { rows, keyed, skips, countries: [...countries], bytesRead, derived, areasNotClosed, state };
  }
}

const COUNTRY = /^[A-Z]{2}$/;

function skip(skips: RowProblem[], row: number | string, reason: RowProblem['reason'], detail?: string): undefined {
  skips.push(detail ? { row, reason, detail } : { row, reason });
  return undefined;
}

/** Country check and index keys for one row; a row that cannot be used is listed with its reason. No closure per row: this runs for every row. */
function accept(item: RowItem, keyer: AddressKeyer, skips: RowProblem[]): KeyedAddress | undefined {
  if (item.kind === 'bad') return skip(skips, item.row, item.reason, item.detail);
  const code = item.address.country?.toUpperCase();
  if (!code) return skip(skips, item.row, 'missing_country', 'no country in the row and no --country');
  if (!COUNTRY.test(code)) return skip(skips, item.row, 'invalid_country', item.address.country);
  const keyed = keyer.key(item.address, code);
  if (typeof keyed === 'string') return skip(skips, item.row, keyed);
  return keyed;
}
