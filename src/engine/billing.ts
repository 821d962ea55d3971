import type { CreditLedger, UsageEventInput } from '../billing/credit-ledger.js';
import { QuotaGate } from '../billing/quota-gate.js';
import type { Clock } from '../lib/clock.js';
import type { Metrics } from '../lib/metrics.js';
import { CreditsExhaustedError } from './errors.js';

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

/** What the engines need of a bill step: the API's Biller, or a bulk run's ChunkBiller. */
export interface BillStep {
  ensureCredits(accountId: string): Promise<void>;
  billed<T>(ctx: CallContext, want: number, work: (allowed: number) => Promise<{ value: T; answered: number; outcome: CallOutcome }>): Promise<T>;
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
  };
}

/**
 * The bill step (DESIGN §5): reserve the worst case before fan-out, settle what was answered
 * after, write the event with the debit. A call that throws gives its reservation back.
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
    const balance = await this.gate.balance(accountId);
    if (balance.available <= 0) throw new CreditsExhaustedError(balance.plan, balance.quota);
  }

  /**
   * Runs `work` with up to `want` credits reserved; `work` gets how many it may spend
   * (fewer providers are called when fewer credits remain).
   */
  async billed<T>(
    ctx: CallContext,
    want: number,
    work: (allowed: number) => Promise<{ value: T; answered: number; outcome: CallOutcome }>,
  ): Promise<T> {
    if (want <= 0) {
      const { value, outcome } = await work(0);
      await this.ledger.recordFree(this.event(ctx, outcome, false));
      this.counted(ctx, 0, false);
      return value;
    }
    const reservation = await this.ledger.reserve(ctx.accountId, want);
    if (!reservation) {
      const balance = await this.ledger.balance(ctx.accountId);
      this.gate.learn(ctx.accountId, balance);
      throw new CreditsExhaustedError(balance.plan, balance.quota);
    }
    let result: { value: T; answered: number; outcome: CallOutcome };
    try {
      result = await work(reservation.total);
    } catch (error) {
      await this.ledger.release(reservation);
      this.gate.refunded(ctx.accountId);
      throw error;
    }
    await this.ledger.settle(reservation, result.answered, this.event(ctx, result.outcome, false));
    // What settle charges: the providers that answered, never more than was reserved.
    const charged = Math.max(0, Math.min(result.answered, reservation.total));
    if (charged < reservation.total) this.gate.refunded(ctx.accountId);
    else this.gate.spent(ctx.accountId, charged);
    this.counted(ctx, charged, false);
    return result.value;
  }

  /** A cache hit: costs nothing, still recorded. */
  async free(ctx: CallContext, outcome: CallOutcome): Promise<void> {
    await this.ledger.recordFree(this.event(ctx, outcome, true));
    this.counted(ctx, 0, true);
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
