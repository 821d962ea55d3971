import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import { UsageReporter } from '../../src/billing/usage-report.js';
import { migrate } from '../../src/store/db/migrations.js';
import { newAccount, openLedgerFixture, type LedgerFixture } from '../billing/storage.js';
import { STORAGE_BACKENDS } from '../support/backends.js';

/** Events as a service before the per-day totals wrote them: straight into usage_events. */
const OLD_EVENTS = [
  { day: '2026-11-20', endpoint: 'validate', verdict: 'valid', source: 'checkout', credits: 3 },
  { day: '2026-11-20', endpoint: 'validate', verdict: 'valid', source: 'checkout', credits: 2 },
  { day: '2026-11-20', endpoint: 'validate', verdict: 'invalid', source: null, credits: 3 },
  { day: '2026-11-21', endpoint: 'autocomplete', verdict: null, source: null, credits: 1 },
  { day: '2026-11-21', endpoint: 'autocomplete', verdict: null, source: 'checkout', credits: 0 },
  { day: '2026-10-31', endpoint: 'validate', verdict: 'correctable', source: 'crm', credits: 2 },
] as const;

describe.each(STORAGE_BACKENDS)('migration 0002_usage_daily (%s)', (backend) => {
  let fixture: LedgerFixture;
  let accountId: string;

  beforeAll(async () => {
    fixture = await openLedgerFixture(backend, Date.parse('2026-11-21T12:00:00Z'));
    accountId = await newAccount(fixture, 'free');
    const db = fixture.database.db as unknown as Kysely<unknown>;
    // Back to the schema before the migration (its down step drops the totals) ...
    await migrate(db, fixture.database.dialect, fixture.sandbox.schema, '0001_initial');
    await fixture.database.db
      .insertInto('usage_events')
      .values(
        OLD_EVENTS.map((e, i) => ({
          account_id: accountId,
          credential_id: 'key_live',
          env: 'live',
          endpoint: e.endpoint,
          verdict: e.verdict,
          provider: 'pdok',
          latency_ms: 10 + i,
          cached: e.credits === 0 ? 1 : 0,
          credits: e.credits,
          query: `query ${i}`,
          source: e.source,
          at: `${e.day} 10:00:0${i}`,
          day: e.day,
          month: e.day.slice(0, 7),
        })),
      )
      .execute();
    // ... and forward again: the migration builds the totals of the events already there.
    await migrate(db, fixture.database.dialect, fixture.sandbox.schema);
  });
  afterAll(() => fixture.cleanup());

  it('builds per-day totals from the events written before it', async () => {
    const rows = await fixture.database.db
      .selectFrom('usage_daily')
      .select(['day', 'month', 'endpoint', 'verdict', 'source', 'n', 'credits'])
      .where('account_id', '=', accountId)
      .orderBy('day')
      .orderBy('endpoint')
      .orderBy('verdict')
      .orderBy('source')
      .execute();
    expect(rows.map((r) => ({ ...r, n: Number(r.n), credits: Number(r.credits) }))).toEqual([
      { day: '2026-10-31', month: '2026-10', endpoint: 'validate', verdict: 'correctable', source: 'crm', n: 1, credits: 2 },
      { day: '2026-11-20', month: '2026-11', endpoint: 'validate', verdict: 'invalid', source: '', n: 1, credits: 3 },
      { day: '2026-11-20', month: '2026-11', endpoint: 'validate', verdict: 'valid', source: 'checkout', n: 2, credits: 5 },
      { day: '2026-11-21', month: '2026-11', endpoint: 'autocomplete', verdict: '', source: '', n: 1, credits: 1 },
      { day: '2026-11-21', month: '2026-11', endpoint: 'autocomplete', verdict: '', source: 'checkout', n: 1, credits: 0 },
    ]);
  });

  it('lets the report and new events carry on from those totals', async () => {
    await fixture.ledger.recordFree({
      accountId,
      credentialId: 'key_test',
      env: 'test',
      endpoint: 'validate',
      verdict: 'valid',
      provider: null,
      latencyMs: 3,
      cached: true,
      query: 'Damrak 1',
      source: 'checkout',
    });
    const report = await new UsageReporter(fixture.database.db, fixture.ledger, fixture.clock).report({
      accountId,
      environment: 'live',
      source: null,
    });
    expect(report.summary).toEqual([
      { endpoint: 'autocomplete', verdict: null, n: 2, credits: 1 },
      { endpoint: 'validate', verdict: 'invalid', n: 1, credits: 3 },
      { endpoint: 'validate', verdict: 'valid', n: 3, credits: 5 },
    ]);
    expect(report.sources).toEqual([
      { source: 'checkout', n: 4, credits: 5 },
      { source: '', n: 2, credits: 4 },
    ]);
    expect(report.daily.slice(-2)).toEqual([
      { day: '2026-11-20', n: 3, credits: 8 },
      { day: '2026-11-21', n: 3, credits: 1 },
    ]);
    expect(report.recent).toHaveLength(OLD_EVENTS.length + 1);
  });
});
