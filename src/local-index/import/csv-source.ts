import { parse, type CsvError, type Parser } from 'csv-parse';
import { createReadStream } from 'node:fs';
import { ImportFormatError, type ReaderItem } from '../types.js';
import { buildAddress, type RawFields } from './record.js';

export type CsvItem = { line: number; record: Record<string, string> } | { line: number; error: string };

export interface CsvSourceOptions {
  /** Maps a raw header name to the name the reader uses (trimmed, case folded, aliases resolved). */
  mapHeader: (name: string) => string;
  /** Columns (after mapHeader) a usable header must have. */
  requiredColumns: readonly string[];
  formatName: string;
  onBytes?: (bytesRead: number) => void;
}

const BATCH = 2000;

/** Resolves when the parser has records to read or has ended; rejects on its error. */
function readable(parser: Parser, state: { ended: boolean; error?: unknown }): Promise<void> {
  if (state.error) return Promise.reject(state.error);
  if (state.ended) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const done = () => {
      parser.off('readable', done);
      parser.off('end', done);
      parser.off('error', done);
      if (state.error) reject(state.error);
      else resolve();
    };
    parser.on('readable', done);
    parser.on('end', done);
    parser.on('error', done);
  });
}

/**
 * Streams the records of a CSV file with a header row, a few thousand at a time (one
 * await per batch, not per row: a million rows must not cost a million promises). Quoting
 * and column-count variants are tolerated; a record the parser cannot read is yielded as
 * an error and skipped, while a header that does not fit the format aborts before any row.
 * Records are parsed as arrays and line numbers counted here: csv-parse's per-record
 * `info` objects and column objects cost more than the rest of the import together. A
 * quoted field that spans lines shifts the numbers that follow it.
 */
export async function* csvRecords(path: string, opts: CsvSourceOptions): AsyncGenerator<CsvItem[]> {
  const input = createReadStream(path, { highWaterMark: 1 << 20 });
  const state: { ended: boolean; error?: unknown } = { ended: false };
  // Unreadable records, with the number of records the parser had produced before each.
  const skips: { before: number; message: string }[] = [];
  const parser = parse({ bom: true, relax_column_count: true, relax_quotes: true, skip_records_with_error: true });
  parser.on('skip', (err: CsvError) => skips.push({ before: parser.info.records, message: err.message }));
  parser.on('end', () => (state.ended = true));
  parser.on('error', (err: unknown) => (state.error ??= err));
  input.on('error', (err) => parser.destroy(err));
  input.pipe(parser);
  let names: string[] | undefined;
  let records = 0;
  let line = 0;
  const takeSkips = (batch: CsvItem[]) => {
    while (skips.length > 0 && skips[0]!.before <= records) batch.push({ line: ++line, error: skips.shift()!.message });
  };
  try {
    for (;;) {
      const batch: CsvItem[] = [];
      let values: string[] | null;
      while (batch.length < BATCH && (values = parser.read() as string[] | null) !== null) {
        takeSkips(batch);
        records++;
        line++;
        if (values.length === 1 && values[0] === '') continue; // blank line
        if (!names) {
          names = header(values, opts);
          continue;
        }
        const record: Record<string, string> = {};
        for (let i = 0; i < names.length && i < values.length; i++) record[names[i]!] = values[i]!;
        batch.push({ line, record });
      }
      if (batch.length > 0) {
        yield batch;
        opts.onBytes?.(input.bytesRead);
        continue;
      }
      if (state.ended) break;
      await readable(parser, state);
    }
  } catch (err) {
    if (err instanceof ImportFormatError) throw err;
    throw new ImportFormatError(`Cannot read ${path} as ${opts.formatName}: ${(err as Error).message}`);
  } finally {
    input.destroy();
  }
  const rest: CsvItem[] = [];
  records = Number.MAX_SAFE_INTEGER;
  takeSkips(rest);
  if (rest.length > 0) yield rest;
  if (!names) throw new ImportFormatError(`Not ${opts.formatName}: the file has no header row`);
}

function header(values: string[], opts: CsvSourceOptions): string[] {
  const names = values.map(opts.mapHeader);
  const missing = opts.requiredColumns.filter((c) => !names.includes(c));
  const problem = missing.length > 0 ? `missing column${missing.length > 1 ? 's' : ''} ${missing.join(', ')}` : undefined;
  const shown = values.join(',').replace(/[^\x20-\x7e\u00a0-\uffff]/g, '?').slice(0, 120);
  if (problem) throw new ImportFormatError(`Not ${opts.formatName}: ${problem} (header: ${shown})`);
  return names;
}

/** The records of a CSV as address rows: an unreadable record is a `malformed_row`, the rest go through `toFields`. */
export async function* csvAddresses(
  path: string,
  opts: CsvSourceOptions,
  toFields: (record: Record<string, string>) => RawFields,
): AsyncGenerator<ReaderItem[]> {
  for await (const batch of csvRecords(path, opts)) {
    yield batch.map((item) =>
      'error' in item
        ? ({ kind: 'bad', row: item.line, reason: 'malformed_row', detail: item.error } as const)
        : buildAddress(item.line, toFields(item.record)),
    );
  }
}
