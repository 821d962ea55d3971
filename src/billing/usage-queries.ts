import type { Kysely } from 'kysely';
import type { UsageEventRow } from '../contract/usage.js';
import type { DatabaseSchema } from '../store/db/schema.js';

/** Which events a section reads: one account, optionally one source tag. */
export interface UsageScope {
  accountId: string;
  /** Exact tag to keep; null keeps every event. */
  source: string | null;
}

export interface Totals {
  n: number;
  credits: number;
}

/**
 * The reads behind GET /v1/usage, one query per section, same SQL on SQLite and PostgreSQL.
 * Totals come from `usage_daily` (kept by the ledger in the same transaction as each event),
 * so a report costs the same with ten events or ten million; only `recent` reads events.
 * Counts and sums come back as bigint on PostgreSQL, so every figure goes through Number();
 * ordering is left to the caller, because PostgreSQL's text collation and NULL placement
 * differ from SQLite's.
 */
export class UsageQueries {
  constructor(private readonly db: Kysely<DatabaseSchema>) {}

  private totals(scope: UsageScope) {
    return this.db
      .selectFrom('usage_daily')
      .where('account_id', '=', scope.accountId)
      .$if(scope.source !== null, (qb) => qb.where('source', '=', scope.source as string));
  }

  /** Per UTC day in [firstDay, lastDay]; days without events are absent. */
  async byDay(scope: UsageScope, firstDay: string, lastDay: string): Promise<Array<Totals & { day: string }>> {
    const rows = await this.totals(scope)
      .where('day', '>=', firstDay)
      .where('day', '<=', lastDay)
      .select(({ fn }) => ['day', fn.sum('n').as('n'), fn.sum('credits').as('credits')])
      .groupBy('day')
      .execute();
    return rows.map((r) => ({ day: r.day, n: Number(r.n), credits: Number(r.credits) }));
  }

  /** Per endpoint and verdict within one UTC month (null: the endpoint gives none). */
  async byEndpoint(
    scope: UsageScope,
    month: string,
  ): Promise<Array<Totals & { endpoint: string; verdict: string | null }>> {
    const rows = await this.totals(scope)
      .where('month', '=', month)
      .select(({ fn }) => ['endpoint', 'verdict', fn.sum('n').as('n'), fn.sum('credits').as('credits')])
      .groupBy(['endpoint', 'verdict'])
      .execute();
    return rows.map((r) => ({ endpoint: r.endpoint, verdict: r.verdict || null, n: Number(r.n), credits: Number(r.credits) }));
  }

  /** Per source tag within one UTC month (null = untagged). */
  async bySource(scope: UsageScope, month: string): Promise<Array<Totals & { source: string | null }>> {
    const rows = await this.totals(scope)
      .where('month', '=', month)
      .select(({ fn }) => ['source', fn.sum('n').as('n'), fn.sum('credits').as('credits')])
      .groupBy('source')
      .execute();
    return rows.map((r) => ({ source: r.source || null, n: Number(r.n), credits: Number(r.credits) }));
  }

  /** The newest `limit` events, newest first (ids grow with insertion on both dialects). */
  async recent(scope: UsageScope, limit: number): Promise<UsageEventRow[]> {
    const rows = await this.db
      .selectFrom('usage_events')
      .where('account_id', '=', scope.accountId)
      .$if(scope.source !== null, (qb) => qb.where('source', '=', scope.source as string))
      .select(['endpoint', 'verdict', 'provider', 'latency_ms', 'cached', 'credits', 'query', 'source', 'at'])
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    return rows.map((r) => ({
      ...r,
      latency_ms: Number(r.latency_ms),
      cached: Number(r.cached),
      credits: Number(r.credits),
    }));
  }
}
