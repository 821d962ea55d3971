import { utcTimestamp } from '../lib/time.js';
import { CreditLedger, type Reservation, type UsageEventInput } from './credit-ledger.js';
import { insertUsage, type UsageRow } from './usage-rows.js';

/** Events per INSERT: far below the bound parameters SQLite (32 766) and PostgreSQL (65 535) allow. */
const EVENTS_PER_INSERT = 1000;

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
      await this.db.transaction().execute(async (trx) => {
        // Account row first, as everywhere in the ledger: one lock order, no deadlock.
        const account = await this.lockAccount(trx, accountId);
        let budget = wanted;
        if (reservation) {
          if (await this.dropReservation(trx, reservation.id)) {
            await this.refund(trx, reservation, reservation.total - wanted);
          } else {
            // Released meanwhile by a stale sweep (a long stall): the calls did happen, bill what is left.
            const debit = await this.debit(trx, accountId, reservation.month, account, wanted);
            budget = debit.grant + debit.extra;
          }
        }
        let charged = 0;
        const rows: UsageRow[] = charges.map((charge) => {
          const credits = Math.min(charge.credits, budget - charged);
          charged += credits;
          return { event: charge.event, credits };
        });
        const now = this.clock.now();
        for (let i = 0; i < rows.length; i += EVENTS_PER_INSERT) await insertUsage(trx, this.database.dialect, rows.slice(i, i + EVENTS_PER_INSERT), now);
        await this.run(trx, 'insertReceipt', [receipt, accountId, charges.length, charged, utcTimestamp(this.clock.now())]);
      });
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
