import type { PlanId } from '../contract/enums.js';
import { utcTimestamp } from '../lib/time.js';
import type { Reservation, UsageEventInput } from './credit-ledger.js';
import { lock, sql, type Steps, usage } from './ledger-steps.js';
import { PLAN_QUOTAS } from './plans.js';
import type { UsageRow } from './usage-rows.js';

/**
 * The ledger's rules (DESIGN §5), written once for both stores: each is a transaction's worth of
 * steps (ledger-steps.ts) that CreditLedger hands to its runner. Nothing here knows whether a
 * step is awaited (PostgreSQL) or run synchronously (SQLite).
 */

/** What a debit needs of the account row. */
export interface AccountRow {
  plan: string;
  extra_credits: number;
}

/**
 * One request's part of a group commit: its events with the credits each spends, and for a billed
 * call the reservation they are paid from (a single call has one event; a batch of calls one
 * reservation for all of its events).
 */
export interface BatchItem {
  events: UsageRow[];
  reservation?: Reservation;
}

/** What a group-commit item's calls spent, before any cap. */
export function wantedOf(item: BatchItem): number {
  return item.events.reduce((sum, row) => sum + Math.max(0, row.credits), 0);
}

/** `charged` credits given to the calls in order, each at most what it spent. */
export function spread(events: readonly UsageRow[], charged: number): UsageRow[] {
  let left = charged;
  return events.map((row) => {
    const credits = Math.min(Math.max(0, row.credits), left);
    left -= credits;
    return { event: row.event, credits };
  });
}

/** Locks the account row (PostgreSQL; SQLite has one writer at a time, BEGIN IMMEDIATE) and reads what a debit needs. */
export function* lockAccount(accountId: string): Steps<AccountRow> {
  const account = (yield* sql<AccountRow>('lockAccount', [accountId])).rows[0];
  if (!account) throw new Error(`no account ${accountId}`);
  return account;
}

/** Takes up to `want` credits of `month`: the monthly grant first, then extra credits. */
export function* debit(accountId: string, month: string, account: AccountRow, want: number): Steps<{ grant: number; extra: number }> {
  yield* sql('ensureMonth', [accountId, month]);
  const used = (yield* sql<{ used_grant: number }>('usedGrant', [accountId, month])).rows[0];
  const grantLeft = Math.max(0, PLAN_QUOTAS[account.plan as PlanId] - Number(used?.used_grant ?? 0));
  const extraLeft = Math.max(0, Number(account.extra_credits));
  const total = Math.max(0, Math.min(want, grantLeft + extraLeft));
  const grant = Math.min(total, grantLeft);
  const extra = total - grant;
  yield* adjust(accountId, month, grant, extra);
  return { grant, extra };
}

/** True when this transaction removed the reservation (false: settled or released already). */
export function* dropReservation(id: string): Steps<boolean> {
  return (yield* sql('dropReservation', [id])).changed > 0;
}

/** Gives `amount` of a reservation back: extra credits first (they persist across months). */
export function* refund(reservation: Reservation, amount: number): Steps<void> {
  if (amount <= 0) return;
  const extraBack = Math.min(reservation.extra, amount);
  yield* adjust(reservation.accountId, reservation.month, -(amount - extraBack), -extraBack);
}

function* adjust(accountId: string, month: string, grant: number, extra: number): Steps<void> {
  if (grant === 0 && extra === 0) return;
  yield* sql('adjustMonth', [grant, extra, accountId, month]);
  if (extra !== 0) yield* sql('adjustExtra', [extra, accountId]);
}

/** A reservation to make: who, how much at most, and the row's other columns. */
export interface NewReservation {
  id: string;
  accountId: string;
  month: string;
  want: number;
  createdAt: number;
  owner: string | null;
  /** credential_id, env, endpoint, source: all null for a batch's or a bulk chunk's. */
  callColumns: readonly (string | null)[];
}

/** Debits up to `want` and records the reservation; null (nothing written) when the account has nothing left. */
export function* reserve(r: NewReservation): Steps<{ grant: number; extra: number } | null> {
  const account = yield* lockAccount(r.accountId);
  const { grant, extra } = yield* debit(r.accountId, r.month, account, r.want);
  if (grant + extra <= 0) return null;
  yield* sql('insertReservation', [r.id, r.accountId, r.month, grant, extra, utcTimestamp(r.createdAt), r.owner, ...r.callColumns]);
  return { grant, extra };
}

/** Gives a whole reservation back; false when it was already gone. */
export function* release(reservation: Reservation): Steps<boolean> {
  yield* lock(reservation.accountId);
  if (!(yield* dropReservation(reservation.id))) return false;
  yield* refund(reservation, reservation.total);
  return true;
}

/**
 * Settles one reservation inside a batch (its account already locked); returns what it charged,
 * or null when it was gone and carried its call: recovery settled it (or this batch's earlier
 * run did), the call is billed already.
 */
function* charge(reservation: Reservation, actual: number): Steps<number | null> {
  const wanted = Math.max(0, Math.min(actual, reservation.total));
  if (yield* dropReservation(reservation.id)) {
    yield* refund(reservation, reservation.total - wanted);
    return wanted;
  }
  if (reservation.call) return null;
  // Released meanwhile by a stale sweep (a long stall): the call did happen, bill what is left.
  // The account row is read again: an earlier settle of this batch may have moved its extra credits.
  const account = yield* lockAccount(reservation.accountId);
  const { grant, extra } = yield* debit(reservation.accountId, reservation.month, account, wanted);
  return grant + extra;
}

/**
 * A batch of settles and free events: `batchId` (background batches) recorded with it, accounts
 * locked in id order (the order every ledger transaction follows), each settle charges its call,
 * then all events and their daily totals are written.
 */
export function* settleBatch(items: readonly BatchItem[], batchId: string | null, now: number): Steps<void> {
  if (batchId !== null) yield* sql('insertBatchMark', [batchId, utcTimestamp(now)]);
  for (const id of [...new Set(items.flatMap((i) => (i.reservation ? [i.reservation.accountId] : [])))].sort()) yield* lock(id);
  const rows: UsageRow[] = [];
  for (const item of items) {
    if (!item.reservation) {
      for (const row of item.events) rows.push({ event: row.event, credits: 0 });
      continue;
    }
    // What was charged (less than wanted only after a stale sweep) goes to the calls in order.
    const charged = yield* charge(item.reservation, wantedOf(item));
    if (charged !== null) rows.push(...spread(item.events, charged));
  }
  yield* usage(rows, now);
}

/**
 * A dead process's single-call reservation, settled from itself: dropped, and its call's event
 * written at its whole amount (`event` carries the moment it was made); false when already gone.
 */
export function* settleFromItself(reservation: Reservation, event: UsageEventInput, now: number): Steps<boolean> {
  if (!(yield* dropReservation(reservation.id))) return false;
  yield* usage([{ event, credits: reservation.total }], now);
  return true;
}
