import type SQLite from 'better-sqlite3';
import { type LedgerStatement, ledgerSql } from './ledger-sql.js';
import { NO_ROWS, type StepResult } from './ledger-steps.js';
import { DAILY_UPSERT_ONE, EVENT_INSERT_ONE, type UsageRow, usageValues } from './usage-rows.js';

/**
 * The ledger's statements on one SQLite connection, each prepared on first use and kept for the
 * connection's life (issue 37): a call runs them with its values, no SQL text is built or looked
 * up by text. Usage events go one row per run of one prepared insert (and one upsert per daily
 * total) instead of a multi-row insert whose text depends on how many rows there are: inside one
 * transaction SQLite runs a prepared single-row insert in a few microseconds.
 */
export class SqliteLedgerStatements {
  readonly #connection: SQLite.Database;
  readonly #prepared = new Map<LedgerStatement, SQLite.Statement>();
  #daily: SQLite.Statement | undefined;
  #event: SQLite.Statement | undefined;

  private constructor(connection: SQLite.Database) {
    this.#connection = connection;
  }

  /** One set per connection, shared by every ledger on it (a service has a CreditLedger and a BulkLedger). */
  static of(connection: SQLite.Database): SqliteLedgerStatements {
    let statements = ON_CONNECTION.get(connection);
    if (!statements) {
      statements = new SqliteLedgerStatements(connection);
      ON_CONNECTION.set(connection, statements);
    }
    return statements;
  }

  /** Runs one statement of ledger-sql.ts: a reader's rows, or how many rows a writer changed. */
  run(statement: LedgerStatement, params: readonly unknown[]): StepResult {
    let prepared = this.#prepared.get(statement);
    if (!prepared) {
      prepared = this.#connection.prepare(ledgerSql('sqlite')[statement]);
      this.#prepared.set(statement, prepared);
    }
    if (prepared.reader) return { rows: prepared.all(...params), changed: 0 };
    return { rows: [], changed: prepared.run(...params).changes };
  }

  /** Usage events and their daily totals (daily totals first, in key order, as usage-rows.ts writes them). */
  usage(rows: readonly UsageRow[], now: number): StepResult {
    const { daily, events } = usageValues(rows, now);
    this.#daily ??= this.#connection.prepare(DAILY_UPSERT_ONE);
    this.#event ??= this.#connection.prepare(EVENT_INSERT_ONE);
    for (const total of daily) this.#daily.run(...total);
    for (const event of events) this.#event.run(...event);
    return NO_ROWS;
  }
}

const ON_CONNECTION = new WeakMap<SQLite.Database, SqliteLedgerStatements>();
