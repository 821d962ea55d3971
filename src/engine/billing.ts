import type { CreditLedger, Reservation, ReservationCall, UsageEventInput } from '../billing/credit-ledger.js';
import { ChunkBiller } from './chunk-biller.js';
import { QuotaGate } from '../billing/quota-gate.js';
import type { Clock } from '../lib/clock.js';
import type { Metrics } from '../lib/metrics.js';
import { CreditsExhaustedError } from './errors.js';
import { aheadResult, startAhead, type WorkAhead } from './work-ahead.js';

/** Who is calling, for billing and the usage event. */
export interface CallContext {
  accountId: string;
  credentialId: string;
  env: string;
  endpoint: string;
  source: string | null;
  startedAt: number;
  /** The HTTP request's id (X-Request-Id), for the lines logged while it runs; none from the CLI. */
  requestId?: string | undefined;
}

/** What the finished call reports for its usage event. */
export interface CallOutcome {
  verdict: string | null;
  provider: string | null;
  query: string | null;
}

/** What a billed call's work returns: its value, how many providers answered (what is charged), the usage event's outcome. */
export interface BilledWork<T> {
  value: T;
  answered: number;
  outcome: CallOutcome;
}

export interface BillOptions<T = unknown> {
  /**
   * The work may start beside the reservation instead of after it: every provider it would call
   * answers from data this service holds (`Provider.ownData`), so running it before the credits are
   * held costs no one a call. The answer still waits for the reservation (see Biller.billed).
   */
  early?: boolean;
  /**
   * The work, already started with the whole `want` (only with `early`): the engine began it beside
   * its cache read (work-ahead.ts). Used in place of starting it again when all of `want` is held;
   * with fewer credits the work runs again with what was reserved, as for `early`.
   */
  ahead?: WorkAhead<T>;
}

/** What the engines need of a bill step: the API's Biller, or a bulk run's ChunkBiller. */
export interface BillStep {
  ensureCredits(accountId: string): Promise<void>;
  billed<T>(ctx: CallContext, want: number, work: (allowed: number) => Promise<BilledWork<T>>, options?: BillOptions<T>): Promise<T>;
  free(ctx: CallContext, outcome: CallOutcome): Promise<void>;
}

/** The usage event of one call, its latency counted up to now. */
export function usageEvent(clock: Clock, ctx: CallContext, outcome: CallOutcome, cached: boolean): UsageEventInput {
  return {
    accountId: ctx.accountId,
    credentialId: ctx.credentialId,
    env: ctx.env,
    endpoint: ctx.endpoint,
    verdict: outcome.verdict,
    provider: outcome.provider,
    latencyMs: clock.now() - ctx.startedAt,
    cached,
    query: outcome.query,
    source: ctx.source,
    // The answer's moment: the event is written later, in the background.
    at: clock.now(),
  };
}

/**
 * The bill step (DESIGN §5): reserve the worst case before fan-out, settle what was answered
 * after, write the event with the debit. A call that throws gives its reservation back.
 *
 * A single call (`billed`, `free`) waits for its reservation, not for its settle or usage event:
 * those are handed to the ledger's background writer (batched with other requests', retried until
 * they commit, drained at shutdown) and the answer goes at once, unless the settle gives credits
 * back (a provider failed): that answer waits for the write, so every instance sees the credits.
 * The reservation carries the call, so a crash before the write is settled from it
 * (credit-ledger.ts). Only when the writer's queue is full does a call wait, for room in it
 * (back-pressure). On PostgreSQL the reservation's flush to disk runs beside the work
 * (CreditLedger.reserveOverlapped).
 */
export class Biller implements BillStep {
  constructor(
    private readonly ledger: CreditLedger,
    private readonly clock: Clock,
    /** Credits charged and usage events written are counted here once committed. */
    private readonly metrics?: Metrics,
    /** The gate's view of balances; without one every request reads the balance. */
    private readonly gate: QuotaGate = new QuotaGate((id) => ledger.balance(id), clock, 0),
  ) {}

  /** The shared quota gate: nothing runs for an exhausted account. */
  async ensureCredits(accountId: string): Promise<void> {
    let balance = await this.gate.balance(accountId);
    if (balance.available <= 0 && this.ledger.refunding(accountId)) {
      // This process's own refunds are still being written: read the balance once they are.
      await this.ledger.flushed();
      this.gate.refunded(accountId);
      balance = await this.gate.balance(accountId);
    }
    if (balance.available <= 0) throw new CreditsExhaustedError(balance.plan, balance.quota);
  }

