import { ensureDataDir } from '../../lib/data-dir.js';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import type { Dialect } from './dialect.js';
import { migrate } from './migrations.js';
import { OwnSchemaPostgresDialect } from './own-schema-dialect.js';
import { preparePrivateSqliteFile } from './private-file.js';
import { createPgPool, type PoolErrorHandler, withPgClient } from './pg-pool.js';
import type { DatabaseSchema } from './schema.js';
import { type SqliteAccess, sqliteAccess } from './sqlite-access.js';
import { withStatementCache } from './statement-cache.js';
import { type CheckpointResult, FALLBACK_PAGES, WalCheckpointer } from './wal-checkpointer.js';

export type { Dialect } from './dialect.js';
export type { SqliteAccess } from './sqlite-access.js';

export interface Database {
  db: Kysely<DatabaseSchema>;
  dialect: Dialect;
  /** SQLite only: the raw connection under `db`, for synchronous hot paths (the credit ledger). */
  sqlite?: SqliteAccess;
  /** Readiness: resolves when the database answers a trivial query within `timeoutMs`, else rejects. */
  ping(timeoutMs: number): Promise<void>;
  /** SQLite: a checkpoint of the write-ahead log at once, on the checkpoint thread (wal-checkpointer.ts). */
  checkpoint?: () => Promise<CheckpointResult>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  dataDir: string;
  databaseUrl?: string;
  /** PostgreSQL schema to live in (created when missing); default the URL's search_path. */
  schema?: string;
  /** SQLite file name under dataDir. */
  fileName?: string;
  /** PostgreSQL: connection errors the pool absorbed (logged by the service). */
  onError?: PoolErrorHandler;
  /** PostgreSQL: how long to wait for a connection before a request fails as unavailable. */
  connectTimeoutMs?: number;
  /** SQLite: how often the checkpoint thread runs (default CHECKPOINT_INTERVAL_MS; 0 only when asked). */
  checkpointIntervalMs?: number;
  /** SQLite: a background checkpoint failed (said once per run of failures). */
  onCheckpointError?: (error: Error) => void;
  /** SQLite: background checkpoints succeed again after failures. */
  onCheckpointRecovered?: () => void;
  /** SQLite: each background checkpoint, with the log's length it found. */
  onCheckpoint?: (result: CheckpointResult) => void;
}

// PostgreSQL returns BIGINT (count, sum) as strings by default; our sums stay far below 2^53.
pg.types.setTypeParser(20, (value) => Number.parseInt(value, 10));

/** Opens the main database (SQLite under DATA_DIR, or PostgreSQL) and runs migrations. */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options);
  ensureDataDir(options.dataDir);
  const file = path.join(options.dataDir, options.fileName ?? 'addressd.sqlite');
  preparePrivateSqliteFile(file);
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  // Checkpoints run on their own thread (wal-checkpointer.ts); this connection's own is the fallback.
  sqlite.pragma(`wal_autocheckpoint = ${FALLBACK_PAGES}`);
  // A log that grew while the thread was behind is cut back once it restarts.
  sqlite.pragma(`journal_size_limit = ${64 * 1024 * 1024}`);
  const db = new Kysely<DatabaseSchema>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
  await migrate(db as Kysely<unknown>, 'sqlite');
  const checkpointer = WalCheckpointer.start(file, {
    ...(options.checkpointIntervalMs !== undefined ? { intervalMs: options.checkpointIntervalMs } : {}),
    ...(options.onCheckpointError ? { onError: options.onCheckpointError } : {}),
    ...(options.onCheckpointRecovered ? { onRecovered: options.onCheckpointRecovered } : {}),
    ...(options.onCheckpoint ? { onRun: options.onCheckpoint } : {}),
  });
  return {
    db,
    dialect: 'sqlite',
    sqlite: sqliteAccess(sqlite, db as Kysely<unknown>),
    ping: (timeoutMs) => probe(db, timeoutMs),
    checkpoint: () => checkpointer.now(),
    close: async () => {
      await checkpointer.stop();
      await db.destroy();
    },
  };
}

async function openPostgres(url: string, options: DatabaseOptions): Promise<Database> {
  const { schema } = options;
  if (schema) {
    if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`Invalid schema name ${schema}`);
    await withPgClient(url, (client) => client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`));
  }
  const pool = createPgPool(
    {
      connectionString: url,
      max: 10,
      ...(options.connectTimeoutMs !== undefined ? { connectionTimeoutMillis: options.connectTimeoutMs } : {}),
      ...(schema ? { options: `-c search_path=${schema}` } : {}),
    },
    options.onError,
  );
  const db = new Kysely<DatabaseSchema>({ dialect: new OwnSchemaPostgresDialect({ pool }) });
  try {
    // Migration tables live in our schema (search_path may come from the URL); introspection
    // reads only that schema, so other schemas of a shared database never disturb it.
    const migrationSchema = schema ?? (await sql<{ name: string }>`select current_schema() as name`.execute(db)).rows[0]?.name;
    await migrate(db as Kysely<unknown>, 'postgres', migrationSchema);
  } catch (error) {
    await db.destroy().catch(() => undefined);
    throw error;
  }
  return { db, dialect: 'postgres', ping: (timeoutMs) => probe(db, timeoutMs), close: () => db.destroy() };
}

/** `SELECT 1` raced against a timer: a hung connection attempt must not hang the probe. */
async function probe(db: Kysely<DatabaseSchema>, timeoutMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error(`Database did not answer within ${timeoutMs} ms`), { code: 'ETIMEDOUT' })), timeoutMs);
    timer.unref();
  });
  try {
    await Promise.race([sql`select 1`.execute(db), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
