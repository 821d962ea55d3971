import { once } from 'node:events';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';

/**
 * COPY's text format, one field: tabs and line breaks end fields and rows, so any left (none is
 * expected: whitespace was collapsed when the row was read) become a space; a backslash starts an
 * escape, so it is doubled. `\N` is NULL: an empty optional field is written as NULL, as the index
 * has always stored it (no field the index stores is legitimately empty).
 */
const SPECIAL = /[\t\n\r\\]/;
export const copyText = (v: string): string => (SPECIAL.test(v) ? v.replace(/[\t\n\r]/g, ' ').replace(/\\/g, '\\\\') : v);
export const copyOpt = (v: string | null | undefined): string => (v === null || v === undefined || v === '' ? '\\N' : copyText(v));

/**
 * Loads lines (fields already written by copyText / copyOpt, tab-separated) into `table` through
 * COPY FROM STDIN: the server parses them in its fast path instead of as query text. Resolves
 * once the server has taken every row; a refusal (a bad value) rejects.
 */
export async function copyIn(client: pg.PoolClient, table: string, columns: string[], lines: string[]): Promise<void> {
  if (lines.length === 0) return;
  const stream = client.query(copyFrom(`COPY ${table} (${columns.join(', ')}) FROM STDIN`));
  // 'finish' comes once the server confirmed the COPY (the stream's final step waits for it); once() rejects on 'error'.
  const done = once(stream, 'finish');
  stream.end(lines.join('\n') + '\n');
  await done;
}
