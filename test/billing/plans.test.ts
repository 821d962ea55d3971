import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UsageReporter } from '../../src/billing/usage-report.js';
import { STORAGE_BACKENDS } from '../support/backends.js';
import { type LedgerFixture, newAccount, openLedgerFixture, spend } from './storage.js';

// DESIGN §5's grants, written out: the test must fail if a plan's quota in code drifts from them.
const GRANTS = [
  ['free', 500],
  ['starter', 10_000],
  ['growth', 100_000],
  ['scale', 1_000_000],
] as const;

describe.each(STORAGE_BACKENDS)('plan quotas on %s', (backend) => {
  let f: LedgerFixture;
  let reporter: UsageReporter;
  beforeAll(async () => {
    f = await openLedgerFixture(backend, Date.UTC(2026, 10, 10, 9, 0, 0));
    reporter = new UsageReporter(f.database.db, f.ledger, f.clock);
  });
  afterAll(async () => {
    await f.cleanup();
  });

  it.each(GRANTS)('the %s plan grants %i credits a month, then spends only extra credits', async (plan, grant) => {
    const acc = await newAccount(f, plan, 3);
    expect(await reporter.report({ accountId: acc, environment: 'live', source: null })).toMatchObject({
      plan,
      quota: grant,
      extraCredits: 3,
      creditsUsedThisMonth: 0,
    });
    // Ask for more than the whole grant: exactly the grant and the 3 extra credits are handed out.
    expect(await spend(f.ledger, acc, grant + 10)).toBe(grant + 3);
    expect(await spend(f.ledger, acc, 1)).toBeNull();
    expect(await reporter.report({ accountId: acc, environment: 'test', source: null })).toMatchObject({
      plan,
      quota: grant,
      extraCredits: 0,
      creditsUsedThisMonth: grant + 3,
    });
  });
});
