import { chmodSync, existsSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openSqliteStore, SQLITE_INDEX_FILE } from '../../src/local-index/store/sqlite-store.js';
import { openDatabase } from '../../src/store/db/database.js';
import { useModeTestDir } from '../support/mode-test-dir.js';

/**
 * The SQLite files hold password hashes, sealed keys and customers' queries: other local users
 * must not read them (issue 20). The process umask is the usual 022, which alone gives 0644.
 */
const mode = (file: string) => statSync(file).mode & 0o777;

describe('SQLite files are private to the service user', () => {
  const tmp = useModeTestDir('addressd-modes-');

  it('creates the main database, its WAL and shared-memory files 0600', async () => {
    const database = await openDatabase({ dataDir: tmp() });
    try {
      await sql`insert into accounts (id, plan, created_at) values ('acc_modes', 'free', '2026-11-26T00:00:00Z')`.execute(database.db);
      const file = path.join(tmp(), 'addressd.sqlite');
      expect(existsSync(`${file}-wal`)).toBe(true);
      for (const f of [file, `${file}-wal`, `${file}-shm`]) expect(mode(f), f).toBe(0o600);
    } finally {
      await database.close();
    }
  });

  it('tightens a database and companions an older version left 0644', async () => {
    const file = path.join(tmp(), 'addressd.sqlite');
    const first = await openDatabase({ dataDir: tmp() });
    await first.close();
    writeFileSync(`${file}-journal`, '');
    for (const f of [file, `${file}-journal`]) chmodSync(f, 0o644);
    const again = await openDatabase({ dataDir: tmp() });
    try {
      expect(mode(file)).toBe(0o600);
      expect(mode(`${file}-journal`)).toBe(0o600);
    } finally {
      await again.close();
    }
  });

  it('creates the local index file 0600 and tightens an old one', async () => {
    const file = path.join(tmp(), SQLITE_INDEX_FILE);
    const store = openSqliteStore(tmp());
    expect(mode(file)).toBe(0o600);
    await store.close();
    chmodSync(file, 0o644);
    const reopened = openSqliteStore(tmp());
    expect(mode(file)).toBe(0o600);
    await reopened.close();
  });
});
