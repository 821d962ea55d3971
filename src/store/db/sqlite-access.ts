import type SQLite from 'better-sqlite3';
import type { Kysely } from 'kysely';

/**
 * The raw better-sqlite3 connection behind the main store's Kysely instance, for the few hot paths
 * (the credit ledger: issue 37) where Kysely's async pipeline cost more CPU than the statements
 * themselves. Only synchronous work runs through it: a callback that awaits would leave a
 * transaction open across turns of the event loop, which is Kysely's business, not this one's.
 */
export interface SqliteAccess {
  /** The connection; prepare statements on it once and keep them (they die with it). */
  readonly connection: SQLite.Database;
  /**
   * Runs `work` synchronously inside one BEGIN IMMEDIATE transaction on the connection: committed
   * when it returns, rolled back when it throws (unless SQLite already did, as on SQLITE_FULL), the
   * error passed on unchanged. At once when the connection is free; when a Kysely transaction is
   * open on it (between its awaits), after that one ends: joining it would commit or roll back our
   * writes with its own.
   */
  transaction<T>(work: () => T): Promise<T>;
}

export function sqliteAccess(connection: SQLite.Database, kysely: Kysely<unknown>): SqliteAccess {
  // Made once: better-sqlite3 builds a transaction wrapper per call of `transaction()`.
  const wrapped = connection.transaction((work: () => unknown) => work());
  const now = <T>(work: () => T): T => wrapped.immediate(work) as T;
  return {
    connection,
    transaction<T>(work: () => T): Promise<T> {
      if (!connection.inTransaction) {
        try {
          return Promise.resolve(now(work));
        } catch (error) {
          return Promise.reject(error);
        }
      }
      // Kysely's driver holds its connection lock for the whole of its transaction: wait for it.
      return kysely.connection().execute(async () => now(work));
    },
  };
}
