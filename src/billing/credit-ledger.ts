import type { Kysely, Transaction } from 'kysely';
import type { PlanId } from '../contract/enums.js';
import type { Clock } from '../lib/clock.js';
import { newId } from '../lib/ids.js';
import { utcMonth, utcTimestamp } from '../lib/time.js';
import type { Database } from '../store/db/database.js';
import type { DatabaseSchema } from '../store/db/schema.js';
import { CommitOutcomeUnknown, GroupCommit } from './group-commit.js';
import { type LedgerStatement, ledgerSql, runSql } from './ledger-sql.js';
import { PLAN_QUOTAS } from './plans.js';
import { dropAndInsertUsage, EVENTS_PER_STATEMENT, insertUsage, RELEASED_MEANWHILE, type UsageRow } from './usage-rows.js';

/** What one billed call records in `recent` (SPEC UsageResponse). */
export interface UsageEventInput {
  accountId: string;
  credentialId: string;
  env: string;
  endpoint: string;
  verdict: string | null;
  provider: string | null;
  latencyMs: number;
  cached: boolean;
  query: string | null;
  source: string | null;
}

export interface Reservation {
  id: string;
  accountId: string;
  month: string;
  grant: number;
  extra: number;
  total: number;
}

export interface Balance {
  plan: PlanId;
  quota: number;
  extraCredits: number;
  usedThisMonth: number;
  available: number;
}

export type Trx = Transaction<DatabaseSchema>;

/** A reservation row as stored. */
interface ReservationRow {
  id: string;
  account_id: string;
  month: string;
  grant_amount: number;
  extra_amount: number;
}

/** What a group-commit item's calls spent, before any cap. */
function wantedOf(item: BatchItem): number {
  return item.events.reduce((sum, row) => sum + Math.max(0, row.credits), 0);
}

/** `charged` credits given to the calls in order, each at most what it spent. */
function spread(events: readonly UsageRow[], charged: number): UsageRow[] {
  let left = charged;
  return events.map((row) => {
    const credits = Math.min(Math.max(0, row.credits), left);
    left -= credits;
    return { event: row.event, credits };
  });
}

/** Rolls a full-charge settle back: one of its reservations was released meanwhile. */
class ReleasedMeanwhile extends Error {}

/** The plans' monthly grants as the reserve function takes them (one JSON text for the process). */
const QUOTAS_JSON = JSON.stringify(PLAN_QUOTAS);

/**
 * One request's part of a group commit: its events with the credits each spends, and for a billed
 * call the reservation they are paid from (a single call has one event; a batch of calls one
 * reservation for all of its events).
 */
interface BatchItem {
  events: UsageRow[];
  reservation?: Reservation;
}

/**
 * Money, transactionally (DESIGN §5). A call reserves its worst case before fan-out (never more
 * than the account has, even across instances), then settles: refund the unused part, delete the
 * reservation and write the usage event in ONE transaction. A crash in between leaves only a
 * reservation row, owned by the instance that made it: the instance releases its own at its next
 * start (`releaseOwn`), and any instance releases one older than the longest request
 * (`releaseStale`, run by the sweeper): no lost event, no double bill, no credits held for long.
 * The monthly grant is spent before extra credits; refunds give extra credits back first.
 */
export class CreditLedger {
  protected readonly db: Kysely<DatabaseSchema>;
  private readonly owner: string | null;
  /** The hand-written statements of this dialect (ledger-sql.ts). */
  private readonly sql: Record<LedgerStatement, string>;
  /** Settles and free events of concurrent requests share transactions (group-commit.ts). */
  private readonly commits = new GroupCommit<BatchItem>((items) => this.commitBatch(items));

  constructor(
    protected readonly database: Database,
    protected readonly clock: Clock,
    options: { owner?: string } = {},
  ) {
    this.db = database.db;
    this.owner = options.owner ?? null;
    this.sql = ledgerSql(database.dialect);
  }

  /** One hand-written statement, in `db` (a transaction) or on its own. */
  protected run<R>(db: Kysely<DatabaseSchema> | Trx, statement: LedgerStatement, params: readonly unknown[]) {
    return runSql<R>(db, this.sql[statement], params);
  }

