import type SQLite from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';
import { LRUCache } from 'lru-cache';

/**
 * Kysely's SQLite driver prepares every query anew, and compiling the SQL cost more than running
 * it on the hot paths (a usage event per request). Statements are reusable, and Kysely runs one
 * query at a time per connection, so each distinct SQL text is prepared once and kept (bounded:
 * queries with IN lists of varying length each have their own text).
 */
export function withStatementCache(db: SQLite.Database, max = 1000): SqliteDatabase {
  const statements = new LRUCache<string, SqliteStatement>({ max });
  const rollback = db.prepare('rollback');
  // SQLite rolls a transaction back by itself when a write fails for want of space or memory
  // (SQLITE_FULL, some IOERR). Kysely then sends ROLLBACK anyway, and its "no transaction is
  // active" error replaced the real one: a full disk answered 500 instead of 503.
  const rollbackIfOpen: SqliteStatement = {
    reader: false,
    run: () => (db.inTransaction ? rollback.run() : { changes: 0, lastInsertRowid: 0 }),
    all: () => (db.inTransaction && rollback.run(), []),
    iterate: () => (db.inTransaction && rollback.run(), [][Symbol.iterator]()),
  };
  return {
    close: () => db.close(),
    prepare(text) {
      if (text === 'rollback') return rollbackIfOpen;
      // Kysely begins with a plain (deferred) BEGIN. With several processes on one file (WORKERS),
      // a deferred transaction that reads and then writes can fail at once with SQLITE_BUSY when
      // another holds the write lock; BEGIN IMMEDIATE takes the lock first and waits busy_timeout.
      const sql = text === 'begin' ? 'begin immediate' : text;
      let statement = statements.get(sql);
      if (!statement) {
        statement = db.prepare(sql);
        statements.set(sql, statement);
      }
      return statement;
    },
  };
}
