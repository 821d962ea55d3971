import { stat } from 'node:fs/promises';
import type { AddressInput, ImportSession, IndexStore } from '../store/store.js';
import { ImportFormatError, type ImportOptions, type ImportSummary } from '../types.js';
import type { KeyedAddress } from './address-keys.js';
import { coveredCountries } from './coverage.js';
import { keyedChunks } from './keyed-chunks.js';
import { mergePackedUnits } from '../units.js';
import { SummaryBuilder } from './summary.js';
import { keyedChunksInWorker } from './worker-chunks.js';

const BATCH = 10000;
/** Files from this size on are read in a worker thread; below it, starting one costs more than it saves. */
const WORKER_FROM_BYTES = 8 * 1024 * 1024;

/**
 * Streams a file into the index in one transaction, in batches: repeats inside a batch are
 * dropped here, and the store classifies the rest against what the index holds (new,
 * changed, unchanged, or a duplicate of a row this same import already wrote) and writes
 * them. Reading and keying run on a worker thread for large files, so they overlap with the
 * writes. Any error before commit leaves the index as it was.
 */
export async function runImport(store: IndexStore, path: string, opts: ImportOptions): Promise<ImportSummary> {
  if (opts.country && !/^[A-Za-z]{2}$/.test(opts.country)) throw new ImportFormatError(`--country must be an ISO 3166-1 alpha-2 code, not "${opts.country}"`);
  const country = opts.country?.toUpperCase();
  const info = await stat(path).catch(() => undefined);
  if (!info) throw new ImportFormatError(`Cannot read ${path}: no such file`);
  if (!info.isFile()) throw new ImportFormatError(`Cannot read ${path}: not a file`);
  const summary = new SummaryBuilder(path, opts.format);
  const alongside = opts.alongside;
  // A companion that takes the update state from this reading has the reader gather it.
  const read = { format: opts.format, ...(country ? { country } : {}), ...(alongside?.take ? { recordState: true } : {}) };
  const inWorker = opts.readInWorker ?? info.size >= WORKER_FROM_BYTES;
  const chunks = inWorker ? keyedChunksInWorker(path, read) : keyedChunks(path, read);
  const session = await store.beginImport();
  alongside?.start(session);
  let batch: { row: number | string; a: KeyedAddress }[] = [];
  // One batch is written while the next is read: PostgreSQL works while we parse. Batches
  // still go in order, so each one sees every row the previous ones wrote.
  let writing: Promise<void> = Promise.resolve();
  const perCountry = new Map<string, number>();
  try {
    for await (const chunk of chunks) {
      summary.rows += chunk.rows;
      for (const p of chunk.skips) summary.skip(p.row, p.reason, p.detail);
      for (const code of chunk.countries) summary.country(code);
      summary.derived.city += chunk.derived.city;
      summary.derived.postcode += chunk.derived.postcode;
      summary.areasNotClosed.push(...chunk.areasNotClosed);
      for (const b of chunk.state) await alongside?.take?.(b);
      for (const item of chunk.keyed) batch.push(item);
      // Rows are reported with every chunk: the OSM reader yields rows only once its first node pass is done.
      opts.onProgress?.({ bytesRead: chunk.bytesRead, totalBytes: info.size, rows: summary.rows });
      if (batch.length >= BATCH) {
        await writing;
        writing = writeBatch(session, batch, summary, perCountry);
        writing.catch(() => undefined); // awaited (and rethrown) before the next batch or at the end
        batch = [];
      }
    }
    await writing;
    await writeBatch(session, batch, summary, perCountry);
    const covered = coveredCountries(opts.format, country, perCountry);
    const record = { kind: 'import' as const, file: path, at: (opts.at ?? new Date()).toISOString(), covered, withdrawsUpdates: opts.format === 'osm' };
    // The option's country is recorded even when the file held none of it (covered, with no addresses yet).
    const countries = [...new Set([...summary.countryList, ...covered])].sort();
    const { removed, notInFile } = await session.finish(countries, opts.replace ?? false, record, alongside && (() => alongside.beforeCommit()));
    await alongside?.afterCommit();
    return summary.build(removed, notInFile, covered);
  } catch (err) {
    await chunks.return(undefined);
    await writing.catch(() => undefined);
    // Stopped before the rollback: on SQLite it writes through the import's connection.
    await alongside?.abort();
    await session.abort();
    throw err;
  }
}

async function writeBatch(
  session: ImportSession,
  batch: { row: number | string; a: KeyedAddress }[],
  summary: SummaryBuilder,
  perCountry: Map<string, number>,
): Promise<void> {
  if (batch.length === 0) return;
  const unique = new Map<string, { line: number | string; row: AddressInput }>();
  for (const { row: line, a } of batch) {
    const first = unique.get(a.identity);
    // A row of a house already read that names another of its units (OpenAddresses lists a flat a row) adds the unit.
    const units = first && a.units ? mergePackedUnits(first.row.units ?? null, a.units) : undefined;
    if (first && units !== undefined && units !== (first.row.units ?? null)) first.row = { ...first.row, units };
    else if (first) summary.skip(line, 'duplicate', 'same address earlier in the file');
    else unique.set(a.identity, { line, row: a });
  }
  const rows = [...unique.values()];
  for (const { row } of rows) perCountry.set(row.street.country, (perCountry.get(row.street.country) ?? 0) + 1);
  const outcome = await session.write(rows.map((r) => r.row));
  for (const i of outcome.duplicates) summary.skip(rows[i]!.line, 'duplicate', 'same address earlier in the file');
  summary.imported += outcome.imported;
  summary.updated += outcome.updated;
  summary.unchanged += outcome.unchanged;
}
