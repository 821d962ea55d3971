import type { Kysely } from 'kysely';
import type { PlanId } from '../contract/enums.js';
import type { Clock } from '../lib/clock.js';
import { newId } from '../lib/ids.js';
import { utcMonth, utcTimestamp } from '../lib/time.js';
import type { Database } from '../store/db/database.js';
import type { DatabaseSchema } from '../store/db/schema.js';
import { isDatabaseUnavailable } from '../store/db/faults.js';
import { type FailureKind, GroupCommit, type GroupCommitOptions } from './group-commit.js';
import * as rules from './ledger-rules.js';
import { type BatchItem, spread, wantedOf } from './ledger-rules.js';
import { type LedgerRunner, ledgerRunner } from './ledger-runners.js';
import { type LedgerStatement, ledgerSql, runSql } from './ledger-sql.js';
import { PLAN_QUOTAS } from './plans.js';
import { EVENTS_PER_STATEMENT, isBatchMarkConflict, RELEASED_MEANWHILE, type SettleRow, settleUsage, type UsageRow } from './usage-rows.js';

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
  /** When the call was answered (ms); default: when the event is written. Written later, it keeps its moment. */
  at?: number;
}

/** The call a reservation pays for, recorded with it: what its usage event needs if its process dies. */
export interface ReservationCall {
  credentialId: string;
  env: string;
  endpoint: string;
  source: string | null;
}

export interface Reservation {
  id: string;
  accountId: string;
  month: string;
  grant: number;
  extra: number;
  total: number;
  /**
   * Present: a single call's reservation, settled from itself when its process dies (the call may
   * have been answered), so a settle that finds it gone writes nothing. Absent (a batch, a bulk
   * chunk): released when its process dies, so a settle that finds it gone bills what is left.
   */
  call?: ReservationCall;
}

export interface ReserveOptions {
  /**
   * false: on PostgreSQL, the reservation commits without waiting for the WAL flush. Only for a
   * caller that answers after a later commit of its own with the flush (a batch's or a bulk
   * chunk's settle): WAL is flushed in order, so that commit puts the reservation on disk too,
   * and a crash before it loses both, with nothing answered. Default true.
   */
  flush?: boolean;
}

export interface Balance {
  plan: PlanId;
  quota: number;
  extraCredits: number;
  usedThisMonth: number;
  available: number;
}

/** A reservation row as stored. */
interface ReservationRow {
  id: string;
  account_id: string;
  month: string;
  grant_amount: number;
  extra_amount: number;
  created_at: string;
  credential_id: string | null;
  env: string | null;
  endpoint: string | null;
  source: string | null;
}

/** Background batch ids are kept this long: far beyond any retry of their batch (a retry happens within its process's life). */
const BATCH_MARK_KEEP_MS = 86_400_000;

/** PostgreSQL serialization failure or deadlock: nothing was written, the same batch may run again. */
const RETRYABLE_SQLSTATE = new Set(['40001', '40P01']);

/** A background write's failure: transient (written again) or refused (never will be). */
export function classifyWriteFailure(error: unknown): FailureKind {
  if (isDatabaseUnavailable(error)) return 'retry';
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && RETRYABLE_SQLSTATE.has(code) ? 'retry' : 'refused';
}

/** The plans' monthly grants as the reserve function takes them (one JSON text for the process). */
const QUOTAS_JSON = JSON.stringify(PLAN_QUOTAS);

/**
 * Money, transactionally (DESIGN §5). A call reserves its worst case before fan-out (never more
 * than the account has, even across instances), then settles: refund the unused part, delete the
 * reservation and write the usage event in ONE transaction. The API's calls settle in the
 * background (`settleLater`: the answer does not wait for it); a single call's reservation carries
 * what its usage event needs, so a crash between the answer and the write leaves a reservation row
 * that is settled from itself — charged what it reserved, with an event of that call — by the
 * instance's next start (`releaseOwn`) or by any instance once older than the longest request
 * (`releaseStale`, run by the sweeper). A reservation without its call (a batch, a bulk chunk,
 * settled before its answer) is released instead. No answer unbilled, no double bill, no credits
 * held for long. The monthly grant is spent before extra credits; refunds give extra credits back first.
 */
