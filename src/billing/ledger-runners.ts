import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../store/db/database.js';
import type { Dialect } from '../store/db/dialect.js';
import type { SqliteAccess } from '../store/db/sqlite-access.js';
import type { DatabaseSchema } from '../store/db/schema.js';
import { ledgerSql, type LedgerStatement, runSql } from './ledger-sql.js';
import { type LedgerStep, NO_ROWS, type StepResult, type Steps } from './ledger-steps.js';
import { SqliteLedgerStatements } from './sqlite-statements.js';
import { insertUsage } from './usage-rows.js';

/** Runs a ledger rule (ledger-rules.ts) in one transaction of its store. */
export interface LedgerRunner {
  transaction<T>(steps: Steps<T>): Promise<T>;
}

/** The runner of a database: SQLite's synchronous one when the raw connection is there, else Kysely's. */
export function ledgerRunner(database: Database): LedgerRunner {
  return database.sqlite ? new SqliteLedgerRunner(database.sqlite) : new KyselyLedgerRunner(database.db, database.dialect);
}

/**
 * PostgreSQL: each step awaited through Kysely, in one Kysely transaction. The server is across a
 * network and answers asynchronously anyway; its hot paths are single statements (addressd_reserve,
 * settleUsage) that do not come here.
 */
export class KyselyLedgerRunner implements LedgerRunner {
  readonly #sql: Record<LedgerStatement, string>;

  constructor(
    private readonly db: Kysely<DatabaseSchema>,
    private readonly dialect: Dialect,
  ) {
    this.#sql = ledgerSql(dialect);
  }

  transaction<T>(steps: Steps<T>): Promise<T> {
    return this.db.transaction().execute((trx) => this.#drive(trx, steps));
  }

  async #drive<T>(trx: Transaction<DatabaseSchema>, steps: Steps<T>): Promise<T> {
    for (let next = steps.next(); ; ) {
      if (next.done) return next.value;
      next = steps.next(await this.#step(trx, next.value));
    }
  }

  async #step(trx: Transaction<DatabaseSchema>, step: LedgerStep): Promise<StepResult> {
    if (step.kind === 'sql') return runSql(trx, this.#sql[step.statement], step.params);
    if (step.kind === 'lock') return runSql(trx, this.#sql.lockAccount, [step.accountId]);
    await insertUsage(trx, this.dialect, step.rows, step.now);
    return NO_ROWS;
  }
}

/**
 * SQLite: the whole rule run synchronously in one BEGIN IMMEDIATE transaction on the raw
 * connection, with statements prepared once (sqlite-statements.ts): no promise, no query
 * compilation and no connection hand-over per statement (issue 37: a reservation cost ~200 µs of
 * CPU through Kysely, ~100 µs so). A failing statement rolls the whole rule back, as before.
 */
export class SqliteLedgerRunner implements LedgerRunner {
  readonly #statements: SqliteLedgerStatements;

  constructor(private readonly access: SqliteAccess) {
    this.#statements = SqliteLedgerStatements.of(access.connection);
  }

  transaction<T>(steps: Steps<T>): Promise<T> {
    return this.access.transaction(() => {
      for (let next = steps.next(); ; ) {
        if (next.done) return next.value;
        next = steps.next(this.#step(next.value));
      }
    });
  }

  #step(step: LedgerStep): StepResult {
    if (step.kind === 'sql') return this.#statements.run(step.statement, step.params);
    // BEGIN IMMEDIATE took the database's write lock: every other writer, of any process, waits.
    if (step.kind === 'lock') return NO_ROWS;
    return this.#statements.usage(step.rows, step.now);
  }
}
