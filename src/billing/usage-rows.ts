import { utcDay, utcMonth, utcTimestamp } from '../lib/time.js';
import type { Trx } from './credit-ledger.js';
import type { UsageEventInput } from './credit-ledger.js';

/** One usage event and the credits it was charged. */
export interface UsageRow {
  event: UsageEventInput;
  credits: number;
}

/**
 * Usage events and their days' totals, in the caller's transaction, so the report never counts one
 * without the other: one multi-row insert for the events, one upsert per (account, day, endpoint,
 * verdict, source) with the batch's sums. Totals are written in key order, so two batches on two
 * instances lock the same rows in the same order and never deadlock.
 */
export async function insertUsage(trx: Trx, rows: readonly UsageRow[], now: number): Promise<void> {
  if (rows.length === 0) return;
  const day = utcDay(now);
  const month = utcMonth(now);
  const at = utcTimestamp(now);
  const totals = new Map<string, { account_id: string; day: string; month: string; endpoint: string; verdict: string; source: string; n: number; credits: number }>();
  for (const { event, credits } of rows) {
    const verdict = event.verdict ?? '';
    const source = event.source ?? '';
    const key = JSON.stringify([event.accountId, event.endpoint, verdict, source]);
    const total = totals.get(key);
    if (total) {
      total.n += 1;
      total.credits += credits;
    } else {
      totals.set(key, { account_id: event.accountId, day, month, endpoint: event.endpoint, verdict, source, n: 1, credits });
    }
  }
  await trx
    .insertInto('usage_daily')
    .values([...totals.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, total]) => total))
    .onConflict((oc) =>
      oc.columns(['account_id', 'day', 'endpoint', 'verdict', 'source']).doUpdateSet((eb) => ({
        n: eb('usage_daily.n', '+', eb.ref('excluded.n')),
        credits: eb('usage_daily.credits', '+', eb.ref('excluded.credits')),
      })),
    )
    .execute();
  await trx
    .insertInto('usage_events')
    .values(
      rows.map(({ event, credits }) => ({
        account_id: event.accountId,
        credential_id: event.credentialId,
        env: event.env,
        endpoint: event.endpoint,
        verdict: event.verdict,
        provider: event.provider,
        latency_ms: Math.max(0, Math.round(event.latencyMs)),
        cached: event.cached ? 1 : 0,
        credits,
        query: event.query,
        source: event.source,
        at,
        day,
        month,
      })),
    )
    .execute();
}
