import { parse, type CsvError } from 'csv-parse';
import { createReadStream } from 'node:fs';
import { ImportFormatError } from '../types.js';

export type CsvItem = { line: number; record: Record<string, string> } | { line: number; error: string };

export interface CsvSourceOptions {
  /** Maps a raw header name to the name the reader uses (trimmed, case folded, aliases resolved). */
  mapHeader: (name: string) => string;
  /** Returns what is wrong with the mapped header, or undefined when it is usable. */
  checkHeader: (names: string[]) => string | undefined;
  formatName: string;
  onBytes?: (bytesRead: number) => void;
}

/**
 * Streams the records of a CSV file with a header row. Quoting and column-count variants
 * are tolerated; a record the parser cannot read is yielded as an error and skipped, while
 * a header that does not fit the format aborts before any row is used.
 */
export async function* csvRecords(path: string, opts: CsvSourceOptions): AsyncGenerator<CsvItem> {
  const input = createReadStream(path, { highWaterMark: 1 << 20 });
  let headerSeen = false;
  const skipped: CsvItem[] = [];
  const parser = parse({
    bom: true,
    relax_column_count: true,
    relax_quotes: true,
    skip_empty_lines: true,
    skip_records_with_error: true,
    info: true,
    columns: (header: string[]) => {
      const names = header.map(opts.mapHeader);
      const problem = opts.checkHeader(names);
      if (problem) throw new ImportFormatError(`Not ${opts.formatName}: ${problem} (header: ${header.join(',').replace(/[^\x20-\x7e\u00a0-\uffff]/g, '?').slice(0, 120)})`);
      headerSeen = true;
      return names;
    },
  });
  parser.on('skip', (err: CsvError & { lines?: number }) => {
    skipped.push({ line: err.lines ?? 0, error: err.message });
  });
  input.on('error', (err) => parser.destroy(err));
  input.pipe(parser);
  try {
    for await (const chunk of parser as AsyncIterable<{ record: Record<string, string>; info: { lines: number } }>) {
      while (skipped.length > 0) yield skipped.shift()!;
      yield { line: chunk.info.lines, record: chunk.record };
      opts.onBytes?.(input.bytesRead);
    }
  } catch (err) {
    if (err instanceof ImportFormatError) throw err;
    const cause = (err as { cause?: unknown }).cause;
    if (cause instanceof ImportFormatError) throw cause;
    throw new ImportFormatError(`Cannot read ${path} as ${opts.formatName}: ${(err as Error).message}`);
  } finally {
    input.destroy();
  }
  while (skipped.length > 0) yield skipped.shift()!;
  if (!headerSeen) throw new ImportFormatError(`Not ${opts.formatName}: the file has no header row`);
  opts.onBytes?.(input.bytesRead);
}
