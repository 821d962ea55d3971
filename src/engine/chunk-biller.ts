import type { BulkCharge, BulkLedger } from '../billing/bulk-ledger.js';
import type { Reservation } from '../billing/credit-ledger.js';
import type { Clock } from '../lib/clock.js';
import { Biller, type CallContext, type CallOutcome } from './billing.js';
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

/**
 * The bill step for one chunk of `addressd validate`: the same rules as Biller (gate, worst case
 * up front, pay only for providers that answered, one event per call), but drawn from the chunk's
 * one reservation and collected for BulkLedger.settleChunk instead of a transaction per call.
 * Credits a call did not spend go back to the chunk at once, so later rows can use them.
 */
export class ChunkBiller extends Biller {
  readonly charges: BulkCharge[] = [];
  private left: number;

  constructor(
    ledger: BulkLedger,
    clock: Clock,
    private readonly grant: ChunkGrant,
  ) {
    super(ledger, clock);
    this.left = grant.reservation?.total ?? 0;
  }

  override async ensureCredits(): Promise<void> {
    if (!this.grant.open || (this.grant.short && this.left <= 0)) throw this.exhausted();
  }

  override async billed<T>(
    ctx: CallContext,
    want: number,
    work: (allowed: number) => Promise<{ value: T; answered: number; outcome: CallOutcome }>,
  ): Promise<T> {
    const allowed = Math.min(Math.max(0, want), this.left);
    if (want > 0 && allowed <= 0) throw this.exhausted();
    this.left -= allowed;
    let result: { value: T; answered: number; outcome: CallOutcome };
    try {
      result = await work(allowed);
    } catch (error) {
      this.left += allowed;
      throw error;
    }
    const credits = Math.min(result.answered, allowed);
    this.left += allowed - credits;
    this.charges.push({ credits, event: this.event(ctx, result.outcome, false) });
    return result.value;
  }

  override async free(ctx: CallContext, outcome: CallOutcome): Promise<void> {
    this.charges.push({ credits: 0, event: this.event(ctx, outcome, true) });
  }

  private exhausted(): CreditsExhaustedError {
    return new CreditsExhaustedError(this.grant.plan, this.grant.quota);
  }
}
