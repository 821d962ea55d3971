import { utcTimestamp } from '../lib/time.js';
import { CreditLedger, type Reservation, type UsageEventInput } from './credit-ledger.js';
import { debit, dropReservation, lockAccount, refund } from './ledger-rules.js';
import { sql, type Steps, usage } from './ledger-steps.js';
import type { UsageRow } from './usage-rows.js';

/** One call of a chunk: what it costs and its usage event. */
export interface BulkCharge {
  credits: number;
  event: UsageEventInput;
}

/**
 * The ledger for bulk runs (`addressd validate`): one reservation covers a whole chunk of rows and
 * one transaction settles it — every row's usage event, the refund of what was not spent, and the
 * chunk's receipt (its idempotency key). Per row that is still exactly one event and the credits of
 * the providers that answered, as on the API; it only saves two transactions per row.
 */
export class BulkLedger extends CreditLedger {
  /**
   * Charges each call (a chunk never hands out more than it reserved), writes every event and the
   * receipt, atomically. A receipt written before makes the whole transaction fail: a chunk is
   * never paid twice. On failure the reservation is given back, as `settle` does.
   */
  async settleChunk(accountId: string, reservation: Reservation | null, charges: readonly BulkCharge[], receipt: string): Promise<void> {
    const wanted = charges.reduce((sum, c) => sum + c.credits, 0);
    if (wanted > (reservation?.total ?? 0)) throw new RangeError(`A chunk spent ${wanted} credits of ${reservation?.total ?? 0} reserved`);
    try {
      await this.rules.transaction(settleChunkSteps(accountId, reservation, charges, wanted, receipt, this.clock.now()));
    } catch (error) {
      if (reservation) await this.release(reservation).catch(() => undefined);
      throw error;
    }
  }

  /** Which of these chunk ids were settled (their receipt exists). */
  async settledReceipts(ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await this.db.selectFrom('bulk_receipts').select('id').where('id', 'in', [...ids]).execute();
    return new Set(rows.map((r) => r.id));
  }

  /** A reservation row still held (not settled, not released)? */
  async isHeld(reservationId: string): Promise<boolean> {
    const row = await this.db.selectFrom('credit_reservations').select('id').where('id', '=', reservationId).executeTakeFirst();
    return row !== undefined;
  }
}

/**
 * A chunk's settle, one transaction: the account row first, as everywhere in the ledger (one lock
 * order, no deadlock); the reservation dropped and what was not spent refunded, or, when a stale
 * sweep released it meanwhile (a long stall), what the account has left billed; every call charged
 * in order within that; the events and the receipt, whose key makes a second settle fail.
 */
function* settleChunkSteps(
  accountId: string,
  reservation: Reservation | null,
  charges: readonly BulkCharge[],
  wanted: number,
  receipt: string,
  now: number,
): Steps<void> {
  const account = yield* lockAccount(accountId);
  let budget = wanted;
  if (reservation) {
    if (yield* dropReservation(reservation.id)) {
      yield* refund(reservation, reservation.total - wanted);
    } else {
      const debited = yield* debit(accountId, reservation.month, account, wanted);
      budget = debited.grant + debited.extra;
    }
  }
  let charged = 0;
  const rows: UsageRow[] = charges.map((charge) => {
    const credits = Math.min(charge.credits, budget - charged);
    charged += credits;
    return { event: charge.event, credits };
  });
  // usage-rows.ts writes at most EVENTS_PER_STATEMENT events per statement, however many come.
  yield* usage(rows, now);
  yield* sql('insertReceipt', [receipt, accountId, charges.length, charged, utcTimestamp(now)]);
}
