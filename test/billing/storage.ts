import type { PlanId } from '../../src/contract/enums.js';
import { AccountStore } from '../../src/accounts/accounts.js';
import { CreditLedger, type UsageEventInput } from '../../src/billing/credit-ledger.js';
import { ManualClock } from '../../src/lib/clock.js';
import { type Database, openDatabase } from '../../src/store/db/database.js';
import { createSandbox, type Sandbox, type StorageBackend } from '../support/backends.js';

/** Real storage (a SQLite file or a fresh PostgreSQL schema) with a ledger on a hand-moved clock. */
export interface LedgerFixture {
  sandbox: Sandbox;
  clock: ManualClock;
  database: Database;
  accounts: AccountStore;
  ledger: CreditLedger;
  /** Another connection to the same storage, as a second service instance (or a restart) has. */
  connect(): Promise<{ database: Database; ledger: CreditLedger }>;
  cleanup(): Promise<void>;
}

export async function openLedgerFixture(backend: StorageBackend, start?: number): Promise<LedgerFixture> {
  const sandbox = await createSandbox(backend);
  const clock = new ManualClock(start);
  const opened: Database[] = [];
  const open = async () => {
    const database = await openDatabase({
      dataDir: sandbox.dataDir,
      ...(sandbox.databaseUrl ? { databaseUrl: sandbox.databaseUrl } : {}),
      ...(sandbox.schema ? { schema: sandbox.schema } : {}),
    });
    opened.push(database);
    return database;
  };
  const database = await open();
  return {
    sandbox,
    clock,
    database,
    accounts: new AccountStore(database.db, clock),
    ledger: new CreditLedger(database, clock),
    async connect() {
      const other = await open();
      return { database: other, ledger: new CreditLedger(other, clock) };
    },
    async cleanup() {
      await Promise.allSettled(opened.map((d) => d.close()));
      await sandbox.cleanup();
    },
  };
}

export async function newAccount(fixture: LedgerFixture, plan: PlanId, extraCredits = 0): Promise<string> {
  return (await fixture.accounts.create({ plan, extraCredits })).id;
}

/** A usage event of a plain live validate call; override what a test cares about. */
export function event(accountId: string, overrides: Partial<UsageEventInput> = {}): UsageEventInput {
  return {
    accountId,
    credentialId: 'key_live',
    env: 'live',
    endpoint: '/v1/validate',
    verdict: 'valid',
    provider: 'pdok',
    latencyMs: 12,
    cached: false,
    query: 'Damrak 1, Amsterdam',
    source: null,
    ...overrides,
  };
}

/** Reserves `want`, settles `answered` (capped by what was reserved); the credits charged, or null when refused. */
export async function spend(
  ledger: CreditLedger,
  accountId: string,
  want: number,
  answered = want,
  overrides: Partial<UsageEventInput> = {},
): Promise<number | null> {
  const reservation = await ledger.reserve(accountId, want);
  if (!reservation) return null;
  const charged = Math.min(answered, reservation.total);
  await ledger.settle(reservation, charged, event(accountId, overrides));
  return charged;
}

export async function eventRows(database: Database, accountId: string) {
  return database.db.selectFrom('usage_events').selectAll().where('account_id', '=', accountId).orderBy('id').execute();
}

export async function creditMonth(database: Database, accountId: string, month: string) {
  const row = await database.db
    .selectFrom('credit_months')
    .select(['used_grant', 'used_extra'])
    .where('account_id', '=', accountId)
    .where('month', '=', month)
    .executeTakeFirst();
  return { usedGrant: Number(row?.used_grant ?? 0), usedExtra: Number(row?.used_extra ?? 0) };
}

export async function heldReservations(database: Database, accountId: string): Promise<number> {
  const rows = await database.db.selectFrom('credit_reservations').select('id').where('account_id', '=', accountId).execute();
  return rows.length;
}
