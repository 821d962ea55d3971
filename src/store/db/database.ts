import { mkdirSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import { migrate } from './migrations.js';
import type { DatabaseSchema } from './schema.js';
import { withStatementCache } from './statement-cache.js';

export type Dialect = 'sqlite' | 'postgres';

export interface Database {
  db: Kysely<DatabaseSchema>;
  dialect: Dialect;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  dataDir: string;
  databaseUrl?: string;
  /** PostgreSQL schema to live in (created when missing); tests use one each. */
  schema?: string;
  /** SQLite file name under dataDir. */
  fileName?: string;
}

// PostgreSQL returns BIGINT (count, sum) as strings by default; our sums stay far below 2^53.
pg.types.setTypeParser(20, (value) => Number.parseInt(value, 10));

/** Opens the main database (SQLite under DATA_DIR, or PostgreSQL) and runs migrations. */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options.schema);
  mkdirSync(options.dataDir, { recursive: true });
  const file = path.join(options.dataDir, options.fileName ?? 'addressd.sqlite');
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<DatabaseSchema>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
  await migrate(db as Kysely<unknown>, 'sqlite');
  return { db, dialect: 'sqlite', close: () => db.destroy() };
}

async function openPostgres(url: string, schema?: string): Promise<Database> {
  if (schema) {
    if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`Invalid schema name ${schema}`);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    } finally {
      await client.end();
    }
  }
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  const db = new Kysely<DatabaseSchema>({ dialect: new PostgresDialect({ pool }) });
  // Kysely's migrator finds its own tables in ANY schema unless given one: pin it to ours
  // (search_path may come from the URL), or another schema's migration tables fool it.
  const migrationSchema = schema ?? (await sql<{ name: string }>`select current_schema() as name`.execute(db)).rows[0]?.name;
  await migrate(db as Kysely<unknown>, 'postgres', migrationSchema);
  return { db, dialect: 'postgres', close: () => db.destroy() };
}

/** Drops a test schema and everything in it. */
export async function dropPostgresSchema(url: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  } finally {
    await client.end();
  }
}
