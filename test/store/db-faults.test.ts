import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from '../../src/store/db/faults.js';
import { createPgPool } from '../../src/store/db/pg-pool.js';
import { POSTGRES_URL } from '../support/backends.js';
import { startTcpProxy } from '../support/tcp-proxy.js';

/** Real errors of real drivers, told apart: "the database is away" (503) from a bug or bad data (500). */
async function errorOf(work: () => Promise<unknown>): Promise<unknown> {
  try {
    await work();
  } catch (error) {
    return error;
  }
  throw new Error('expected the work to fail');
}

async function withPool<T>(url: string, work: (pool: pg.Pool) => Promise<T>, connectTimeoutMs = 2000): Promise<T> {
  const pool = createPgPool({ connectionString: url, connectionTimeoutMillis: connectTimeoutMs });
  try {
    return await work(pool);
  } finally {
    await pool.end();
  }
}

describe('isDatabaseUnavailable', () => {
  it('PostgreSQL refusing connections', async () => {
    const proxy = await startTcpProxy({ host: '127.0.0.1', port: 5432 });
    await proxy.cut();
    const url = `postgres://postgres@127.0.0.1:${proxy.port}/test`;
    expect(isDatabaseUnavailable(await errorOf(() => withPool(url, (pool) => pool.query('select 1'))))).toBe(true);
    await proxy.close();
  });

  it('a database host that never answers (the pool connect timeout)', async () => {
    const proxy = await startTcpProxy({ host: '127.0.0.1', port: 5432 });
    await proxy.blackhole();
    const url = `postgres://postgres@127.0.0.1:${proxy.port}/test`;
    expect(isDatabaseUnavailable(await errorOf(() => withPool(url, (pool) => pool.query('select 1'), 200)))).toBe(true);
    await proxy.close();
  });

  it('a backend terminated by an administrator mid-query (57P01)', async () => {
    const name = `faults_${process.pid}_${Date.now()}`;
    const error = await errorOf(() =>
      withPool(`${POSTGRES_URL}?application_name=${name}`, async (pool) => {
        // Handled from the start: the rejection may come before the admin's pool has closed.
        const sleeping = pool.query('select pg_sleep(30)');
        sleeping.catch(() => undefined);
        await withPool(POSTGRES_URL, async (admin) => {
          let pids: number[] = [];
          while (pids.length === 0) {
            pids = (await admin.query<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND state = 'active'", [name])).rows.map((r) => r.pid);
          }
          await admin.query('SELECT pg_terminate_backend(pid) FROM unnest($1::int[]) AS pid', [pids]);
        });
        return sleeping;
      }),
    );
    expect((error as { code?: string }).code).toBe('57P01');
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it('SQLite busy past its timeout', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'addressd-faults-'));
    try {
      const file = path.join(dir, 'busy.sqlite');
      const holder = new SQLite(file);
      holder.exec('CREATE TABLE t (x integer); BEGIN EXCLUSIVE');
      const other = new SQLite(file, { timeout: 0 });
      let error: unknown;
      try {
        other.exec('INSERT INTO t VALUES (1)');
      } catch (caught) {
        error = caught;
      }
      expect((error as { code?: string }).code).toMatch(/^SQLITE_BUSY/);
      expect(isDatabaseUnavailable(error)).toBe(true);
      holder.exec('ROLLBACK');
      holder.close();
      other.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('SQLite out of space (SQLITE_FULL, here a page limit standing in for the disk)', () => {
    const sqlite = new SQLite(':memory:');
    sqlite.exec('CREATE TABLE t (x text)');
    sqlite.pragma('max_page_count = 8');
    let error: unknown;
    try {
      for (let i = 0; i < 1000; i += 1) sqlite.prepare('INSERT INTO t VALUES (?)').run('x'.repeat(1000));
    } catch (caught) {
      error = caught;
    }
    expect((error as { code?: string }).code).toBe('SQLITE_FULL');
    expect(isDatabaseUnavailable(error)).toBe(true);
    sqlite.close();
  });

  it('is false for bugs and bad data: a syntax error, a constraint, a plain Error', async () => {
    expect(isDatabaseUnavailable(await errorOf(() => withPool(POSTGRES_URL, (pool) => pool.query('selec 1'))))).toBe(false);
    expect(isDatabaseUnavailable(await errorOf(() => withPool(POSTGRES_URL, (pool) => pool.query('select 1/0'))))).toBe(false);
    const sqlite = new SQLite(':memory:');
    sqlite.exec('CREATE TABLE t (x integer primary key)');
    sqlite.exec('INSERT INTO t VALUES (1)');
    let unique: unknown;
    try {
      sqlite.exec('INSERT INTO t VALUES (1)');
    } catch (caught) {
      unique = caught;
    }
    expect(isDatabaseUnavailable(unique)).toBe(false);
    expect(isDatabaseUnavailable(new Error('boom'))).toBe(false);
  });
});
