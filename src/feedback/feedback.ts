import type { Kysely } from 'kysely';
import type { FeedbackConclusion, FeedbackCounts } from '../contract/feedback.js';
import type { Clock } from '../lib/clock.js';
import { utcTimestamp } from '../lib/time.js';
import type { DatabaseSchema } from '../store/db/schema.js';
import { type AcceptanceRow, FeedbackStore, type RecordOutcome } from './feedback-store.js';
import { type GapFilter, type GapRow, GapStore } from './gap-store.js';
import type { ResponseIds } from './response-ids.js';

/** `unknown`: no such id for this account, or expired. `discarded`: FEEDBACK=off, nothing kept. */
export type FeedbackResult = RecordOutcome | 'unknown' | 'discarded';

export interface FeedbackOptions {
  /** FEEDBACK: off records nothing at all (no row, no count, no gap). */
  enabled: boolean;
  /** FEEDBACK_RETENTION_DAYS in ms: how long an id takes feedback and a gap is kept after last seen. */
  retentionMs: number;
}

/**
 * What the customer finally used (issue 29): POST /v1/validate/feedback, the counts of GET
 * /v1/usage and the console, the index gaps of `addressd gaps`, and their retention.
 */
export class Feedback {
  private readonly store: FeedbackStore;
  private readonly gaps: GapStore;

  constructor(
    db: Kysely<DatabaseSchema>,
    readonly ids: ResponseIds,
    private readonly clock: Clock,
    readonly options: FeedbackOptions,
  ) {
    this.gaps = new GapStore(db);
    this.store = new FeedbackStore(db, clock, this.gaps);
  }

  /** The feedback on one of `accountId`'s answers. */
  async give(accountId: string, responseId: string, conclusion: FeedbackConclusion): Promise<FeedbackResult> {
    const answer = this.ids.open(accountId, responseId);
    if (!answer) return 'unknown';
    // Off: the id is still checked (an integration sees the same 404s either way), nothing is kept.
    if (!this.options.enabled) return 'discarded';
    return this.store.record(accountId, answer, conclusion);
  }

  counts(accountId: string, month: string, source: string | null): Promise<FeedbackCounts> {
    return this.store.counts(accountId, month, source);
  }

  acceptance(accountId: string, firstDay: string, lastDay: string, source: string | null): Promise<AcceptanceRow[]> {
    return this.store.acceptance(accountId, firstDay, lastDay, source);
  }

  /** Gaps within retention, most frequent first. */
  listGaps(filter: GapFilter): Promise<GapRow[]> {
    return this.gaps.list(filter, this.cutoff());
  }

  /** Drops what retention no longer allows: answers' rows past their ids' life, gaps not seen since. */
  async purge(): Promise<{ responses: number; gaps: number }> {
    const cutoff = this.cutoff();
    const [responses, gaps] = await Promise.all([this.store.purge(cutoff), this.gaps.purge(cutoff)]);
    return { responses, gaps };
  }

  private cutoff(): string {
    return keptSince(this.clock.now(), this.options.retentionMs);
  }
}

/** The oldest moment (UTC timestamp) retention still keeps at `now`. */
export function keptSince(now: number, retentionMs: number): string {
  return utcTimestamp(now - retentionMs);
}
