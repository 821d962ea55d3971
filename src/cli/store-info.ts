import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.js';
import { withPgClient } from '../store/db/pg-pool.js';

/** The database URL as it may be shown: the password is replaced. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return url.replace(/:[^:@/]*@/, ':***@');
  }
}

/** Where a command's data lives, in one line: the SQLite file under DATA_DIR, or PostgreSQL. */
export function describeStore(config: Config, what: 'main' | 'local-index' = 'main'): string {
  if (config.DATABASE_URL) return `PostgreSQL ${redactUrl(config.DATABASE_URL)}${what === 'local-index' ? ' (local_* tables)' : ''}`;
  return `SQLite ${path.resolve(config.DATA_DIR, what === 'main' ? 'addressd.sqlite' : 'local-index.sqlite')}`;
}

/**
 * True when opening the store will create it: no SQLite file yet, or no `accounts` table in the
 * PostgreSQL schema the URL selects. Asked before opening, since opening creates it.
 */
export async function storeIsNew(config: Config): Promise<boolean> {
  if (!config.DATABASE_URL) return !existsSync(path.join(config.DATA_DIR, 'addressd.sqlite'));
  const result = await withPgClient(config.DATABASE_URL, (client) =>
    client.query<{ present: boolean }>(`select to_regclass('accounts') is not null as present`),
  );
  return result.rows[0]?.present !== true;
}
