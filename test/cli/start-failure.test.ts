import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { runCli } from '../../src/cli/program.js';
import { createSandbox, type Sandbox } from '../support/backends.js';

const BIN = path.resolve('bin/addressd.js');

/**
 * A list run whose start fails after its Redis connections are open (the soak saw it: PostgreSQL
 * connections terminated while `addressd validate` started) must say why and exit, not wait forever
 * on the connections it opened. Here the local index cannot be opened: the Redis cache, limiter and
 * change feed are open by then.
 */
describe('addressd validate, its start failing after Redis is connected', () => {
  let sandbox: Sandbox;
  let env: Record<string, string>;

  beforeAll(async () => {
    sandbox = await createSandbox('sqlite');
    env = { ...sandbox.env, PROVIDERS: 'local', REDIS_URL: 'redis://127.0.0.1:6379', REDIS_PREFIX: `test:start-failure:${process.pid}:`, LOG_LEVEL: 'silent' };
  });
  afterAll(async () => {
    await sandbox?.cleanup();
  });

  it('says why and exits 1, with nothing left holding the process', async () => {
    let created = '';
    expect(await runCli(['account', 'create', '--plan', 'starter', '--json'], { stdout: (t) => void (created += t), stderr: () => undefined, env })).toBe(0);
    const accountId = (JSON.parse(created) as { id: string }).id;
    // A directory where the index file should be: SQLite cannot open it.
    mkdirSync(path.join(sandbox.dataDir, 'local-index.sqlite'));
    const input = path.join(sandbox.dataDir, 'list.csv');
    writeFileSync(input, 'address,country\n"Damrak 1, Amsterdam",NL\n');

    const child = spawn(process.execPath, [BIN, 'validate', input, '--account', accountId, '--out', path.join(sandbox.dataDir, 'out.csv'), '--json'], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    // Before the fix the process never exited: this wait is the test (bounded by the test's timeout).
    const exited = once(child, 'exit') as Promise<[number | null]>;
    onTestFinished(() => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    });
    const [code] = await exited;
    expect(stderr).toMatch(/unable to open database file/);
    expect(code).toBe(1);
  }, 60_000);
});