  async balance(accountId: string): Promise<Balance> {
    const month = utcMonth(this.clock.now());
    const { rows } = await this.run<{ plan: string; extra_credits: number; used_grant: number; used_extra: number }>(this.db, 'balance', [month, accountId]);
    const account = rows[0];
    if (!account) throw new Error(`no account ${accountId}`);
    const plan = account.plan as PlanId;
    const quota = PLAN_QUOTAS[plan];
    const usedGrant = Number(account.used_grant);
    const usedExtra = Number(account.used_extra);
    const extraCredits = Number(account.extra_credits);
    return {
      plan,
      quota,
      extraCredits,
      usedThisMonth: usedGrant + usedExtra,
      available: Math.max(0, quota - usedGrant) + extraCredits,
    };
  }

  /** Reserves up to `want` credits; fewer when the account has fewer; null when it has none. */
  async reserve(accountId: string, want: number): Promise<Reservation | null> {
    const now = this.clock.now();
    const month = utcMonth(now);
    const id = newId('res');
    if (this.database.dialect === 'postgres') {
      // One round trip: the same steps as below, run by the server (migration 0008_reserve_function).
      const { rows } = await this.run<{ r_grant: number; r_extra: number }>(this.db, 'reserve', [accountId, month, want, QUOTAS_JSON, id, utcTimestamp(now), this.owner]);
      const grant = Number(rows[0]?.r_grant ?? 0);
      const extra = Number(rows[0]?.r_extra ?? 0);
      return grant + extra > 0 ? { id, accountId, month, grant, extra, total: grant + extra } : null;
    }
    return this.db.transaction().execute(async (trx) => {
      const account = await this.lockAccount(trx, accountId);
      const { grant, extra } = await this.debit(trx, accountId, month, account, want);
      const total = grant + extra;
      if (total <= 0) return null;
      await this.run(trx, 'insertReservation', [id, accountId, month, grant, extra, utcTimestamp(now), this.owner]);
      return { id, accountId, month, grant, extra, total };
    });
  }

  /**
   * Charges `actual` (≤ reserved) and writes the usage event, atomically (in a group commit with
   * the other requests of the moment). When that fails the reservation is given back, so a call is
   * either billed with its event or not billed at all.
   */
  async settle(reservation: Reservation, actual: number, event: UsageEventInput): Promise<void> {
    await this.settleCalls(reservation, [{ event, credits: actual }]);
  }

  /**
   * Settles several calls paid from one reservation (a batch): each call's event with the credits it
   * spent, their sum charged (never more than reserved) and the rest refunded, atomically; without a
   * reservation the calls cost nothing. On failure the reservation is given back, as `settle` does.
   */
  async settleCalls(reservation: Reservation | null, calls: readonly UsageRow[]): Promise<void> {
    if (calls.length === 0 && !reservation) return;
    try {
      await this.commits.submit({ events: [...calls], ...(reservation ? { reservation } : {}) });
    } catch (error) {
      if (reservation) await this.release(reservation).catch(() => undefined);
      throw error;
    }
  }

