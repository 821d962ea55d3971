import { CompiledQuery, type Kysely } from 'kysely';
import { utcDay, utcMonth, utcTimestamp } from '../lib/time.js';
import type { Dialect } from '../store/db/dialect.js';
import type { DatabaseSchema } from '../store/db/schema.js';
import type { UsageEventInput } from './credit-ledger.js';

/** Where usage rows are written: a transaction, or (PostgreSQL, free events only) the pool itself. */
export type UsageWriter = Pick<Kysely<DatabaseSchema>, 'executeQuery'>;

/** Events per statement; more are written in several (so only in a transaction are they atomic). */
export const EVENTS_PER_STATEMENT = 1000;

/** One usage event and the credits it was charged. */
export interface UsageRow {
  event: UsageEventInput;
  credits: number;
}

const EVENT_COLUMNS = 'account_id, credential_id, env, endpoint, verdict, provider, latency_ms, cached, credits, query, source, at, day, month';
const DAILY_COLUMNS = 'account_id, day, month, endpoint, verdict, source, n, credits';
const DAILY_UPSERT =
  'on conflict (account_id, day, endpoint, verdict, source) do update set n = usage_daily.n + excluded.n, credits = usage_daily.credits + excluded.credits';

/**
 * `values (…), (…)` for `rows` rows of `width` parameters in the dialect's placeholder style. The
 * SQL is written by hand rather than with Kysely's builder: building a multi-row insert value by
 * value cost more than the insert itself on the cache-hit path, where every request writes one.
 */
function values(dialect: Dialect, rows: number, width: number, first = 1): string {
  const groups: string[] = [];
  for (let r = 0; r < rows; r += 1) {
    const marks = Array.from({ length: width }, (_, c) => (dialect === 'postgres' ? `$${first + r * width + c}` : '?'));
    groups.push(`(${marks.join(', ')})`);
  }
  return groups.join(', ');
}

/**
 * Usage events and their days' totals, in the caller's transaction (on PostgreSQL one statement per
 * EVENTS_PER_STATEMENT events, atomic even outside a transaction), so the report never counts one without the other: one
 * multi-row insert for the events, one upsert per (account, day, endpoint, verdict, source) with
 * the batch's sums. Totals are written in key order, so two batches on two instances lock the
 * same rows in the same order and never deadlock.
 */
export async function insertUsage(db: UsageWriter, dialect: Dialect, rows: readonly UsageRow[], now: number): Promise<void> {
  // Far below the bound parameters SQLite (32 766) and PostgreSQL (65 535) allow per statement.
  for (let i = 0; i < rows.length; i += EVENTS_PER_STATEMENT) await insertChunk(db, dialect, rows.slice(i, i + EVENTS_PER_STATEMENT), now);
}

/** SQLSTATE of addressd_drop_reservations when one of the reservations was released meanwhile. */
export const RELEASED_MEANWHILE = 'AD001';

/**
 * PostgreSQL, a settle that charges every reservation in full (no refund, so no credit row to
 * touch): drops the reservations and writes the events and their daily totals in ONE statement,
 * atomic on its own (at most EVENTS_PER_STATEMENT events). When one of the reservations is gone
 * (released meanwhile) the statement fails with RELEASED_MEANWHILE and writes nothing.
 */
export async function dropAndInsertUsage(db: UsageWriter, reservationIds: readonly string[], rows: readonly UsageRow[], now: number): Promise<void> {
  if (rows.length > EVENTS_PER_STATEMENT || rows.length === 0) throw new RangeError(`${rows.length} events for one statement`);
  const { dailySql, eventsSql, params } = usageSql('postgres', rows, now);
  const text = `with daily as (${dailySql} returning 1), events as (${eventsSql} returning 1) select addressd_drop_reservations($${params.length + 1}::text[]) as dropped`;
  await db.executeQuery(CompiledQuery.raw(text, [...params, [...reservationIds]]));
}

async function insertChunk(db: UsageWriter, dialect: Dialect, rows: readonly UsageRow[], now: number): Promise<void> {
  const { dailySql, eventsSql, daily, events, params } = usageSql(dialect, rows, now);
  if (dialect === 'postgres') {
    // One statement, one round trip (a cache hit's write was four with BEGIN and COMMIT): a
    // data-modifying WITH always runs to completion, and the statement is atomic on its own.
    await db.executeQuery(CompiledQuery.raw(`with daily as (${dailySql} returning 1) ${eventsSql}`, params));
    return;
  }
  await db.executeQuery(CompiledQuery.raw(dailySql, daily));
  await db.executeQuery(CompiledQuery.raw(eventsSql, events));
}

/** The two inserts of a chunk of events (daily totals first, in key order) and their parameters. */
function usageSql(dialect: Dialect, rows: readonly UsageRow[], now: number) {
  const day = utcDay(now);
  const month = utcMonth(now);
  const at = utcTimestamp(now);
  const totals = new Map<string, unknown[]>();
  for (const { event, credits } of rows) {
    const verdict = event.verdict ?? '';
    const source = event.source ?? '';
    const key = JSON.stringify([event.accountId, event.endpoint, verdict, source]);
    const total = totals.get(key);
    if (total) {
      total[6] = (total[6] as number) + 1;
      total[7] = (total[7] as number) + credits;
    } else {
      totals.set(key, [event.accountId, day, month, event.endpoint, verdict, source, 1, credits]);
    }
  }
  const daily = [...totals.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).flatMap(([, total]) => total);
  const dailySql = `insert into usage_daily (${DAILY_COLUMNS}) values ${values(dialect, totals.size, 8)} ${DAILY_UPSERT}`;
  const events = rows.flatMap(({ event, credits }) => [
    event.accountId,
    event.credentialId,
    event.env,
    event.endpoint,
    event.verdict,
    event.provider,
    Math.max(0, Math.round(event.latencyMs)),
    event.cached ? 1 : 0,
    credits,
    event.query,
    event.source,
    at,
    day,
    month,
  ]);
  const eventsSql = `insert into usage_events (${EVENT_COLUMNS}) values ${values(dialect, rows.length, 14, daily.length + 1)}`;
  return { dailySql, eventsSql, daily, events, params: [...daily, ...events] };
}