export class CreditLedger {
  protected readonly db: Kysely<DatabaseSchema>;
  private readonly owner: string | null;
  /** The hand-written statements of this dialect (ledger-sql.ts), for those run outside the rules. */
  private readonly sql: Record<LedgerStatement, string>;
  /**
   * Runs the rules (ledger-rules.ts) in one transaction each: synchronously with prepared
   * statements on SQLite, through Kysely on PostgreSQL (ledger-runners.ts).
   */
  protected readonly rules: LedgerRunner;
  /** Settles and free events written in the background, concurrent requests' together (group-commit.ts). */
  private readonly commits: GroupCommit<BatchItem>;
  /** Per account, background items that give credits back (a partial charge, a release) not yet written. */
  readonly #refunding = new Map<string, number>();

  constructor(
    protected readonly database: Database,
    protected readonly clock: Clock,
    options: { owner?: string; writer?: Omit<GroupCommitOptions<BatchItem>, 'classify' | 'mayLinger'> } = {},
  ) {
    this.db = database.db;
    this.owner = options.owner ?? null;
    this.sql = ledgerSql(database.dialect);
    this.rules = ledgerRunner(database);
    this.commits = new GroupCommit<BatchItem>((items, batchId) => this.commitBatch(items, batchId), {
      ...options.writer,
      classify: classifyWriteFailure,
      // Only a settle whose reservation carries its call waits for company: a crash before its write
      // is settled from the reservation. A free event (a cache hit's) has nothing to recover it from.
      mayLinger: (item) => item.reservation?.call !== undefined,
    });
  }

