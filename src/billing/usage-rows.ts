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

/** A row of a one-statement settle: `paidBy`, a reservation that carries its call (see below), or null. */
export interface SettleRow extends UsageRow {
  paidBy: string | null;
}

/** The columns of the events' VALUES list in a one-statement settle, with their types. */
const SETTLE_COLUMNS = [
  ['paid_by', 'text'],
  ['account_id', 'text'],
  ['credential_id', 'text'],
  ['env', 'text'],
  ['endpoint', 'text'],
  ['verdict', 'text'],
  ['provider', 'text'],
  ['latency_ms', 'integer'],
  ['cached', 'integer'],
  ['credits', 'integer'],
  ['query', 'text'],
  ['source', 'text'],
  ['at', 'text'],
  ['day', 'text'],
  ['month', 'text'],
] as const;

/**
 * PostgreSQL, settles that charge their reservations in full (no refund, so no credit row to touch)
 * and free events, in ONE statement, atomic on its own (at most EVENTS_PER_STATEMENT events):
 * - `required` reservations (a batch's: recovery releases them) are dropped by
 *   addressd_drop_reservations, which fails the statement with RELEASED_MEANWHILE, writing
 *   nothing, when one is gone: the caller then bills what the account has left;
 * - `recoverable` ones (a single call's, carrying its event: recovery settles them) are dropped
 *   here, and the events they pay for (`paidBy`) are written only for those this statement
 *   dropped: one already gone was settled by recovery, or by this same batch before an unknown
 *   commit outcome, so a re-run writes nothing twice;
 * - `batchId`, when given, is recorded in usage_batches: a second run fails on its key (see
 *   isBatchMarkConflict), so even the free events of a batch whose commit was lost are not doubled.
 * Daily totals are summed from the events kept, written in key order.
 */
export async function settleUsage(
  db: UsageWriter,
  reservations: { required: readonly string[]; recoverable: readonly string[] },
  rows: readonly SettleRow[],
  now: number,
  batchId: string | null,
): Promise<void> {
  if (rows.length > EVENTS_PER_STATEMENT) throw new RangeError(`${rows.length} events for one statement`);
  const params: unknown[] = [[...reservations.required], [...reservations.recoverable]];
  const tuples = rows.map(({ event, credits, paidBy }) => {
    const values = [paidBy, ...eventValues(event, credits, eventTimes(event.at ?? now))];
    const marks = values.map((value, i) => {
      params.push(value);
      return `$${params.length}::${SETTLE_COLUMNS[i]![1]}`;
    });
    return `(${marks.join(', ')})`;
  });
  const names = SETTLE_COLUMNS.map(([name]) => name).join(', ');
  const parts = [
    'required as (select addressd_drop_reservations($1::text[]) as n)',
    'dropped as (delete from credit_reservations where id = any($2::text[]) returning id)',
  ];
  if (tuples.length > 0) {
    parts.push(
      `ev (${names}) as (values ${tuples.join(', ')})`,
      'kept as (select * from ev where paid_by is null or paid_by in (select id from dropped))',
      `daily as (insert into usage_daily (${DAILY_COLUMNS}) ` +
        "select account_id, day, month, endpoint, coalesce(verdict, ''), coalesce(source, ''), count(*), sum(credits) from kept " +
        "group by account_id, day, month, endpoint, coalesce(verdict, ''), coalesce(source, '') " +
        `order by account_id, day, endpoint, coalesce(verdict, ''), coalesce(source, '') ${DAILY_UPSERT} returning 1)`,
      `events as (insert into usage_events (${EVENT_COLUMNS}) ` +
        'select account_id, credential_id, env, endpoint, verdict, provider, latency_ms, cached, credits, query, source, at, day, month from kept returning 1)',
    );
  }
  if (batchId !== null) {
    params.push(batchId, utcTimestamp(now));
    parts.push(`mark as (insert into usage_batches (id, at) values ($${params.length - 1}::text, $${params.length}::text) returning 1)`);
  }
  await db.executeQuery(CompiledQuery.raw(`with ${parts.join(', ')} select (select n from required) as required`, params));
}

/** The error of a batch that already committed (its id is in usage_batches): its re-run is done. */
export function isBatchMarkConflict(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const { code, constraint, message } = e as { code?: unknown; constraint?: unknown; message?: unknown };
    if (code === '23505' && constraint === 'usage_batches_pkey') return true;
    if (typeof code === 'string' && code.startsWith('SQLITE_CONSTRAINT') && typeof message === 'string' && message.includes('usage_batches.id')) return true;
  }
  return false;
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

/** When an event happened, as its row says it: the call's own moment, not its (later, background) write's. */
function eventTimes(ms: number) {
  return { at: utcTimestamp(ms), day: utcDay(ms), month: utcMonth(ms) };
}

/** One event's values in EVENT_COLUMNS' order. */
function eventValues(event: UsageEventInput, credits: number, { at, day, month }: ReturnType<typeof eventTimes>): unknown[] {
  return [
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
  ];
}

/**
 * A chunk's rows as parameters: its daily totals, one tuple per (account, day, endpoint, verdict,
 * source) in key order (the order every writer upserts them in: no deadlocks between instances),
 * and its events, one tuple each in EVENT_COLUMNS' order.
 */
export function usageValues(rows: readonly UsageRow[], now: number): { daily: unknown[][]; events: unknown[][] } {
  const times = rows.map(({ event }) => eventTimes(event.at ?? now));
  const totals = new Map<string, unknown[]>();
  for (const [i, { event, credits }] of rows.entries()) {
    const { day, month } = times[i]!;
    const verdict = event.verdict ?? '';
    const source = event.source ?? '';
    const key = JSON.stringify([event.accountId, day, event.endpoint, verdict, source]);
    const total = totals.get(key);
    if (total) {
      total[6] = (total[6] as number) + 1;
      total[7] = (total[7] as number) + credits;
    } else {
      totals.set(key, [event.accountId, day, month, event.endpoint, verdict, source, 1, credits]);
    }
  }
  const daily = [...totals.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, total]) => total);
  return { daily, events: rows.map(({ event, credits }, i) => eventValues(event, credits, times[i]!)) };
}

/** One daily total's upsert and one event's insert, fixed texts: SQLite prepares each once (sqlite-usage.ts). */
export const DAILY_UPSERT_ONE = `insert into usage_daily (${DAILY_COLUMNS}) values ${values('sqlite', 1, 8)} ${DAILY_UPSERT}`;
export const EVENT_INSERT_ONE = `insert into usage_events (${EVENT_COLUMNS}) values ${values('sqlite', 1, 14)}`;

/** The two inserts of a chunk of events (daily totals first, in key order) and their parameters. */
function usageSql(dialect: Dialect, rows: readonly UsageRow[], now: number) {
  const tuples = usageValues(rows, now);
  const daily = tuples.daily.flat();
  const dailySql = `insert into usage_daily (${DAILY_COLUMNS}) values ${values(dialect, tuples.daily.length, 8)} ${DAILY_UPSERT}`;
  const events = tuples.events.flat();
  const eventsSql = `insert into usage_events (${EVENT_COLUMNS}) values ${values(dialect, rows.length, 14, daily.length + 1)}`;
  return { dailySql, eventsSql, daily, events, params: [...daily, ...events] };
}
