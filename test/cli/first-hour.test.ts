import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/program.js';
import { redactUrl } from '../../src/cli/store-info.js';
import { createSandbox, type Sandbox, STORAGE_BACKENDS } from '../support/backends.js';

async function cli(env: Record<string, string>, args: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), env });
  return { code, stdout, stderr };
}

/** Command lines of a help text's "Commands:" section: name, and the description after it. */
function helpCommands(help: string): { name: string; description: string }[] {
  const section = help.split('Commands:\n')[1] ?? '';
  return [...section.matchAll(/^ {2}(\S+)(?: [^\n]*?)?(?: {2,}(\S[^\n]*))?$/gm)].map((m) => ({ name: m[1] ?? '', description: m[2] ?? '' }));
}

/** Issue 13, "the first hour": what a newcomer meets first in the CLI. */
describe('the CLI for a newcomer', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await createSandbox('sqlite');
  });
  afterAll(async () => sandbox?.cleanup());

  it('describes every command and subcommand in --help', async () => {
    const top = helpCommands((await cli(sandbox.env, ['--help'])).stdout);
    expect(top.map((c) => c.name)).toEqual(expect.arrayContaining(['account', 'credits', 'key', 'token', 'import', 'invite', 'validate', 'widget-demo']));
    const all = [...top];
    for (const group of ['account', 'credits', 'key', 'token']) {
      const sub = helpCommands((await cli(sandbox.env, [group, '--help'])).stdout);
      expect(sub.length, group).toBeGreaterThan(0);
      all.push(...sub.map((c) => ({ ...c, name: `${group} ${c.name}` })));
    }
    expect(all.filter((c) => c.description.trim() === '').map((c) => c.name)).toEqual([]);
    expect(all.map((c) => c.name)).toContain('account list');
  });

  it('suggests the command meant on a typo, in one line', async () => {
    const top = await cli(sandbox.env, ['acount', 'list']);
    expect(top.code).toBe(1);
    expect(top.stderr).toBe("error: unknown command 'acount' (Did you mean account?)\n");
    const sub = await cli(sandbox.env, ['account', 'lst']);
    expect(sub.stderr).toBe("error: unknown command 'lst' (Did you mean list?)\n");
    const option = await cli(sandbox.env, ['account', 'create', '--pla', 'free']);
    expect(option.stderr).toMatch(/^error: unknown option '--pla' \(Did you mean --plan\?\)\n$/);
  });

  it('names the store on every command that writes, warns once when it creates a new one, and lists accounts', async () => {
    const store = `store: SQLite ${path.join(sandbox.dataDir, 'addressd.sqlite')}`;
    const first = await cli(sandbox.env, ['account', 'create', '--name', 'First']);
    expect(first.code).toBe(0);
    expect(first.stderr.split('\n')).toEqual([store, expect.stringMatching(/^warning: no store there yet: creating a new, empty one/), '']);
    const second = await cli(sandbox.env, ['account', 'create', '--name', 'Second', '--plan', 'growth']);
    expect(second.stderr).toBe(`${store}\n`);
    // Reading says nothing; --json keeps stderr for errors only.
    const listed = await cli(sandbox.env, ['account', 'list']);
    expect(listed.stderr).toBe('');
    expect(listed.stdout.trim().split('\n').map((l) => l.split(/\s+/).slice(1, 3))).toEqual([['free', 'First'], ['growth', 'Second']]);
    const json = await cli(sandbox.env, ['account', 'list', '--json']);
    expect(JSON.parse(json.stdout).accounts.map((a: { name: string }) => a.name)).toEqual(['First', 'Second']);
    const quiet = await cli(sandbox.env, ['account', 'create', '--json']);
    expect(quiet.stderr).toBe('');
  });

  it('shows a database URL without its password', () => {
    expect(redactUrl('postgres://app:s3cret@db.internal:5432/addressd')).toBe('postgres://app:***@db.internal:5432/addressd');
    expect(redactUrl('postgres://postgres@127.0.0.1:5432/test')).toBe('postgres://postgres@127.0.0.1:5432/test');
  });
});

describe.each(STORAGE_BACKENDS)('the store line on %s', (backend) => {
  it('names SQLite by its file and PostgreSQL by its URL', async () => {
    const sandbox = await createSandbox(backend);
    try {
      const res = await cli(sandbox.env, ['account', 'create']);
      expect(res.stderr.split('\n')[0]).toBe(
        backend === 'sqlite' ? `store: SQLite ${path.join(sandbox.dataDir, 'addressd.sqlite')}` : `store: PostgreSQL ${sandbox.databaseUrl}`,
      );
      expect(res.stderr).toContain('warning: no store there yet');
    } finally {
      await sandbox.cleanup();
    }
  });
});
