import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UsageReporter } from '../../src/billing/usage-report.js';
import { migrate } from '../../src/store/db/migrations.js';
import { newAccount, openLedgerFixture, spend, type LedgerFixture } from '../billing/storage.js';
import { STORAGE_BACKENDS } from '../support/backends.js';

/**
 * Every call writes a usage event, so each index on usage_events is paid on every request
 * (issue 11). Migration 0006 keeps only the ones a read uses: the recent-calls list, with and
 * without a source filter.
 */
describe.each(STORAGE_BACKENDS)('usage_events indexes (%s)', (backend) => {
  let fixture: LedgerFixture;
  let db: Kysely<unknown>;

  async function indexes(): Promise<string[]> {
    const { dialect } = fixture.database;
    const rows =
      dialect === 'postgres'
        ? await sql<{ name: string }>`SELECT indexname AS name FROM pg_indexes
            WHERE schemaname = ${fixture.sandbox.schema} AND tablename = 'usage_events' AND indexname NOT LIKE '%pkey'`.execute(db)
        : await sql<{ name: string }>`SELECT name FROM sqlite_master
            WHERE type = 'index' AND tbl_name = 'usage_events' AND name NOT LIKE 'sqlite_%'`.execute(db);
    return rows.rows.map((r) => r.name).sort();
  }

  beforeAll(async () => {
    fixture = await openLedgerFixture(backend, Date.parse('2026-11-25T12:00:00Z'));
    db = fixture.database.db as unknown as Kysely<unknown>;
  });
  afterAll(() => fixture.cleanup());

  it('keeps only the indexes the recent-calls list reads', async () => {
    expect(await indexes()).toEqual(['usage_account_id', 'usage_account_source_id']);
  });

  it('the usage report still reads the days and the recent calls, filtered by source or not', async () => {
    const accountId = await newAccount(fixture, 'free');
    await spend(fixture.ledger, accountId, 3, 3, { source: 'checkout', query: 'first' });
    await spend(fixture.ledger, accountId, 2, 2, { query: 'second' });
    const reporter = new UsageReporter(fixture.database.db, fixture.ledger, fixture.clock);
    const all = await reporter.report({ accountId, environment: 'live', source: null });
    expect(all.daily.at(-1)).toEqual({ day: '2026-11-25', n: 2, credits: 5 });
    expect(all.recent.map((r) => r.query)).toEqual(['second', 'first']);
    const tagged = await reporter.report({ accountId, environment: 'live', source: 'checkout' });
    expect(tagged.recent.map((r) => r.query)).toEqual(['first']);
  });

  it('migrating back down restores the month and day indexes', async () => {
    await migrate(db, fixture.database.dialect, fixture.sandbox.schema, '0005_bulk_receipts');
    expect(await indexes()).toEqual(['usage_account_day', 'usage_account_id', 'usage_account_month', 'usage_account_source_id']);
    await migrate(db, fixture.database.dialect, fixture.sandbox.schema);
    expect(await indexes()).toEqual(['usage_account_id', 'usage_account_source_id']);
  });
});