  /**
   * Runs `work` with up to `want` credits reserved; `work` gets how many it may spend
   * (fewer providers are called when fewer credits remain).
   *
   * `early` (BillOptions): the work starts with `want` at once, beside a reservation that commits
   * with the flush in its one statement, so a PostgreSQL call waits for the longer of the two, not
   * for their sum (the reservation's round trip came before every keystroke's search). Its outcome
   * is taken only once the credits are held: none held throws as before (the work's result is
   * dropped), fewer than `want` runs the work again with what was reserved, so what is answered and
   * charged is what the other path gives.
   */
  async billed<T>(ctx: CallContext, want: number, work: (allowed: number) => Promise<BilledWork<T>>, options: BillOptions<T> = {}): Promise<T> {
    if (want <= 0) {
      const { value, outcome } = options.ahead ? await aheadResult(options.ahead) : await work(0);
      this.written(ctx, 0, false, await this.ledger.recordFreeLater(this.event(ctx, outcome, false)));
      return value;
    }
    const call = { credentialId: ctx.credentialId, env: ctx.env, endpoint: ctx.endpoint, source: ctx.source };
    if (options.early) return this.billedEarly(ctx, want, call, work, options.ahead);
    const { reservation, durable } = await this.reserveOrRefuse(ctx.accountId, () => this.ledger.reserveOverlapped(ctx.accountId, want, call));
    let result: BilledWork<T>;
    try {
      result = await work(reservation.total);
      // Nothing is answered on a reservation a database crash could still lose (the answer goes
      // before the settle is written): its flush to disk ran beside the work.
      await durable;
    } catch (error) {
      await this.releaseFailed(ctx, reservation);
      throw error;
    }
    return this.settleAnswered(ctx, reservation, result);
  }

  /** `billed` with the work started beside the reservation (BillOptions.early). */
  private async billedEarly<T>(
    ctx: CallContext,
    want: number,
    call: ReservationCall,
    work: (allowed: number) => Promise<BilledWork<T>>,
    ahead: WorkAhead<T> | undefined,
  ): Promise<T> {
    // Sent first, the work once it is on its way (its statement is issued a few promise hops
    // after the call): the work's own first steps (reading the query) then run while it travels.
    // On disk once it resolves (the flush in its own commit): nothing is answered before.
    const reserving = this.reserveOrRefuse(ctx.accountId, () => this.ledger.reserve(ctx.accountId, want, call));
    const started = ahead ?? startAhead(() => work(want));
    const reservation = await reserving;
    let result: BilledWork<T>;
    try {
      // Settled first either way: work run again with fewer credits never runs beside it.
      await started.outcome;
      result = reservation.total < want ? await work(reservation.total) : await aheadResult(started);
    } catch (error) {
      await this.releaseFailed(ctx, reservation);
      throw error;
    }
    return this.settleAnswered(ctx, reservation, result);
  }

  /** A reservation from `reserve`, tried again once this process's refunds are written; none: CreditsExhaustedError. */
  private async reserveOrRefuse<R>(accountId: string, reserve: () => Promise<R | null>): Promise<R> {
    let reserved = await reserve();
    if (!reserved && this.ledger.refunding(accountId)) {
      // Credits this process is giving back are still in its writer: once written, try again.
      await this.ledger.flushed();
      reserved = await reserve();
    }
    if (!reserved) {
      const balance = await this.ledger.balance(accountId);
      this.gate.learn(accountId, balance);
      throw new CreditsExhaustedError(balance.plan, balance.quota);
    }
    return reserved;
  }

  /** A call that failed before answering gives its reservation back at once. */
  private async releaseFailed(ctx: CallContext, reservation: Reservation): Promise<void> {
    await this.ledger.releaseSoon(reservation);
    this.gate.refunded(ctx.accountId);
  }

  /** Hands an answered call's settle and usage event to the background writer; see `billed`. */
  private async settleAnswered<T>(ctx: CallContext, reservation: Reservation, result: BilledWork<T>): Promise<T> {
    // What settle charges: the providers that answered, never more than was reserved.
    const charged = Math.max(0, Math.min(result.answered, reservation.total));
    const accepted = await this.ledger.settleLater(reservation, charged, this.event(ctx, result.outcome, false));
    this.written(ctx, charged, false, accepted);
    if (charged < reservation.total) {
      this.gate.refunded(ctx.accountId);
      // Credits given back (a provider failed) are in the books before the answer goes, so every
      // instance can spend them at once; with the database away, the answer does not wait for it.
      await this.ledger.flushed();
    } else this.gate.spent(ctx.accountId, charged);
    return result.value;
  }

