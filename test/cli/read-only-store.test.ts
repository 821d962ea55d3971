import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/program.js';
import { createSandbox, STORAGE_BACKENDS } from '../support/backends.js';

async function cli(env: Record<string, string>, args: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), env });
  return { code, stdout, stderr };
}

/** Issue 20 §3: a read-only command run where no store is (another folder) creates nothing and says why. */
describe.each(STORAGE_BACKENDS)('read-only commands without a store (%s)', (backend) => {
  it('fail in one line naming the store, and leave no store behind; a write still creates one', async () => {
    const sandbox = await createSandbox(backend);
    try {
      for (const args of [['account', 'list'], ['account', 'show', 'acc_x'], ['key', 'list', '--account', 'acc_x'], ['token', 'list', '--account', 'acc_x']]) {
        const res = await cli(sandbox.env, args);
        expect(res.code, args.join(' ')).toBe(1);
        expect(res.stdout).toBe('');
        expect(res.stderr).toMatch(/^error: no store at (SQLite|PostgreSQL) .*: nothing to read, and a read-only command creates none \(set DATA_DIR or DATABASE_URL .*\)\n$/);
      }
      expect(existsSync(path.join(sandbox.dataDir, 'addressd.sqlite'))).toBe(false);
      expect(readdirSync(sandbox.dataDir)).toEqual([]);
      if (backend === 'postgres') {
        const client = new pg.Client({ connectionString: sandbox.databaseUrl });
        await client.connect();
        try {
          const tables = await client.query(`select count(*)::int as n from information_schema.tables where table_schema = $1`, [sandbox.schema]);
          expect(tables.rows[0].n).toBe(0);
        } finally {
          await client.end();
        }
      }
      // Writing is how a store is made, with the warning it always gave; reading works from then on.
      expect((await cli(sandbox.env, ['account', 'create', '--name', 'First'])).code).toBe(0);
      const listed = await cli(sandbox.env, ['account', 'list']);
      expect(listed.code).toBe(0);
      expect(listed.stdout).toContain('First');
    } finally {
      await sandbox.cleanup();
    }
  });
});

describe('a DATA_DIR that cannot be created', () => {
  it('is one error line for a command that would write, at once', async () => {
    const res = await cli({ DATA_DIR: '/proc/nope', LOG_LEVEL: 'silent' }, ['account', 'create']);
    expect(res.code).toBe(1);
    expect(res.stderr.split('\n').filter(Boolean)).toEqual([
      expect.stringMatching(/^error: Invalid configuration: DATA_DIR=\/proc\/nope cannot be created: mkdir \/proc\/nope failed \(ENOENT\)$/),
    ]);
  });
});
