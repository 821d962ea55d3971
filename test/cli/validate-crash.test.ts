import { execFile, spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/program.js';
import { openDatabase } from '../../src/store/db/database.js';
import { startPdokEmulator, type Emulator } from '../emulators/index.js';
import { createSandbox, type Sandbox, STORAGE_BACKENDS } from '../support/backends.js';
import { waitFor } from '../support/wait-for.js';

const BIN = path.resolve('bin/addressd.js');

async function cli(env: Record<string, string>, args: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), env });
  return { code, stdout, stderr };
}

/** Billing of `addressd validate` when it dies or nobody answers, on both stores, with lookup threads. */
describe.each(STORAGE_BACKENDS)('addressd validate on %s, killed or unanswered', (backend) => {
  let sandbox: Sandbox;
  let pdok: Emulator;
  let env: Record<string, string>;
  const rows = Array.from({ length: 24 }, (_, i) => `Teststraat ${i + 1} Amsterdam`);

  beforeAll(async () => {
    sandbox = await createSandbox(backend);
    pdok = await startPdokEmulator();
    env = { ...sandbox.env, PROVIDERS: 'pdok', PDOK_URL: pdok.url, LOG_LEVEL: 'silent', PROVIDER_TIMEOUT_MS: '10000', BREAKER_FAILURES: '1000' };
  });
  afterAll(async () => {
    await pdok?.close();
    await sandbox?.cleanup();
  });

  const ledgerOf = async (accountId: string) => {
    const database = await openDatabase({ dataDir: sandbox.dataDir, ...(sandbox.databaseUrl ? { databaseUrl: sandbox.databaseUrl } : {}) });
    try {
      const events = await database.db.selectFrom('usage_events').select(['query', 'credits', 'cached']).where('account_id', '=', accountId).execute();
      const month = await database.db.selectFrom('credit_months').select('used_grant').where('account_id', '=', accountId).executeTakeFirst();
      const held = await database.db.selectFrom('credit_reservations').select('id').where('account_id', '=', accountId).execute();
      return { events, used: Number(month?.used_grant ?? 0), held: held.length };
    } finally {
      await database.close();
    }
  };

  it('killed with SIGKILL in the middle of a chunk, then resumed: every row is billed exactly once', async () => {
    const accountId = JSON.parse((await cli(env, ['account', 'create', '--plan', 'starter', '--json'])).stdout).id as string;
    const input = path.join(sandbox.dataDir, 'kill.csv');
    writeFileSync(input, `address\n${rows.join('\n')}\n`);
    const out = path.join(sandbox.dataDir, 'kill.validated.csv');
    const journal = `${out}.journal`;
    const argv = [BIN, 'validate', input, '--account', accountId, '--country', 'NL', '--chunk', '4', '--concurrency', '2', '--workers', '1'];
    const childEnv = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env };
    // Each answer takes a second: a chunk of four is two rounds of two.
    pdok.setFault({ mode: 'slow', delayMs: 1000 });
    const before = pdok.requests.length;
    const child = spawn(process.execPath, argv, { env: childEnv, stdio: 'ignore' });
    let ended: string | undefined;
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.on('exit', (code, signal) => {
        ended = `exit ${code} ${signal}`;
        resolve(signal);
      }),
    );
    // The first chunk settled and the second one's first look-up sent: it is held a second at the
    // emulator, so the kill lands while chunk two is reserved, half looked up and unsettled. The
    // deadline is only for a run that never gets there (a loaded machine starts the CLI slowly).
    await waitFor(
      () => {
        if (ended) throw new Error(`the run ended (${ended}) before it could be killed`);
        return existsSync(journal) && readFileSync(journal, 'utf8').includes('"t":"settled"') && pdok.requests.length > before + 4;
      },
      'the second chunk to be in flight',
      240_000,
    );
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    const state = readFileSync(journal, 'utf8');
    expect(state.match(/"t":"reserved"/g)?.length).toBeGreaterThan(state.match(/"t":"settled"/g)?.length ?? 0);
    const killed = await ledgerOf(accountId);
    expect(killed.held).toBeGreaterThan(0);

    pdok.setFault({ mode: 'none' });
    const res = await promisify(execFile)(process.execPath, [...argv, '--resume', '--json'], { env: childEnv });
    const summary = JSON.parse(res.stdout) as { creditsThisRun: number };
    expect(summary).toMatchObject({ rows: 24, done: 24, outcome: 'complete' });
    const written = (parse(readFileSync(out, 'utf8')) as string[][]).slice(1);
    expect(written.map((r) => r[0])).toEqual(rows);
    const after = await ledgerOf(accountId);
    expect(after.events.map((e) => e.query).sort()).toEqual([...rows].sort());
    expect(after.used).toBe(24);
    // What was settled before the kill is not paid again; the reservation of the killed chunk was given back.
    expect(killed.events.length).toBeGreaterThanOrEqual(4);
    expect(killed.events.length + summary.creditsThisRun).toBe(24);
    expect(after.held).toBe(0);
    expect(existsSync(journal)).toBe(false);
  }, 400_000);

  it('marks rows no provider answered as not verified (0 credits): the run finishes (exit 0), and --retry-unverified looks them up again, billed as usual', async () => {
    const accountId = JSON.parse((await cli(env, ['account', 'create', '--plan', 'starter', '--json'])).stdout).id as string;
    const input = path.join(sandbox.dataDir, 'down.csv');
    writeFileSync(input, `address\n${rows.slice(0, 6).join('\n')}\n`);
    const out = path.join(sandbox.dataDir, 'down.validated.csv');
    pdok.setFault({ mode: 'status', status: 503 });
    const first = await cli(env, ['validate', input, '--account', accountId, '--country', 'NL', '--workers', '1']);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain('not verified 6');
    expect(first.stdout).toContain('finished; 6 rows not verified');
    expect(first.stdout).toContain('--retry-unverified');
    expect(first.stdout).not.toContain('interrupted');
    const [header, ...down] = parse(readFileSync(out, 'utf8')) as string[][];
    const verified = header!.indexOf('verified');
    expect(down.map((r) => r[verified])).toEqual(['no', 'no', 'no', 'no', 'no', 'no']);
    expect((await ledgerOf(accountId)).used).toBe(0);
    expect(existsSync(`${out}.journal`)).toBe(true);

    pdok.setFault({ mode: 'none' });
    // A finished run has nothing to resume; its unverified rows are retried.
    expect((await cli(env, ['validate', input, '--account', accountId, '--country', 'NL', '--resume'])).stderr).toMatch(/the run of .* finished; --retry-unverified/);
    const again = await cli(env, ['validate', input, '--account', accountId, '--country', 'NL', '--retry-unverified', '--json']);
    expect(JSON.parse(again.stdout)).toMatchObject({ done: 6, unverified: 0, creditsThisRun: 6, outcome: 'complete' });
    const [, ...up] = parse(readFileSync(out, 'utf8')) as string[][];
    expect(up.map((r) => r[verified])).toEqual(['yes', 'yes', 'yes', 'yes', 'yes', 'yes']);
    const billed = await ledgerOf(accountId);
    // Each row paid once: the unanswered look-ups cost nothing.
    expect(billed.used).toBe(6);
    expect(billed.events.filter((e) => Number(e.credits) > 0).map((e) => e.query).sort()).toEqual(rows.slice(0, 6).sort());
    expect(existsSync(`${out}.journal`)).toBe(false);
  }, 120_000);
});
