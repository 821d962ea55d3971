import { stat } from 'node:fs/promises';
import type { AddressInput, ImportSession, IndexStore } from '../store/store.js';
import { ImportFormatError, type ImportOptions, type ImportSummary, type ReaderItem } from '../types.js';
import { AddressKeyer, type KeyedAddress } from './address-keys.js';
import { readOpenAddresses } from './openaddresses.js';
import { readOsmPbf } from './osm-pbf.js';
import { readPlainCsv } from './plain-csv.js';
import { SummaryBuilder } from './summary.js';

const BATCH = 10000;

function reader(path: string, opts: ImportOptions, onBytes: (n: number) => void): AsyncGenerator<ReaderItem[]> {
  switch (opts.format) {
    case 'openaddresses':
      if (!opts.country) throw new ImportFormatError('OpenAddresses files carry no country: pass --country CC');
      return readOpenAddresses(path, opts.country, onBytes);
    case 'osm':
      return readOsmPbf(path, opts.country, onBytes);
    case 'csv':
      return readPlainCsv(path, opts.country, onBytes);
  }
}

/**
 * Streams a file into the index in one transaction, in batches: repeats inside a batch are
 * dropped here, and the store classifies the rest against what the index holds (new,
 * changed, unchanged, or a duplicate of a row this same import already wrote) and writes
 * them. Any error before commit leaves the index as it was.
 */
export async function runImport(store: IndexStore, path: string, opts: ImportOptions): Promise<ImportSummary> {
  if (opts.country && !/^[A-Za-z]{2}$/.test(opts.country)) throw new ImportFormatError(`--country must be an ISO 3166-1 alpha-2 code, not "${opts.country}"`);
  const country = opts.country?.toUpperCase();
  const info = await stat(path).catch(() => undefined);
  if (!info) throw new ImportFormatError(`Cannot read ${path}: no such file`);
  if (!info.isFile()) throw new ImportFormatError(`Cannot read ${path}: not a file`);
  const summary = new SummaryBuilder(path, opts.format);
  // Rows are also reported between byte updates: the OSM reader yields its ways after reading the file.
  let bytesRead = 0;
  const report = (n: number) => {
    bytesRead = n;
    opts.onProgress?.({ bytesRead, totalBytes: info.size, rows: summary.rows });
  };
  const items = reader(path, { ...opts, country }, report);
  const keyer = new AddressKeyer();
  const session = await store.beginImport();
  let batch: { row: number | string; a: KeyedAddress }[] = [];
  // One batch is written while the next is read: PostgreSQL works while we parse. Batches
  // still go in order, so each one sees every row the previous ones wrote.
  let writing: Promise<void> = Promise.resolve();
  try {
    for await (const chunk of items) {
      for (const item of chunk) {
        summary.rows++;
        const keyed = accept(item, keyer, summary);
        if (keyed) batch.push({ row: item.row, a: keyed });
      }
      report(bytesRead);
      if (batch.length >= BATCH) {
        await writing;
        writing = writeBatch(session, batch, summary);
        writing.catch(() => undefined); // awaited (and rethrown) before the next batch or at the end
        batch = [];
      }
    }
    await writing;
    await writeBatch(session, batch, summary);
    const removed = await session.finish(summary.countryList, opts.replace ?? false);
    return summary.build(removed);
  } catch (err) {
    await writing.catch(() => undefined);
    await session.abort();
    throw err;
  }
}

/** Country check and index keys for one row; a row that cannot be used is counted and reported. */
function accept(item: ReaderItem, keyer: AddressKeyer, summary: SummaryBuilder): KeyedAddress | undefined {
  if (item.kind === 'bad') {
    summary.skip(item.row, item.reason, item.detail);
    return undefined;
  }
  const code = item.address.country?.toUpperCase();
  if (!code) {
    summary.skip(item.row, 'missing_country', 'no country in the row and no --country');
    return undefined;
  }
  if (!/^[A-Z]{2}$/.test(code)) {
    summary.skip(item.row, 'invalid_country', item.address.country);
    return undefined;
  }
  const keyed = keyer.key(item.address, code);
  if (typeof keyed === 'string') {
    summary.skip(item.row, keyed);
    return undefined;
  }
  summary.country(code);
  return keyed;
}

async function writeBatch(session: ImportSession, batch: { row: number | string; a: KeyedAddress }[], summary: SummaryBuilder): Promise<void> {
  if (batch.length === 0) return;
  const unique = new Map<string, { line: number | string; row: AddressInput }>();
  for (const { row: line, a } of batch) {
    if (unique.has(a.identity)) summary.skip(line, 'duplicate', 'same address earlier in the file');
    else unique.set(a.identity, { line, row: a });
  }
  const rows = [...unique.values()];
  const outcome = await session.write(rows.map((r) => r.row));
  for (const i of outcome.duplicates) summary.skip(rows[i]!.line, 'duplicate', 'same address earlier in the file');
  summary.imported += outcome.imported;
  summary.updated += outcome.updated;
  summary.unchanged += outcome.unchanged;
}
