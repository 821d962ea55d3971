import { createWriteStream, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import type { ValidateResponse } from '../../contract/validate.js';
import { isUnverified } from '../../engine/unverified.js';

/**
 * What each output row adds to the input columns (issue 13), in this order. Issue 27's columns come
 * last, so rows journaled before them keep their positions: `unit` (as the input gave it),
 * `formatted` (the postal lines on one line), `action` and `granularity` (the level the data
 * confirmed: `granularity.validated`).
 */
export const RESULT_COLUMNS = [
  'verdict', 'confidence', 'reasons', 'street', 'houseNumber', 'postcode', 'city', 'state', 'country', 'lat', 'lng', 'provider', 'error', 'verified',
  'unit', 'formatted', 'action', 'granularity',
] as const;

/** Positions in ResultFields of the verdict and of `verified` (`yes`, `no`: no provider answered, or empty: not looked up). */
export const VERDICT = RESULT_COLUMNS.indexOf('verdict');
export const VERIFIED = RESULT_COLUMNS.indexOf('verified');

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
  ];
}

/** A row that was not looked up (no address, or too long a field): only the error column. */
export const errorFields = (error: string): ResultFields => {
  const fields = new Array<string>(RESULT_COLUMNS.length).fill('');
  fields[RESULT_COLUMNS.indexOf('error')] = error;
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

/** Writes rows as CSV (the input's delimiter) or JSON Lines, through one buffered stream. */
export class OutputWriter {
  private readonly stream: WriteStream;
  private readonly header: string[];
  /** A field holding one of these is quoted. */
  private readonly special: RegExp;

  constructor(
    path: string,
    private readonly format: 'csv' | 'jsonl',
    private readonly delimiter: string,
    inputColumns: readonly string[],
  ) {
    this.header = outputHeader(inputColumns);
    this.special = new RegExp(`["\\r\\n${delimiter === '\t' ? '\\t' : `\\${delimiter}`}]`);
    this.stream = createWriteStream(path, { flags: 'w' });
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
    return `${values.map((v) => (this.special.test(v) ? `"${v.replace(/"/g, '""')}"` : v)).join(this.delimiter)}\n`;
  }
}