  /**
   * Several calls billed together (POST /v1/validate/batch): ONE reservation of `want` credits (the
   * worst case of every call) before `run`, whose calls bill a ChunkBiller drawing from it by the
   * same rules as `billed` and `free` (the gate, a call gets what is left, pays only for providers
   * that answered), then ONE settle of every call's event and credits. Resolves only once that
   * settle committed (the batch's reservation does not carry its many calls' events, so its answer
   * waits for them: one statement on PostgreSQL when every call spent what it reserved); when `run` throws or the settle fails, the reservation is given back and
   * nothing is charged, so the caller serves nothing of the calls. `run` calls `keep` after each
   * call: the reservation is renewed every `renewEveryMs` (a third of RESERVATION_MAX_AGE_MS), so
   * no sweep takes a long batch's reservation for one a crashed instance left.
   */
  async batch<T>(
    accountId: string,
    want: number,
    run: (biller: ChunkBiller, keep: () => Promise<void>) => Promise<T>,
    renewEveryMs = Number.POSITIVE_INFINITY,
  ): Promise<T> {
    const balance = await this.gate.balance(accountId);
    // Not flushed on its own: the settle below commits with the flush before anything is answered.
    const reservation = want > 0 && balance.available > 0 ? await this.ledger.reserve(accountId, want, undefined, { flush: false }) : null;
    const grant = {
      reservation,
      open: balance.available > 0,
      short: (reservation?.total ?? 0) < want,
      plan: balance.plan,
      quota: balance.quota,
    };
    const biller = new ChunkBiller(this.clock, grant);
    // A batch may outlast a single request (the age after which sweepers take a reservation for a
    // crashed instance's): `keep`, called as its calls finish, renews the lease every renewEveryMs.
    let renewed = this.clock.now();
    const keep = async () => {
      if (!reservation || this.clock.now() - renewed < renewEveryMs) return;
      renewed = this.clock.now();
      // A renewal that fails is no reason to fail the calls: the settle bills a swept reservation anyway.
      await this.ledger.renew(reservation).catch(() => false);
    };
    let value: T;
    try {
      value = await run(biller, keep);
    } catch (error) {
      if (reservation) await this.ledger.releaseSoon(reservation);
      this.gate.refunded(accountId);
      throw error;
    }
    await this.ledger.settleCalls(reservation, biller.charges);
    const charged = biller.charges.reduce((sum, c) => sum + c.credits, 0);
    if (reservation && charged < reservation.total) this.gate.refunded(accountId);
    else this.gate.spent(accountId, charged);
    // The reservation found nothing left: the gate says so at once, as after a refused `billed`.
    if (reservation === null && want > 0 && balance.available > 0) this.gate.learn(accountId, { ...balance, available: 0 });
    for (const [ctx, bill] of biller.calls) this.counted(ctx, bill.charge.credits, bill.charge.event.cached);
    return value;
  }

  /** A cache hit: costs nothing, still recorded, in the background (resolves once accepted). */
  async free(ctx: CallContext, outcome: CallOutcome): Promise<void> {
    this.written(ctx, 0, true, await this.ledger.recordFreeLater(this.event(ctx, outcome, true)));
  }

  /** Counts a background write once it committed (a write given up is counted by the ledger's writer). */
  private written(ctx: CallContext, credits: number, cached: boolean, accepted: { written: Promise<void> }): void {
    accepted.written.then(
      () => this.counted(ctx, credits, cached),
      () => undefined,
    );
  }

  private counted(ctx: CallContext, credits: number, cached: boolean): void {
    if (!this.metrics) return;
    this.metrics.usageEvents.inc({ endpoint: ctx.endpoint, cached: String(cached) });
    if (credits > 0) this.metrics.creditsCharged.inc({ endpoint: ctx.endpoint }, credits);
  }

  private event(ctx: CallContext, outcome: CallOutcome, cached: boolean): UsageEventInput {
    return usageEvent(this.clock, ctx, outcome, cached);
  }
}
