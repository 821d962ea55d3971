import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { CsvError, parse } from 'csv-parse';

/** A file that cannot be validated; the message is the one line the operator sees. */
export class BulkInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BulkInputError';
  }
}

export interface InputFile {
  path: string;
  format: 'csv' | 'jsonl';
  /** CSV only; the output keeps it. */
  delimiter: string;
  columns: string[];
  rows: number;
  bytes: number;
}

const DELIMITERS = [',', ';', '\t', '|'] as const;
const nameOf = (d: string) => (d === '\t' ? 'tab' : `"${d}"`);

/**
 * Reads the whole file once before anything is billed: the format (JSON Lines by extension or a
 * leading `{`, else CSV), the CSV delimiter (the one the header line uses most, outside quotes),
 * the columns and the row count. A broken file fails here with one line naming the problem.
 */
export async function inspectInput(path: string): Promise<InputFile> {
  const bytes = await stat(path).then(
    (s) => s.size,
    () => {
      throw new BulkInputError(`${path}: no such file`);
    },
  );
  const head = await readHead(path);
  if (head.trim() === '') throw new BulkInputError(`${path} is empty: expected a header row and one address per row`);
  const jsonl = /\.(jsonl|ndjson)$/i.test(path) || head.trimStart().startsWith('{');
  if (jsonl) {
    const { columns, rows } = await inspectJsonLines(path);
    return { path, format: 'jsonl', delimiter: ',', columns, rows, bytes };
  }
  const delimiter = detectDelimiter(head);
  const columns: string[] = [];
  let rows = 0;
  try {
    for await (const record of csvStream(path, delimiter)) {
      if (columns.length === 0) columns.push(...headerOf(record as string[], path));
      else rows++;
    }
  } catch (error) {
    throw csvProblem(error, path, delimiter, columns.length);
  }
  if (rows === 0) throw new BulkInputError(`${path} has a header but no rows`);
  return { path, format: 'csv', delimiter, columns, rows, bytes };
}

/** Rows as arrays aligned with `input.columns` (JSON values flattened to text). */
export async function* readRows(input: InputFile): AsyncGenerator<string[]> {
  if (input.format === 'jsonl') {
    for await (const object of jsonObjects(input.path)) yield input.columns.map((c) => textOf(object[c]));
    return;
  }
  let header = true;
  for await (const record of csvStream(input.path, input.delimiter)) {
    if (header) header = false;
    else yield record as string[];
  }
}

function csvStream(path: string, delimiter: string) {
  return createReadStream(path, { highWaterMark: 1 << 20 }).pipe(parse({ delimiter, bom: true, skip_empty_lines: true }));
}

function headerOf(record: string[], path: string): string[] {
  const names = record.map((n) => n.trim());
  const dup = names.find((n, i) => names.indexOf(n) !== i);
  if (dup !== undefined) throw new BulkInputError(`${path}: the header names column "${dup}" twice`);
  if (names.some((n) => n === '')) throw new BulkInputError(`${path}: the header has an empty column name`);
  return names;
}

function csvProblem(error: unknown, path: string, delimiter: string, headerFields: number): Error {
  if (error instanceof BulkInputError) return error;
  if (error instanceof CsvError) {
    const line = (error as CsvError & { lines?: number }).lines;
    const where = line ? `${path} line ${line}` : path;
    if (error.code === 'CSV_RECORD_INCONSISTENT_FIELDS_LENGTH') {
      const record = (error as CsvError & { record?: string[] }).record ?? [];
      const others = DELIMITERS.filter((d) => d !== delimiter && record.join(delimiter).includes(d));
      const hint = others.length ? `: is it separated by ${others.map(nameOf).join(' or ')}, not ${nameOf(delimiter)}?` : '';
      return new BulkInputError(`${where}: ${record.length} fields where the header has ${headerFields}${hint}`);
    }
    return new BulkInputError(`${where}: ${error.message.replace(/^Invalid \w+: /, '')}`);
  }
  return error instanceof Error ? error : new Error(String(error));
}

async function readHead(path: string): Promise<string> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(64 * 1024);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return buffer.subarray(0, bytesRead).toString('utf8').replace(/^\uFEFF/, '');
  } finally {
    await handle.close();
  }
}

/** The delimiter the first line uses most often outside quotes; `,` when it has none (one column). */
export function detectDelimiter(head: string): string {
  const counts = new Map<string, number>(DELIMITERS.map((d) => [d, 0]));
  let quoted = false;
  for (const ch of head) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && (ch === '\n' || ch === '\r')) break;
    else if (!quoted && counts.has(ch)) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  }
  let best: string = ',';
  for (const d of DELIMITERS) if ((counts.get(d) ?? 0) > (counts.get(best) ?? 0)) best = d;
  return best;
}

async function* jsonObjects(path: string): AsyncGenerator<Record<string, unknown>> {
  const lines = createInterface({ input: createReadStream(path), crlfDelay: Infinity });
  let line = 0;
  for await (const text of lines) {
    line++;
    if (text.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw new BulkInputError(`${path} line ${line}: not a JSON object (JSON Lines holds one object per line)`);
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw new BulkInputError(`${path} line ${line}: not a JSON object (JSON Lines holds one object per line)`);
    }
    yield value as Record<string, unknown>;
  }
}

/** Columns: every key, in the order first seen. */
async function inspectJsonLines(path: string): Promise<{ columns: string[]; rows: number }> {
  const seen = new Set<string>();
  let rows = 0;
  for await (const object of jsonObjects(path)) {
    rows++;
    for (const key of Object.keys(object)) seen.add(key);
  }
  if (rows === 0) throw new BulkInputError(`${path} is empty: expected one JSON object per line`);
  return { columns: [...seen], rows };
}

function textOf(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}
