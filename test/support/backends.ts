import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';

/** The real servers every storage-touching suite runs against (DEVELOPERS: both paths, really). */
export const POSTGRES_URL = 'postgres://postgres@127.0.0.1:5432/test';
export const REDIS_URL = 'redis://127.0.0.1:6379';

export type StorageBackend = 'sqlite' | 'postgres';
export const STORAGE_BACKENDS: StorageBackend[] = ['sqlite', 'postgres'];

/** A throw-away place to store things: a temp DATA_DIR always, plus a fresh PostgreSQL schema. */
export interface Sandbox {
  backend: StorageBackend;
  /** Unique per sandbox: names Redis prefixes and the like. */
  id: string;
  dataDir: string;
  databaseUrl?: string;
  schema?: string;
  /** Environment for a child process (CLI) pointing at this sandbox. */
  env: Record<string, string>;
  cleanup(): Promise<void>;
}

export async function createSandbox(backend: StorageBackend): Promise<Sandbox> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'addressd-test-'));
  const masterKey = randomBytes(32).toString('base64url');
  if (backend === 'sqlite') {
    return {
      backend,
      id: path.basename(dataDir),
      dataDir,
      env: { DATA_DIR: dataDir, MASTER_KEY: masterKey },
      cleanup: async () => rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const schema = `t_${randomBytes(6).toString('hex')}`;
  await admin(`CREATE SCHEMA ${schema}`);
  // search_path via libpq options, so child processes (CLI) land in the same schema.
  const databaseUrl = `${POSTGRES_URL}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  return {
    backend,
    id: schema,
    dataDir,
    databaseUrl,
    schema,
    env: { DATA_DIR: dataDir, MASTER_KEY: masterKey, DATABASE_URL: databaseUrl },
    cleanup: async () => {
      await admin(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** One statement on the shared `test` database. */
async function admin(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  client.on('error', () => undefined);
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
