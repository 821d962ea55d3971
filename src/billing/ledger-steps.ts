import type { LedgerStatement } from './ledger-sql.js';
import type { UsageRow } from './usage-rows.js';

/**
 * One thing a ledger rule asks of the database: a statement of ledger-sql.ts, or usage events
 * with their daily totals. The rules (ledger-rules.ts) are written once, as generators that yield
 * these steps, and a runner (ledger-runners.ts) runs them: awaiting each through Kysely
 * (PostgreSQL), or synchronously with prepared statements (SQLite), so the embedded store does
 * not pay an async pipeline per statement while both stores keep the very same rules (issue 37).
 */
export type LedgerStep =
  | { kind: 'sql'; statement: LedgerStatement; params: readonly unknown[] }
  /** Hold the account's row until the transaction ends (PostgreSQL: `lockAccount`; SQLite holds the whole database already). */
  | { kind: 'lock'; accountId: string }
  | { kind: 'usage'; rows: readonly UsageRow[]; now: number };

/** What a step gives back: a statement's rows and how many rows it changed (nothing for `usage`). */
export interface StepResult {
  rows: unknown[];
  changed: number;
}

/** A rule: yields steps, receives each one's result, returns `T`. */
export type Steps<T> = Generator<LedgerStep, T, StepResult>;

/** The result of a step that returns nothing. */
export const NO_ROWS: StepResult = Object.freeze({ rows: [], changed: 0 }) as StepResult;

/** One statement; `R` is the shape of its rows, as the statement's text in ledger-sql.ts selects them. */
export function* sql<R>(statement: LedgerStatement, params: readonly unknown[]): Generator<LedgerStep, { rows: R[]; changed: number }, StepResult> {
  return (yield { kind: 'sql', statement, params }) as { rows: R[]; changed: number };
}

/**
 * Serializes the rest of the transaction with every other ledger transaction of the account, on
 * every instance. Locks are always taken before any write, accounts in id order: no deadlock.
 */
export function* lock(accountId: string): Generator<LedgerStep, void, StepResult> {
  yield { kind: 'lock', accountId };
}

/** Usage events and their daily totals (usage-rows.ts), in the rule's transaction. */
export function* usage(rows: readonly UsageRow[], now: number): Generator<LedgerStep, void, StepResult> {
  if (rows.length > 0) yield { kind: 'usage', rows, now };
}
