import { createWriteStream, fchmodSync, openSync, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import type { ValidateResponse } from '../../contract/validate.js';
import { isUnverified } from '../../engine/unverified.js';
import { neutralizeCell, neutralizeOwnNumber } from './cell-safety.js';

/**
 * What each output row adds to the input columns (issue 13), in this order. Issue 27's columns come
 * last, so rows journaled before them keep their positions: `unit` (as the input gave it),
 * `formatted` (the postal lines on one line), `action` and `granularity` (the level the data
 * confirmed: `granularity.validated`); issue 34's `inferred` after them (what the data derived,
 * `city|postcode`, as in `address.inferred`).
 */
export const RESULT_COLUMNS = [
  'verdict', 'confidence', 'reasons', 'street', 'houseNumber', 'postcode', 'city', 'state', 'country', 'lat', 'lng', 'provider', 'error', 'verified',
  'unit', 'formatted', 'action', 'granularity', 'inferred',
] as const;

/** Positions in ResultFields of the verdict and of `verified` (`yes`, `no`: no provider answered, or empty: not looked up). */
export const VERDICT = RESULT_COLUMNS.indexOf('verdict');
export const VERIFIED = RESULT_COLUMNS.indexOf('verified');
export const ERROR = RESULT_COLUMNS.indexOf('error');

/** A row's result as output text, in RESULT_COLUMNS order (kept in the journal as is). */
export type ResultFields = string[];

export function resultFields(response: ValidateResponse): ResultFields {
  const a = response.address;
  return [
    response.verdict,
    String(response.confidence),
    response.reasons.join('|'),
    a?.street ?? '',
    a?.houseNumber ?? '',
    a?.postcode ?? '',
    a?.city ?? '',
    a?.state ?? '',
    a?.country ?? '',
    a ? String(a.lat) : '',
    a ? String(a.lng) : '',
    response.provider ?? '',
    // Not a finding: every provider failed (and nothing was billed); --resume looks it up again.
    isUnverified(response) ? 'no provider answered: not verified' : '',
    isUnverified(response) ? 'no' : 'yes',
    a?.unit ?? '',
    a?.formatted ?? '',
    response.action,
    response.granularity.validated,
    a?.inferred.join('|') ?? '',
  ];
}

/** A row that was not looked up (no address, or too long a field): only the error column. */
export const errorFields = (error: string): ResultFields => {
  const fields = new Array<string>(RESULT_COLUMNS.length).fill('');
  fields[ERROR] = error;
  return fields;
};

/**
 * Fields journaled by an earlier version, in today's layout: before the `verified` column (error
 * last) that column is added from the error; before issue 27's columns they are left empty.
 */
export function currentLayout(fields: ResultFields): ResultFields {
  if (fields.length >= RESULT_COLUMNS.length) return fields;
  if (fields.length > VERIFIED) return [...fields, ...new Array<string>(RESULT_COLUMNS.length - fields.length).fill('')];
  const error = fields[fields.length - 1] ?? '';
  const verified = fields[VERDICT] === '' ? '' : error === 'no provider answered: not verified' ? 'no' : 'yes';
  return currentLayout([...fields, verified]);
}

/** A row an earlier run finished but no provider answered: it is looked up again. */
export const needsRetry = (fields: ResultFields): boolean => fields[VERIFIED] === 'no';

/** Result column names; one that an input column already uses gets a `validated_` prefix. */
export function outputHeader(inputColumns: readonly string[]): string[] {
  return [...inputColumns, ...RESULT_COLUMNS.map((c) => (inputColumns.includes(c) ? `validated_${c}` : c))];
}

/** Output files hold customers' addresses: readable by the service user only. */
export const PRIVATE_FILE_MODE = 0o600;

/**
 * Writes rows as CSV (the input's delimiter) or JSON Lines, through one buffered stream. CSV cells
 * are neutralized against formula injection (cell-safety.ts) unless `rawCells`; JSON Lines are
 * data for programs, never opened as a spreadsheet, and are written as they are.
 */
export class OutputWriter {
  private readonly stream: WriteStream;
  private readonly header: string[];
  /** A field holding one of these is quoted. */
  private readonly special: RegExp;
  /** Per CSV cell of a row: how it is made safe for spreadsheets. */
  private readonly safe: ((value: string) => string)[] | undefined;

  constructor(
    path: string,
    private readonly format: 'csv' | 'jsonl',
    private readonly delimiter: string,
    inputColumns: readonly string[],
    options: { rawCells?: boolean } = {},
  ) {
    this.header = outputHeader(inputColumns);
    this.special = new RegExp(`["\\r\\n${delimiter === '\t' ? '\\t' : `\\${delimiter}`}]`);
    const ownNumbers = new Set([RESULT_COLUMNS.indexOf('lat'), RESULT_COLUMNS.indexOf('lng')].map((i) => inputColumns.length + i));
    this.safe = options.rawCells ? undefined : this.header.map((_, i) => (ownNumbers.has(i) ? neutralizeOwnNumber : neutralizeCell));
    const fd = openSync(path, 'w', PRIVATE_FILE_MODE);
    // An output that existed before keeps its old mode on open: tighten it too.
    fchmodSync(fd, PRIVATE_FILE_MODE);
    this.stream = createWriteStream(path, { fd });
    // The header is the customer's too: a column named `=cmd` is neutralized like a cell.
    if (format === 'csv') this.stream.write(this.csvLine(this.header));
  }

  async write(input: readonly string[], result: ResultFields): Promise<void> {
    const values = [...input, ...result];
    const line = this.format === 'csv' ? this.csvLine(values) : `${JSON.stringify(Object.fromEntries(this.header.map((h, i) => [h, values[i] ?? ''])))}\n`;
    if (!this.stream.write(line)) await once(this.stream, 'drain');
  }

  /** Flushes to disk and closes. */
  async close(): Promise<void> {
    await new Promise<void>((resolve, reject) => this.stream.end((error?: Error | null) => (error ? reject(error) : resolve())));
  }

  private csvLine(values: readonly string[]): string {
    const cells = this.safe ? values.map((v, i) => (this.safe?.[i] ?? neutralizeCell)(v)) : values;
    return `${cells.map((v) => (this.special.test(v) ? `"${v.replace(/"/g, '""')}"` : v)).join(this.delimiter)}\n`;
  }
}
