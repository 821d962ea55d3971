import { CompiledQuery, type Kysely, type Transaction } from 'kysely';
import type { Dialect } from '../store/db/dialect.js';
import type { DatabaseSchema } from '../store/db/schema.js';

/** Where a ledger statement runs: the pool (one statement, atomic alone) or a transaction. */
export type SqlTarget = Kysely<DatabaseSchema> | Transaction<DatabaseSchema>;

/**
 * The ledger's statements, written by hand: on the hot path (a reserve and a settle per uncached
 * call) Kysely's builder cost more CPU than SQLite took to run them (issue 19: ~8 % of an uncached
 * validate). Each text is fixed, so SQLite prepares it once per connection (sqlite-statements.ts)
 * and PostgreSQL gets the same text every time. Written with `?`; PostgreSQL's `$n` are put in once, here.
 */
/** What recovery reads of a reservation: its amounts and the call it pays for (null for a batch or a bulk chunk). */
const RESERVATION_COLUMNS = 'id, account_id, month, grant_amount, extra_amount, created_at, credential_id, env, endpoint, source';

const TEXT = {
  lockAccount: 'select plan, extra_credits from accounts where id = ?',
  balance:
    'select a.plan, a.extra_credits, coalesce(m.used_grant, 0) as used_grant, coalesce(m.used_extra, 0) as used_extra ' +
    'from accounts a left join credit_months m on m.account_id = a.id and m.month = ? where a.id = ?',
  ensureMonth: 'insert into credit_months (account_id, month, used_grant, used_extra) values (?, ?, 0, 0) on conflict (account_id, month) do nothing',
  usedGrant: 'select used_grant from credit_months where account_id = ? and month = ?',
  adjustMonth: 'update credit_months set used_grant = used_grant + ?, used_extra = used_extra + ? where account_id = ? and month = ?',
  adjustExtra: 'update accounts set extra_credits = extra_credits - ? where id = ?',
  insertReservation:
    'insert into credit_reservations (id, account_id, month, grant_amount, extra_amount, created_at, owner, credential_id, env, endpoint, source) ' +
    'values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  dropReservation: 'delete from credit_reservations where id = ?',
  renewReservation: 'update credit_reservations set created_at = ? where id = ?',
  heldReservations: 'select count(*) as n from credit_reservations',
  ownReservations: `select ${RESERVATION_COLUMNS} from credit_reservations where owner = ?`,
  staleReservations: `select ${RESERVATION_COLUMNS} from credit_reservations where created_at < ?`,
  /** A background batch's id, written with it (usage_batches, migration 0010). */
  insertBatchMark: 'insert into usage_batches (id, at) values (?, ?)',
  /** Batch ids older than any retry of theirs: the sweeper drops them. */
  dropBatchMarks: 'delete from usage_batches where at < ?',
  /** A bulk chunk's receipt (bulk-ledger.ts): its id is the chunk's idempotency key. */
  insertReceipt: 'insert into bulk_receipts (id, account_id, calls, credits, created_at) values (?, ?, ?, ?, ?)',
  /** PostgreSQL only: the whole reserve in one round trip (migration 0008_reserve_function). */
  reserve: 'select r_grant, r_extra from addressd_reserve(?, ?, ?, ?::jsonb, ?, ?, ?, ?, ?, ?, ?)',
  /**
   * PostgreSQL only: the same, committed without waiting for the WAL flush (this transaction only):
   * the caller makes it durable with `makeDurable` while it works (CreditLedger.reserveOverlapped).
   */
  reserveUnflushed:
    "select r_grant, r_extra, set_config('synchronous_commit', 'off', true) from addressd_reserve(?, ?, ?, ?::jsonb, ?, ?, ?, ?, ?, ?, ?)",
  /**
   * A write to the reservation's own row, committed with the WAL flush: WAL is flushed in order, so
   * once this commits, the reservation committed before it is on disk too. Its own row: no lock
   * another request waits for.
   */
  makeDurable: 'update credit_reservations set created_at = created_at where id = ?',
} as const;

export type LedgerStatement = keyof typeof TEXT;

/** `?` → `$1, $2, …` (no statement here holds a literal question mark). */
function numbered(text: string): string {
  let n = 0;
  return text.replace(/\?/g, () => `$${++n}`);
}

const POSTGRES: Record<LedgerStatement, string> = Object.fromEntries(
  Object.entries(TEXT).map(([name, text]) => [name, numbered(name === 'lockAccount' ? `${text} for update` : text)]),
) as Record<LedgerStatement, string>;

/**
 * The dialect's text of each statement. PostgreSQL locks the account row (`for update`): that
 * serializes every ledger transaction of an account across instances, always taken first (one
 * lock order, no deadlocks). SQLite has one writer at a time (`begin immediate`).
 */
export function ledgerSql(dialect: Dialect): Record<LedgerStatement, string> {
  return dialect === 'postgres' ? POSTGRES : TEXT;
}

/** Runs one statement; rows and the number of rows it changed. */
export async function runSql<R>(db: SqlTarget, text: string, params: readonly unknown[]): Promise<{ rows: R[]; changed: number }> {
  const result = await db.executeQuery<R>(CompiledQuery.raw(text, [...params]));
  return { rows: result.rows, changed: Number(result.numAffectedRows ?? 0n) };
}
