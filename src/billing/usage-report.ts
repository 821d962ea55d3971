import type { Kysely } from 'kysely';
import type { Environment } from '../contract/enums.js';
import { type FeedbackCounts, noFeedback } from '../contract/feedback.js';
import type { UsageResponse } from '../contract/usage.js';
import type { Clock } from '../lib/clock.js';
import { utcDay, utcMonth } from '../lib/time.js';
import type { DatabaseSchema } from '../store/db/schema.js';
import type { CreditLedger } from './credit-ledger.js';
import { type Totals, UsageQueries } from './usage-queries.js';

/** SPEC "Limits": `daily` covers 14 days, `recent` holds 50 events. */
export const USAGE_DAYS = 14;
export const USAGE_RECENT = 50;

const DAY_MS = 86_400_000;

export interface UsageRequest {
  accountId: string;
  /** Environment of the calling key; the figures stay account-wide. */
  environment: Environment;
  /** Source tag to filter summary, daily and recent by; null for none. */
  source: string | null;
}

/** The `USAGE_DAYS` UTC days ending with the day of `now`, oldest first. */
export function reportDays(now: number): string[] {
  return Array.from({ length: USAGE_DAYS }, (_, i) => utcDay(now - (USAGE_DAYS - 1 - i) * DAY_MS));
}

/** Plain code-unit order, the same on every database. */
const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
/** Null (autocomplete has no verdict) sorts before any verdict. */
const byNullableText = (a: string | null, b: string | null): number =>
  a === b ? 0 : a === null ? -1 : b === null ? 1 : byText(a, b);

/**
 * GET /v1/usage (SPEC UsageResponse). Balances come from the credit ledger, so `quota -
 * creditsUsedThisMonth + extraCredits` is what the quota gate sees; the rest is grouped from
 * usage events of the current UTC month (`summary`, `sources`), the last 14 days and the last
 * 50 events. Reads only: it costs nothing and writes no event. It first waits for this process's
 * background usage writes accepted before the request (credit-ledger.ts), so a client reads what
 * its own calls to this instance wrote.
 */
export class UsageReporter {
  private readonly queries: UsageQueries;

  constructor(
    db: Kysely<DatabaseSchema>,
    private readonly ledger: CreditLedger,
    private readonly clock: Clock,
    /** Feedback on this month's answers per conclusion (feedback/feedback-store.ts), filtered like summary; none without. */
    private readonly feedbackCounts: (accountId: string, month: string, source: string | null) => Promise<FeedbackCounts> = async () => noFeedback(),
  ) {
    this.queries = new UsageQueries(db);
  }

  async report(request: UsageRequest): Promise<UsageResponse> {
    await this.ledger.flushed();
    const now = this.clock.now();
    const month = utcMonth(now);
    const days = reportDays(now);
    const filtered = { accountId: request.accountId, source: request.source };
    const everything = { accountId: request.accountId, source: null };
    const [balance, perDay, perEndpoint, perSource, recent, feedback] = await Promise.all([
      this.ledger.balance(request.accountId),
      this.queries.byDay(filtered, days[0]!, days[days.length - 1]!),
      this.queries.byEndpoint(filtered, month),
      this.queries.bySource(everything, month),
      this.queries.recent(filtered, USAGE_RECENT),
      this.feedbackCounts(request.accountId, month, request.source),
    ]);

    const dayTotals = new Map(perDay.map((row) => [row.day, row]));
    return {
      plan: balance.plan,
      quota: balance.quota,
      extraCredits: balance.extraCredits,
      creditsUsedThisMonth: balance.usedThisMonth,
      environment: request.environment,
      filteredBySource: request.source,
      daily: days.map((day) => ({ day, n: dayTotals.get(day)?.n ?? 0, credits: dayTotals.get(day)?.credits ?? 0 })),
      summary: perEndpoint
        .map(({ endpoint, verdict, n, credits }) => ({ endpoint, verdict, n, credits }))
        .sort((a, b) => byText(a.endpoint, b.endpoint) || byNullableText(a.verdict, b.verdict)),
      sources: untaggedMerged(perSource).sort((a, b) => b.credits - a.credits || byText(a.source, b.source)),
      recent,
      feedback,
    };
  }
}

/** Untagged traffic is reported under "" (SPEC), so a null and an empty tag are one row. */
function untaggedMerged(rows: Array<Totals & { source: string | null }>): Array<Totals & { source: string }> {
  const merged = new Map<string, Totals>();
  for (const row of rows) {
    const key = row.source ?? '';
    const seen = merged.get(key) ?? { n: 0, credits: 0 };
    merged.set(key, { n: seen.n + row.n, credits: seen.credits + row.credits });
  }
  return [...merged].map(([source, totals]) => ({ source, ...totals }));
}