  /**
   * One hand-written statement on its own, through Kysely: those off the hot path (reads, the
   * sweeper's queries, renewals) and PostgreSQL's one-statement reserve and settle.
   */
  protected run<R>(db: Kysely<DatabaseSchema>, statement: LedgerStatement, params: readonly unknown[]) {
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

  /**
   * Reserves up to `want` credits; fewer when the account has fewer; null when it has none. With
   * `call`, the reservation records the call it pays for (see Reservation.call). One statement on
   * PostgreSQL (addressd_reserve, after the account lock: no overspend across instances).
   */
  async reserve(accountId: string, want: number, call?: ReservationCall, options: ReserveOptions = {}): Promise<Reservation | null> {
    return this.reserveWith(options.flush === false ? 'reserveUnflushed' : 'reserve', accountId, want, call);
  }

  /**
   * `reserve`, handing the reservation back before it is on disk, with `durable`, which resolves
   * once it is (rejects when that cannot be known: the database went away). A call that answers
   * before its settle is written (Biller.billed) works meanwhile and answers only once `durable`
   * resolved, so it never serves an answer whose reservation a database crash could lose; the
   * wait for the disk runs beside the work instead of before it. On PostgreSQL the reservation
   * commits without waiting for the WAL flush, then a second statement, on another connection,
   * commits a write to its row with the flush (a disk's fsync, 4 ms on this machine's, was most of
   * a PostgreSQL keystroke). On SQLite a commit is in the file when it returns: `durable` is at once.
   */
  async reserveOverlapped(accountId: string, want: number, call: ReservationCall): Promise<{ reservation: Reservation; durable: Promise<void> } | null> {
    if (this.database.dialect !== 'postgres') {
      const reservation = await this.reserve(accountId, want, call);
      return reservation ? { reservation, durable: Promise.resolve() } : null;
    }
    const reservation = await this.reserve(accountId, want, call, { flush: false });
    if (!reservation) return null;
    const durable = this.run(this.db, 'makeDurable', [reservation.id]).then(({ changed }) => {
      // Its row gone within the call: nothing was written, so nothing was flushed. Never expected.
      if (changed !== 1) throw new Error(`reservation ${reservation.id} is not in the database`);
    });
    // Awaited by the caller once its work is done; a rejection before then is not unhandled.
    durable.catch(() => undefined);
    return { reservation, durable };
  }

  private async reserveWith(statement: 'reserve' | 'reserveUnflushed', accountId: string, want: number, call?: ReservationCall): Promise<Reservation | null> {
    const now = this.clock.now();
    const month = utcMonth(now);
    const id = newId('res');
    const callColumns = [call?.credentialId ?? null, call?.env ?? null, call?.endpoint ?? null, call?.source ?? null];
    const made = (grant: number, extra: number): Reservation => ({ id, accountId, month, grant, extra, total: grant + extra, ...(call ? { call } : {}) });
    if (this.database.dialect === 'postgres') {
      // One round trip: the same steps as below, run by the server (migrations 0008 and 0010).
      const { rows } = await this.run<{ r_grant: number; r_extra: number }>(this.db, statement, [accountId, month, want, QUOTAS_JSON, id, utcTimestamp(now), this.owner, ...callColumns]);
      const grant = Number(rows[0]?.r_grant ?? 0);
      const extra = Number(rows[0]?.r_extra ?? 0);
      return grant + extra > 0 ? made(grant, extra) : null;
    }
    const debited = await this.rules.transaction(rules.reserve({ id, accountId, month, want, createdAt: now, owner: this.owner, callColumns }));
    return debited ? made(debited.grant, debited.extra) : null;
  }

  /**
   * Charges `actual` (≤ reserved) and writes the usage event, atomically, before resolving. When
   * that fails the reservation is given back, so a call is either billed with its event or not at all.
   */
  async settle(reservation: Reservation, actual: number, event: UsageEventInput): Promise<void> {
    await this.settleCalls(reservation, [{ event, credits: actual }]);
  }

  /**
   * Settles several calls paid from one reservation (a batch): each call's event with the credits it
   * spent, their sum charged (never more than reserved) and the rest refunded, atomically, before
   * resolving (one statement on PostgreSQL when the calls spent all they reserved). Without a
   * reservation the calls cost nothing. On failure the reservation is given back, as `settle` does.
   */
  async settleCalls(reservation: Reservation | null, calls: readonly UsageRow[]): Promise<void> {
    if (calls.length === 0 && !reservation) return;
    try {
      await this.commitBatch([{ events: [...calls], ...(reservation ? { reservation } : {}) }], null);
    } catch (error) {
      if (reservation) await this.releaseSoon(reservation);
      throw error;
    }
  }

  /**
   * The settle of an answered call, in the background: resolves once accepted by the writer (at
   * once, unless its queue is full); `written` settles when it committed. A transient failure is
   * retried until it commits; a crash before that is settled from the reservation (`call`).
   */
  async settleLater(reservation: Reservation, actual: number, event: UsageEventInput): Promise<{ written: Promise<void> }> {
    return this.later({ events: [{ event, credits: actual }], reservation });
  }

  /** A call that costs nothing (cache hit) still writes its usage event; resolves once written. */
  async recordFree(event: UsageEventInput): Promise<void> {
    await this.commits.submit({ events: [{ event, credits: 0 }] });
  }

  /** `recordFree` in the background: resolves once accepted; `written` settles when it committed. */
  async recordFreeLater(event: UsageEventInput): Promise<{ written: Promise<void> }> {
    return this.commits.enqueue({ events: [{ event, credits: 0 }] });
  }

  /** Gives a whole reservation back (the call failed before answering); false when it was already gone. */
  async release(reservation: Reservation): Promise<boolean> {
    return this.rules.transaction(rules.release(reservation));
  }

  /**
   * `release`, and when the database cannot take it now, handed to the background writer (retried
   * until it lands): a reservation of a failed call must come back, not wait to be settled by
   * recovery as if it had been answered. Never throws.
   */
  async releaseSoon(reservation: Reservation): Promise<void> {
    try {
      await this.release(reservation);
    } catch {
      await this.later({ events: [], reservation });
    }
  }

  /** True while background writes of this process will give credits back to the account. */
  refunding(accountId: string): boolean {
    return this.#refunding.has(accountId);
  }

  /** Resolves once every background write accepted so far is written (or given up): read your own writes. */
  flushed(): Promise<void> {
    return this.commits.flushed();
  }

  /** Resolves once the background writer holds nothing. */
  idle(): Promise<void> {
    return this.commits.idle();
  }

  /** Shutdown: writes what the background writer holds, giving up on a database still away after `graceMs`. */
  drain(graceMs: number): Promise<void> {
    return this.commits.stop(graceMs);
  }

  /** Background items held (the queue-length gauge). */
  get pendingWrites(): number {
    return this.commits.length;
  }

  private async later(item: BatchItem): Promise<{ written: Promise<void> }> {
    const reservation = item.reservation;
    if (!reservation || wantedOf(item) >= reservation.total) return this.commits.enqueue(item);
    const account = reservation.accountId;
    this.#refunding.set(account, (this.#refunding.get(account) ?? 0) + 1);
    const accepted = await this.commits.enqueue(item);
    void accepted.written
      .catch(() => undefined)
      .then(() => {
        const left = (this.#refunding.get(account) ?? 1) - 1;
        if (left > 0) this.#refunding.set(account, left);
        else this.#refunding.delete(account);
      });
    return accepted;
  }

  /**
   * One transaction for a batch of settles and free events; `batchId` (background batches) is
   * recorded with it, so a re-run after an unknown commit outcome writes nothing: it fails on the
   * id's key, which means "already committed". On PostgreSQL a batch whose every settle charges its
   * whole reservation is one statement (usage-rows.ts settleUsage); otherwise accounts are locked
   * in id order (the order every ledger transaction follows), each settle charges its call, then
   * all events and their daily totals are written.
   */
  private async commitBatch(items: BatchItem[], batchId: string | null): Promise<void> {
    try {
      if (await this.commitFullCharges(items, batchId)) return;
      await this.rules.transaction(rules.settleBatch(items, batchId, this.clock.now()));
    } catch (error) {
      if (isBatchMarkConflict(error)) return;
      throw error;
    }
  }

  /**
   * PostgreSQL, a batch whose every settle charges its whole reservation (and free events): each
   * reservation is dropped (that is the whole charge: its credits were debited when it was made)
   * and the events written in ONE statement, without locking accounts — nothing here touches an
   * account's or a month's row, and a reservation row is dropped once (a release or a recovery
   * racing for it finds it gone). False, with nothing written, when the general path must run: on
   * SQLite, with a refund to make, or when a reservation without its call was released meanwhile
   * (a stale sweep after a long stall: the general path bills it again).
   */
  private async commitFullCharges(items: BatchItem[], batchId: string | null): Promise<boolean> {
    if (this.database.dialect !== 'postgres') return false;
    if (items.some((i) => i.reservation && wantedOf(i) < i.reservation.total)) return false;
    const rows: SettleRow[] = [];
    const required: string[] = [];
    const recoverable: string[] = [];
    for (const { reservation, events } of items) {
      if (!reservation) {
        for (const row of events) rows.push({ event: row.event, credits: 0, paidBy: null });
        continue;
      }
      (reservation.call ? recoverable : required).push(reservation.id);
      for (const row of spread(events, reservation.total)) rows.push({ ...row, paidBy: reservation.call ? reservation.id : null });
    }
    if (rows.length > EVENTS_PER_STATEMENT) return false;
    try {
      await settleUsage(this.db, { required, recoverable }, rows, this.clock.now(), batchId);
      return true;
    } catch (error) {
      if ((error as { code?: unknown }).code === RELEASED_MEANWHILE) return false;
      throw error;
    }
  }

  /**
   * Recovers every reservation this instance (its INSTANCE_ID) holds: at start, those are what
   * its predecessor left when it died mid-request. Returns how many were settled or released.
   */
  async releaseOwn(): Promise<number> {
    if (this.owner === null) return 0;
    return this.recoverRows((await this.run<ReservationRow>(this.db, 'ownReservations', [this.owner])).rows);
  }

  /**
   * Recovers reservations of any instance older than `olderThanMs`, longer than any request can
   * take: their process died. Several instances may sweep at once; each row is recovered once.
   * Also drops background batch ids too old to be retried.
   */
  async releaseStale(olderThanMs: number): Promise<number> {
    const now = this.clock.now();
    await this.run(this.db, 'dropBatchMarks', [utcTimestamp(now - BATCH_MARK_KEEP_MS)]);
    return this.recoverRows((await this.run<ReservationRow>(this.db, 'staleReservations', [utcTimestamp(now - olderThanMs)])).rows);
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

  /**
   * A dead process's reservations: one that carries its call is settled from itself — the call may
   * have been answered, so it is charged what it reserved (at most its worst case) with a usage
   * event of that call (no verdict, provider or query: those died with the process; its source
   * kept); one without (a batch's, a bulk chunk's: never answered before their settle) is released.
   */
  private async recoverRows(rows: readonly ReservationRow[]): Promise<number> {
    let recovered = 0;
    for (const row of rows) {
      const grant = Number(row.grant_amount);
      const extra = Number(row.extra_amount);
      const reservation: Reservation = { id: row.id, accountId: row.account_id, month: row.month, grant, extra, total: grant + extra };
      const done = row.credential_id !== null && row.env !== null && row.endpoint !== null ? await this.settleFromItself(reservation, row) : await this.release(reservation);
      if (done) recovered++;
    }
    return recovered;
  }

  /** Drops the reservation and writes its call's event at its whole amount, at the time it was made; false when already gone. */
  private async settleFromItself(reservation: Reservation, row: ReservationRow): Promise<boolean> {
    const at = Date.parse(`${row.created_at.replace(' ', 'T')}Z`);
    const event: UsageEventInput = {
      accountId: reservation.accountId,
      credentialId: row.credential_id ?? '',
      env: row.env ?? '',
      endpoint: row.endpoint ?? '',
      verdict: null,
      provider: null,
      latencyMs: 0,
      cached: false,
      query: null,
      source: row.source,
    };
    const now = this.clock.now();
    return this.rules.transaction(rules.settleFromItself(reservation, { ...event, at: Number.isNaN(at) ? now : at }, now));
  }
}
