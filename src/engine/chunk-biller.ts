import type { BulkCharge } from '../billing/bulk-ledger.js';
import type { Reservation } from '../billing/credit-ledger.js';
import type { Clock } from '../lib/clock.js';
import { type BillOptions, type BillStep, type CallContext, type CallOutcome, usageEvent } from './billing.js';
import { aheadResult } from './work-ahead.js';
import { CreditsExhaustedError } from './errors.js';

/** What one chunk of a bulk run may spend: its reservation, and whether that was all the account had. */
export interface ChunkGrant {
  reservation: Reservation | null;
  /** The account had credits when the chunk began (the quota gate). */
  open: boolean;
  /** The reservation got less than asked: the account has nothing beyond it. */
  short: boolean;
  plan: string;
  quota: number;
}

/** One call's bill: its charge, and whether every provider meant to answer did (the API caches only those). */
export interface CallBill {
  charge: BulkCharge;
  complete: boolean;
}

/**
 * The bill step for one chunk of `addressd validate`: the same rules as Biller (gate, worst case
 * up front, pay only for providers that answered, one event per call), but drawn from the chunk's
 * one reservation and collected for BulkLedger.settleChunk instead of a transaction per call.
 * Credits a call did not spend go back to the chunk at once, so later rows can use them.
 * It touches no database: a lookup thread bills its share of a chunk with it (`credits` of the
 * reservation), and the main thread settles the charges of all.
 */
export class ChunkBiller implements BillStep {
  readonly charges: BulkCharge[] = [];
  /** Each call's bill by the context it was made with, so a bulk run can tell its rows apart. */
  readonly calls = new Map<CallContext, CallBill>();
  private left: number;

  constructor(
    private readonly clock: Clock,
    private readonly grant: ChunkGrant,
    credits = grant.reservation?.total ?? 0,
  ) {
    this.left = credits;
  }

  async ensureCredits(): Promise<void> {
    if (!this.grant.open || (this.grant.short && this.left <= 0)) throw this.exhausted();
  }

  async billed<T>(
    ctx: CallContext,
    want: number,
    work: (allowed: number) => Promise<{ value: T; answered: number; outcome: CallOutcome }>,
    options: BillOptions<T> = {},
  ): Promise<T> {
    const allowed = Math.min(Math.max(0, want), this.left);
    if (want > 0 && allowed <= 0) throw this.exhausted();
    this.left -= allowed;
    let result: { value: T; answered: number; outcome: CallOutcome };
    try {
      // Work the engine started ahead asked for the whole `want`: its result stands only if all of it is allowed.
      result = options.ahead && allowed === want ? await aheadResult(options.ahead) : await work(allowed);
    } catch (error) {
      this.left += allowed;
      throw error;
    }
    const credits = Math.min(result.answered, allowed);
    this.left += allowed - credits;
    this.record(ctx, { credits, event: usageEvent(this.clock, ctx, result.outcome, false) }, want > 0 && result.answered >= want);
    return result.value;
  }

  async free(ctx: CallContext, outcome: CallOutcome): Promise<void> {
    this.record(ctx, { credits: 0, event: usageEvent(this.clock, ctx, outcome, true) }, true);
  }

  private record(ctx: CallContext, charge: BulkCharge, complete: boolean): void {
    this.charges.push(charge);
    this.calls.set(ctx, { charge, complete });
  }

  private exhausted(): CreditsExhaustedError {
    return new CreditsExhaustedError(this.grant.plan, this.grant.quota);
  }
}
