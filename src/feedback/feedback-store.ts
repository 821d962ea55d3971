import type { Kysely } from 'kysely';
import { FEEDBACK_CONCLUSIONS, type FeedbackConclusion, type FeedbackCounts, noFeedback } from '../contract/feedback.js';
import type { Clock } from '../lib/clock.js';
import { utcDay, utcMonth, utcTimestamp } from '../lib/time.js';
import type { DatabaseSchema } from '../store/db/schema.js';
import type { GapStore } from './gap-store.js';
import type { OpenedResponse } from './response-ids.js';

/** `recorded` the first time; `repeated` for the same conclusion again; `conflict` for another. */
export type RecordOutcome = 'recorded' | 'repeated' | 'conflict';

/** Feedback per day of the answer, verdict and conclusion (the console's acceptance chart). */
export interface AcceptanceRow {
  day: string;
  verdict: string;
  conclusion: FeedbackConclusion;
  n: number;
}

/**
 * Feedback on validate answers (issue 29). One transaction per feedback: the answer's row (its
 * key is the idempotency key: the primary key makes a second request with the same id, even at
 * the same moment on another instance, find the first's row instead of counting twice), its day's
 * count, and the index gap it reveals, if any.
 */
export class FeedbackStore {
  constructor(
    private readonly db: Kysely<DatabaseSchema>,
    private readonly clock: Clock,
    private readonly gaps: GapStore,
  ) {}

  async record(accountId: string, answer: OpenedResponse, conclusion: FeedbackConclusion): Promise<RecordOutcome> {
    const now = this.clock.now();
    const { facts } = answer;
    return this.db.transaction().execute(async (trx) => {
      const inserted = await trx
        .insertInto('feedback_responses')
        .values({ response_key: answer.key, account_id: accountId, conclusion, answered_at: utcTimestamp(facts.answeredAt), recorded_at: utcTimestamp(now) })
        .onConflict((oc) => oc.column('response_key').doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) {
        // On PostgreSQL the insert waited for a concurrent one with this key to commit: its row is here.
        const first = await trx.selectFrom('feedback_responses').select('conclusion').where('response_key', '=', answer.key).executeTakeFirst();
        return first?.conclusion === conclusion ? 'repeated' : 'conflict';
      }
      await trx
        .insertInto('feedback_daily')
        .values({
          account_id: accountId,
          day: utcDay(facts.answeredAt),
          month: utcMonth(facts.answeredAt),
          verdict: facts.verdict,
          source: facts.source ?? '',
          conclusion,
          n: 1,
        })
        .onConflict((oc) => oc.columns(['account_id', 'day', 'verdict', 'source', 'conclusion']).doUpdateSet((eb) => ({ n: eb('feedback_daily.n', '+', 1) })))
        .execute();
      if (conclusion === 'user_used' && facts.gap) await this.gaps.add(trx, accountId, facts.gap, now);
      return 'recorded';
    });
  }

  /** Per conclusion, for answers given in `month` (`YYYY-MM`); `source` null for every tag. */
  async counts(accountId: string, month: string, source: string | null): Promise<FeedbackCounts> {
    const rows = await this.db
      .selectFrom('feedback_daily')
      .where('account_id', '=', accountId)
      .where('month', '=', month)
      .$if(source !== null, (qb) => qb.where('source', '=', source as string))
      .select(({ fn }) => ['conclusion', fn.sum('n').as('n')])
      .groupBy('conclusion')
      .execute();
    const counts = noFeedback();
    for (const r of rows) if (isConclusion(r.conclusion)) counts[r.conclusion] = Number(r.n);
    return counts;
  }

  /** Per day in [firstDay, lastDay], verdict and conclusion; absent where there was none. */
  async acceptance(accountId: string, firstDay: string, lastDay: string, source: string | null): Promise<AcceptanceRow[]> {
    const rows = await this.db
      .selectFrom('feedback_daily')
      .where('account_id', '=', accountId)
      .where('day', '>=', firstDay)
      .where('day', '<=', lastDay)
      .$if(source !== null, (qb) => qb.where('source', '=', source as string))
      .select(({ fn }) => ['day', 'verdict', 'conclusion', fn.sum('n').as('n')])
      .groupBy(['day', 'verdict', 'conclusion'])
      .execute();
    return rows.flatMap((r) => (isConclusion(r.conclusion) ? [{ day: r.day, verdict: r.verdict, conclusion: r.conclusion, n: Number(r.n) }] : []));
  }

  /** Answers older than `cutoff` (UTC timestamp) can no longer be given feedback (404): their rows go. */
  async purge(cutoff: string): Promise<number> {
    const result = await this.db.deleteFrom('feedback_responses').where('answered_at', '<', cutoff).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}

function isConclusion(value: string): value is FeedbackConclusion {
  return (FEEDBACK_CONCLUSIONS as readonly string[]).includes(value);
}
