import path from 'node:path';
import SQLite from 'better-sqlite3';
import { SQLITE_INDEX_FILE } from '../../src/local-index/store/sqlite-store.js';
import type { PostgresCluster } from './postgres-cluster.js';
import type { Outcome } from './traffic.js';

/** Reads one store's books: plain SQL, the same text on both dialects. */
export type Read = <T>(sql: string) => Promise<T[]>;

export const readPostgres =
  (cluster: PostgresCluster): Read =>
  <T>(text: string) =>
    cluster.query(text) as Promise<T[]>;

export function readSqlite(file: string): Read & { close(): void } {
  const db = new SQLite(file, { readonly: true, fileMustExist: true });
  return Object.assign(<T>(text: string) => Promise.resolve(db.prepare(text).all() as T[]), { close: () => db.close() });
}

/** The books' verdict for one store: each line printed, `ok` false when any check failed. */
export interface Books {
  lines: string[];
  ok: boolean;
}

/**
 * DESIGN §5, call by call: every answered billed call has exactly one usage event (its own source
 * tag), no event belongs to a call that was refused (an event of a call whose connection failed is
 * an answer lost in flight, allowed), debug answers cost what their trace says, the ledger's used
 * credits equal the events' credits, and no reservation is left.
 */
export async function checkBooks(read: Read, outcomes: Outcome[]): Promise<Books> {
  const lines: string[] = [];
  let ok = true;
  const check = (pass: boolean, line: string) => {
    ok &&= pass;
    lines.push(`${pass ? 'ok  ' : 'FAIL'} ${line}`);
  };
  const events = await read<{ source: string | null; credits: number }>('SELECT source, credits FROM usage_events');
  const [used] = await read<{ n: number | null }>('SELECT sum(used_grant + used_extra) AS n FROM credit_months');
  const [held] = await read<{ n: number }>('SELECT count(*) AS n FROM credit_reservations');
  const bySource = new Map<string, number[]>();
  for (const e of events) if (e.source) bySource.set(e.source, [...(bySource.get(e.source) ?? []), Number(e.credits)]);

  const answered = new Map<string, number | undefined>();
  const lost = new Set<string>();
  const refused = new Set<string>();
  for (const o of outcomes) {
    for (const s of o.answered) answered.set(s, o.credits.get(s));
    const unanswered = o.sentSources.filter((s) => !o.answered.includes(s));
    for (const s of unanswered) (o.status === 'connection' ? lost : refused).add(s);
  }
  let twice = 0;
  let unbilled = 0;
  let wrongCredits = 0;
  let tracedCredits = 0;
  let answeredCredits = 0;
  for (const [source, credits] of answered) {
    const billed = bySource.get(source) ?? [];
    if (billed.length === 0) unbilled++;
    if (billed.length > 1) twice++;
    answeredCredits += billed.reduce((a, b) => a + b, 0);
    if (credits !== undefined) {
      tracedCredits++;
      if (billed[0] !== credits) wrongCredits++;
    }
  }
  const others = events.filter((e) => !e.source?.startsWith('soak.'));
  let lostBilled = 0;
  let lostCredits = 0;
  let refusedBilled = 0;
  let strangers = 0;
  for (const [source, credits] of bySource) {
    // The list's rows (list-run.ts) are checked on their own.
    if (answered.has(source) || !source.startsWith('soak.')) continue;
    if (lost.has(source)) {
      lostBilled++;
      lostCredits += credits.reduce((a, b) => a + b, 0);
    }
    else if (refused.has(source)) refusedBilled++;
    else strangers++;
  }
  const eventCredits = events.reduce((sum, e) => sum + Number(e.credits), 0);
  const ledger = Number(used?.n ?? 0);
  const listCredits = others.reduce((sum, e) => sum + Number(e.credits), 0);
  check(ledger === eventCredits, `credits used ${ledger} = usage events' credits ${eventCredits} (${events.length} events)`);
  check(
    eventCredits === answeredCredits + listCredits + lostCredits,
    `usage events' credits ${eventCredits} = answered calls' ${answeredCredits} + the list's ${listCredits} (${others.length} rows) + answers lost in flight ${lostCredits}`,
  );
  check(Number(held?.n ?? 0) === 0, `reservations left: ${held?.n ?? 0}`);
  check(unbilled === 0 && twice === 0, `answers billed: ${answered.size} answered calls, ${answeredCredits} credits; unbilled ${unbilled}, billed twice ${twice}`);
  check(wrongCredits === 0, `credits named by ${tracedCredits} debug traces = their events' credits (${wrongCredits} differ)`);
  check(refusedBilled === 0 && strangers === 0, `events of calls answered with an error: ${refusedBilled}; of calls never sent: ${strangers}`);
  lines.push(`     calls whose connection failed: ${lost.size}, of which answered and billed (the answer lost in flight): ${lostBilled}`);
  return { lines, ok };
}

/** The local index: whole (every address on a street row) and as large as the extract says. */
export async function checkIndex(read: Read, table: (name: string) => string, expected: number): Promise<Books> {
  const [count] = await read<{ n: number }>(`SELECT count(*) AS n FROM ${table('addresses')}`);
  const [orphans] = await read<{ n: number }>(
    `SELECT count(*) AS n FROM ${table('addresses')} a LEFT JOIN ${table('streets')} s ON s.id = a.street_id WHERE s.id IS NULL`,
  );
  const n = Number(count?.n ?? -1);
  const ok = n === expected && Number(orphans?.n) === 0;
  return { ok, lines: [`${ok ? 'ok  ' : 'FAIL'} index: ${n} addresses (the extract has ${expected}), ${orphans?.n} without their street`] };
}

/** `PRAGMA integrity_check` of both SQLite files under a DATA_DIR. */
export function checkSqliteFiles(dataDir: string): Books {
  const lines: string[] = [];
  let ok = true;
  for (const name of ['addressd.sqlite', SQLITE_INDEX_FILE]) {
    const db = new SQLite(path.join(dataDir, name), { readonly: true, fileMustExist: true });
    try {
      const result = (db.pragma('integrity_check') as { integrity_check: string }[]).map((r) => r.integrity_check).join('; ');
      ok &&= result === 'ok';
      lines.push(`${result === 'ok' ? 'ok  ' : 'FAIL'} ${name}: integrity_check ${result}`);
    } finally {
      db.close();
    }
  }
  return { lines, ok };
}