  /** Gives a whole reservation back (the call failed before answering); false when it was already gone. */
  async release(reservation: Reservation): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      await this.lockAccount(trx, reservation.accountId);
      if (!(await this.dropReservation(trx, reservation.id))) return false;
      await this.refund(trx, reservation, reservation.total);
      return true;
    });
  }

  /** A call that costs nothing (cache hit) still writes its usage event (group commit). */
  async recordFree(event: UsageEventInput): Promise<void> {
    await this.commits.submit({ events: [{ event, credits: 0 }] });
  }

  /** Resolves once every event submitted so far is written: shutdown waits for it. */
  idle(): Promise<void> {
    return this.commits.idle();
  }

  /**
   * One transaction for a batch of settles and free events. Accounts are locked in id order (the
   * order every ledger transaction follows), then each settle charges its call, then all events and
   * their daily totals are written. A failure after the work was done is a CommitOutcomeUnknown.
   */
  private async commitBatch(items: BatchItem[]): Promise<void> {
    if (this.database.dialect === 'postgres' && items.every((i) => !i.reservation) && items.reduce((n, i) => n + i.events.length, 0) <= EVENTS_PER_STATEMENT) {
      return this.commitFreeEvents(items);
    }
    // The usual settle charges all it reserved: no refund, so no account or credit row to touch.
    if (items.every((i) => !i.reservation || wantedOf(i) >= i.reservation.total) && (await this.commitFullCharges(items))) return;
    let done = false;
    try {
      await this.db.transaction().execute(async (trx) => {
        const accounts = new Map<string, { plan: string; extra_credits: number }>();
        for (const id of [...new Set(items.flatMap((i) => (i.reservation ? [i.reservation.accountId] : [])))].sort()) {
          accounts.set(id, await this.lockAccount(trx, id));
        }
        const rows: UsageRow[] = [];
        for (const item of items) {
          if (!item.reservation) {
            for (const row of item.events) rows.push({ event: row.event, credits: 0 });
            continue;
          }
          // What was charged (less than wanted only after a stale sweep) goes to the calls in order.
          rows.push(...spread(item.events, await this.charge(trx, item.reservation, wantedOf(item))));
        }
        await insertUsage(trx, this.database.dialect, rows, this.clock.now());
        done = true;
      });
    } catch (error) {
      throw done ? new CommitOutcomeUnknown(error) : error;
    }
  }

  /**
   * A batch whose every settle charges its whole reservation: each reservation is dropped (that is
   * the whole charge: its credits were debited when it was made) and the events written, without
   * locking accounts — nothing here touches an account's or a month's row, and a reservation row
   * is dropped once (a release racing for it finds it gone). On PostgreSQL that is one statement,
   * atomic alone, no BEGIN or COMMIT. False, with nothing written, when a reservation was released
   * meanwhile (a stale sweep after a long stall): then the general path bills it again.
   */
  private async commitFullCharges(items: BatchItem[]): Promise<boolean> {
    const ids = items.flatMap((i) => (i.reservation ? [i.reservation.id] : []));
    const rows = items.flatMap((i) => (i.reservation ? spread(i.events, i.reservation.total) : i.events.map((row) => ({ event: row.event, credits: 0 }))));
    const now = this.clock.now();
    if (this.database.dialect === 'postgres' && rows.length <= EVENTS_PER_STATEMENT) {
      try {
        await dropAndInsertUsage(this.db, ids, rows, now);
        return true;
      } catch (error) {
        const code = (error as { code?: unknown }).code;
        if (code === RELEASED_MEANWHILE) return false;
        // Refused while running (nothing written): may be retried; anything else may have committed.
        throw typeof code === 'string' && /^(22|23|42)/.test(code) ? error : new CommitOutcomeUnknown(error);
      }
    }
    let done = false;
    try {
      await this.db.transaction().execute(async (trx) => {
        let dropped = 0;
        for (const id of ids) if (await this.dropReservation(trx, id)) dropped++;
        if (dropped < ids.length) throw new ReleasedMeanwhile();
        await insertUsage(trx, this.database.dialect, rows, now);
        done = true;
      });
      return true;
    } catch (error) {
      if (error instanceof ReleasedMeanwhile) return false;
      throw done ? new CommitOutcomeUnknown(error) : error;
    }
  }

  /**
   * Only free events (cache hits): on PostgreSQL their write is one statement, atomic by itself, so
   * no BEGIN and COMMIT round trips. A statement the server refused while running it (bad data, a
   * constraint: SQLSTATE classes 22, 23, 42) wrote nothing and may be retried item by item; any
   * other failure (the connection lost on the way) may have committed: outcome unknown.
   */
  private async commitFreeEvents(items: BatchItem[]): Promise<void> {
    try {
      await insertUsage(this.db, 'postgres', items.flatMap((i) => i.events.map((row) => ({ event: row.event, credits: 0 }))), this.clock.now());
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      throw typeof code === 'string' && /^(22|23|42)/.test(code) ? error : new CommitOutcomeUnknown(error);
    }
  }

  /** Settles one reservation inside a batch (its account already locked); returns what it charged. */
  private async charge(trx: Trx, reservation: Reservation, actual: number): Promise<number> {
    const wanted = Math.max(0, Math.min(actual, reservation.total));
    if (await this.dropReservation(trx, reservation.id)) {
      await this.refund(trx, reservation, reservation.total - wanted);
      return wanted;
    }
    // Released meanwhile by a stale sweep (a long stall): the call did happen, bill what is left.
    // The account row is read again: an earlier settle of this batch may have moved its extra credits.
    const account = await this.lockAccount(trx, reservation.accountId);
    const debit = await this.debit(trx, reservation.accountId, reservation.month, account, wanted);
    return debit.grant + debit.extra;
  }

  /**
   * Refunds every reservation this instance (its INSTANCE_ID) holds: at start, those are what
   * its predecessor left when it died mid-request. Returns how many were released.
   */
  async releaseOwn(): Promise<number> {
    if (this.owner === null) return 0;
    return this.releaseRows((await this.run<ReservationRow>(this.db, 'ownReservations', [this.owner])).rows);
  }

  /**
   * Refunds reservations of any instance older than `olderThanMs`, longer than any request can
   * take: their process died. Several instances may sweep at once; each row is refunded once.
   */
  async releaseStale(olderThanMs: number): Promise<number> {
    const cutoff = utcTimestamp(this.clock.now() - olderThanMs);
    return this.releaseRows((await this.run<ReservationRow>(this.db, 'staleReservations', [cutoff])).rows);
  }

  /**
   * Restarts a held reservation's age (`created_at` = now): a holder that runs longer than any
   * single request (a bulk chunk) renews its lease so no sweep takes it for a crashed one's.
   * False when it is gone (settled, or released by a sweep after all).
   */
  async renew(reservation: Reservation): Promise<boolean> {
    return (await this.run(this.db, 'renewReservation', [utcTimestamp(this.clock.now()), reservation.id])).changed > 0;
  }

  /** How many reservations are held right now (all instances): for the operator and tests. */
  async heldReservations(): Promise<number> {
    const { rows } = await this.run<{ n: number }>(this.db, 'heldReservations', []);
    return Number(rows[0]?.n ?? 0);
  }

  private async releaseRows(rows: readonly ReservationRow[]): Promise<number> {
    let released = 0;
    for (const row of rows) {
      const grant = Number(row.grant_amount);
      const extra = Number(row.extra_amount);
      if (await this.release({ id: row.id, accountId: row.account_id, month: row.month, grant, extra, total: grant + extra })) released++;
    }
    return released;
  }

  /** Locks the account row (PostgreSQL; SQLite has one writer at a time) and reads what a debit needs. */
  protected async lockAccount(trx: Trx, accountId: string): Promise<{ plan: string; extra_credits: number }> {
    const account = (await this.run<{ plan: string; extra_credits: number }>(trx, 'lockAccount', [accountId])).rows[0];
    if (!account) throw new Error(`no account ${accountId}`);
    return account;
  }

  /** Takes up to `want` credits of `month`: the monthly grant first, then extra credits. */
  protected async debit(
    trx: Trx,
    accountId: string,
    month: string,
    account: { plan: string; extra_credits: number },
    want: number,
  ): Promise<{ grant: number; extra: number }> {
    await this.run(trx, 'ensureMonth', [accountId, month]);
    const used = (await this.run<{ used_grant: number }>(trx, 'usedGrant', [accountId, month])).rows[0];
    const grantLeft = Math.max(0, PLAN_QUOTAS[account.plan as PlanId] - Number(used?.used_grant ?? 0));
    const extraLeft = Math.max(0, Number(account.extra_credits));
    const total = Math.max(0, Math.min(want, grantLeft + extraLeft));
    const grant = Math.min(total, grantLeft);
    const extra = total - grant;
    await this.adjust(trx, accountId, month, grant, extra);
    return { grant, extra };
  }

  protected async dropReservation(trx: Trx, id: string): Promise<boolean> {
    return (await this.run(trx, 'dropReservation', [id])).changed > 0;
  }

  protected async refund(trx: Trx, reservation: Reservation, amount: number): Promise<void> {
    if (amount <= 0) return;
    const extraBack = Math.min(reservation.extra, amount);
    await this.adjust(trx, reservation.accountId, reservation.month, -(amount - extraBack), -extraBack);
  }

  private async adjust(trx: Trx, accountId: string, month: string, grant: number, extra: number): Promise<void> {
    if (grant === 0 && extra === 0) return;
    await this.run(trx, 'adjustMonth', [grant, extra, accountId, month]);
    if (extra !== 0) await this.run(trx, 'adjustExtra', [extra, accountId]);
  }

  /** The event and its day's totals, in the caller's transaction: the report never counts one without the other. */
  protected async insertEvent(trx: Trx, event: UsageEventInput, credits: number): Promise<void> {
    await insertUsage(trx, this.database.dialect, [{ event, credits }], this.clock.now());
  }
}
