import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SecretKeyStore } from '../../src/accounts/secret-keys.js';
import { runCli } from '../../src/cli/program.js';
import { systemClock } from '../../src/lib/clock.js';
import { Sealer, parseMasterKey } from '../../src/lib/seal.js';
import { openDatabase } from '../../src/store/db/database.js';
import { createSandbox, type Sandbox, STORAGE_BACKENDS } from '../support/backends.js';

const run = promisify(execFile);
const BIN = path.resolve('bin/addressd.js');

interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the installed CLI entry (bin/addressd.js) as an operator would, in a sandbox. */
async function cli(sandbox: Sandbox, args: string[]): Promise<CliResult> {
  try {
    const { stdout, stderr } = await run(process.execPath, [BIN, ...args], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...sandbox.env },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/**
 * The same program in this process (what the bin runs, minus the process start): used where the
 * cases are many, so the suite stays quick on two cores. The bin itself is driven above.
 */
async function cliInProcess(sandbox: Sandbox, args: string[]): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), env: sandbox.env });
  return { code, stdout, stderr };
}

async function json(sandbox: Sandbox, args: string[]) {
  const result = await cli(sandbox, [...args, '--json']);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  expect(result.stdout.trim().split('\n')).toHaveLength(1);
  return JSON.parse(result.stdout) as Record<string, unknown>;
}

/** Row counts of every credential table, read straight from the sandbox's database. */
async function rowCounts(sandbox: Sandbox): Promise<Record<string, number>> {
  const database = await openDatabase({ dataDir: sandbox.dataDir, ...(sandbox.databaseUrl ? { databaseUrl: sandbox.databaseUrl } : {}) });
  try {
    const counts: Record<string, number> = {};
    for (const table of ['accounts', 'api_keys', 'publishable_tokens', 'token_origins'] as const) {
      const row = await database.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      counts[table] = Number(row.n);
    }
    return counts;
  } finally {
    await database.close();
  }
}

/** Exit code, no stdout, exactly one line on stderr. */
function expectOneLineFailure(result: CliResult, label: string) {
  expect(result.code, label).not.toBe(0);
  expect(result.stdout, label).toBe('');
  expect(result.stderr, label).toMatch(/^[^\n]+\n$/);
}

describe.each(STORAGE_BACKENDS)('operator CLI on %s', (backend) => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await createSandbox(backend);
  });
  afterAll(async () => sandbox.cleanup());

  it('drives accounts, credits, keys and tokens end to end', async () => {
    const account = await json(sandbox, ['account', 'create', '--plan', 'starter', '--name', 'Acme', '--extra-credits', '25']);
    expect(account).toMatchObject({ plan: 'starter', name: 'Acme', extraCredits: 25 });
    const id = account.id as string;
    expect(id).toMatch(/^acc_/);

    expect(await json(sandbox, ['account', 'show', id])).toMatchObject({ id, plan: 'starter', quota: 10000, creditsUsedThisMonth: 0 });
    expect(await json(sandbox, ['account', 'set-plan', id, 'growth'])).toMatchObject({ id, plan: 'growth' });
    expect(await json(sandbox, ['credits', 'add', id, '100'])).toMatchObject({ id, extraCredits: 125 });
    // --json also works before the command, and `show` reflects both changes.
    const shownResult = await cli(sandbox, ['--json', 'account', 'show', id]);
    expect(shownResult.code).toBe(0);
    expect(JSON.parse(shownResult.stdout)).toMatchObject({ id, plan: 'growth', quota: 100000, extraCredits: 125 });

    const key = await json(sandbox, ['key', 'create', '--account', id, '--env', 'test', '--name', 'ci']);
    expect(Object.keys(key).sort()).toEqual(['env', 'id', 'key', 'name']);
    expect(key).toMatchObject({ env: 'test', name: 'ci' });
    expect(key.key).toMatch(/^ak_test_[A-Za-z0-9_-]{43}$/);
    const liveKey = await json(sandbox, ['key', 'create', '--account', id]);
    expect(liveKey).toMatchObject({ env: 'live', name: null });
    expect(liveKey.key).toMatch(/^ak_live_[A-Za-z0-9_-]{43}$/);

    // The printed key is the one the service accepts: verify it against the same storage and master key.
    const database = await openDatabase({ dataDir: sandbox.dataDir, ...(sandbox.databaseUrl ? { databaseUrl: sandbox.databaseUrl } : {}) });
    const store = new SecretKeyStore(database.db, new Sealer(parseMasterKey(sandbox.env.MASTER_KEY ?? '')), systemClock);
    try {
      expect(await store.verify(key.key as string)).toEqual({ ok: true, key: { keyId: key.id, accountId: id, env: 'test' } });
    } finally {
      await database.close();
    }

    const listed = (await json(sandbox, ['key', 'list', '--account', id])).keys as Record<string, unknown>[];
    expect(listed.map((k) => [k.id, k.env, k.name, k.revokedAt])).toEqual([
      [key.id, 'test', 'ci', null],
      [liveKey.id, 'live', null, null],
    ]);
    expect(JSON.stringify(listed)).not.toContain(key.key as string);

    expect(await json(sandbox, ['key', 'reveal', key.id as string])).toEqual({ id: key.id, key: key.key });
    expect(await json(sandbox, ['key', 'rename', key.id as string, 'staging'])).toMatchObject({ id: key.id, name: 'staging' });
    const revoked = await json(sandbox, ['key', 'revoke', key.id as string]);
    expect(revoked.revokedAt).toEqual(expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/));
    const afterRevoke = (await json(sandbox, ['key', 'list', '--account', id])).keys as Record<string, unknown>[];
    expect(afterRevoke.map((k) => [k.id, k.name, k.revokedAt])).toEqual([
      [key.id, 'staging', revoked.revokedAt],
      [liveKey.id, null, null],
    ]);

    const token = await json(sandbox, ['token', 'create', '--account', id, '--origin', 'https://shop.example', '--origin', 'https://www.shop.example:8443']);
    expect(Object.keys(token).sort()).toEqual(['env', 'id', 'origins', 'token']);
    expect(token).toMatchObject({ env: 'live', origins: ['https://shop.example', 'https://www.shop.example:8443'] });
    expect(token.token).toMatch(/^svc_pk_live_/);
    const testToken = await json(sandbox, ['token', 'create', '--account', id, '--env', 'test', '--origin', 'https://dev.shop.example']);
    expect(testToken.token).toMatch(/^svc_pk_test_/);
    const tokens = (await json(sandbox, ['token', 'list', '--account', id])).tokens as Record<string, unknown>[];
    expect(tokens.map((t) => [t.id, t.token, t.revokedAt])).toEqual([
      [token.id, token.token, null],
      [testToken.id, testToken.token, null],
    ]);
    const gone = await json(sandbox, ['token', 'revoke', token.id as string]);
    expect(gone).toMatchObject({ id: token.id, revokedAt: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/) });
    const afterTokenRevoke = (await json(sandbox, ['token', 'list', '--account', id])).tokens as Record<string, unknown>[];
    expect(afterTokenRevoke.map((t) => [t.id, t.revokedAt])).toEqual([
      [token.id, gone.revokedAt],
      [testToken.id, null],
    ]);
  }, 240_000);

  it('fails with one line on stderr and changes nothing on bad input', async () => {
    const account = await json(sandbox, ['account', 'create']);
    const id = account.id as string;
    const before = await rowCounts(sandbox);

    // The three kinds the issue names, through the installed bin: exit code and stderr as an operator sees them.
    for (const args of [
      ['account', 'create', '--plan', 'platinum'],
      ['token', 'create', '--account', id, '--origin', 'http://shop.example'],
      ['key', 'reveal', 'key_nope'],
    ]) {
      expectOneLineFailure(await cli(sandbox, [...args, '--json']), args.join(' '));
    }

    const cases: string[][] = [
      ['account', 'create', '--plan', 'platinum'],
      ['account', 'create', '--valid-threshold', '40'],
      ['account', 'create', '--extra-credits', '-5'],
      ['account', 'set-plan', id, 'platinum'],
      ['account', 'set-plan', 'acc_nope', 'growth'],
      ['account', 'show', 'acc_nope'],
      ['account', 'show'],
      ['credits', 'add', id, 'ten'],
      ['credits', 'add', id, '0'],
      ['credits', 'add', 'acc_nope', '10'],
      ['key', 'create', '--account', 'acc_nope'],
      ['key', 'create', '--account', id, '--env', 'staging'],
      ['key', 'create'],
      ['key', 'list', '--account', 'acc_nope'],
      ['key', 'reveal', 'key_nope'],
      ['key', 'rename', 'key_nope', 'x'],
      ['key', 'revoke', 'key_nope'],
      ['token', 'create', '--account', id, '--origin', 'http://shop.example'],
      ['token', 'create', '--account', id, '--origin', 'https://shop.example/'],
      ['token', 'create', '--account', id, '--origin', 'https://shop.example/checkout'],
      ['token', 'create', '--account', id, '--origin', 'https://*.shop.example'],
      ['token', 'create', '--account', id, '--origin', 'https://ok.example', '--origin', '*'],
      ['token', 'create', '--account', id],
      ['token', 'create', '--account', 'acc_nope', '--origin', 'https://shop.example'],
      ['token', 'create', '--account', id, '--env', 'prod', '--origin', 'https://shop.example'],
      ['token', 'list', '--account', 'acc_nope'],
      ['token', 'revoke', 'tok_nope'],
      ['account', 'delete', id],
    ];
    for (const args of cases) {
      expectOneLineFailure(await cliInProcess(sandbox, [...args, '--json']), args.join(' '));
    }

    expect(await rowCounts(sandbox)).toEqual(before);
    expect(await json(sandbox, ['account', 'show', id])).toMatchObject({ plan: 'free', extraCredits: 0 });
    expect(await json(sandbox, ['key', 'list', '--account', id])).toEqual({ keys: [] });
    expect(await json(sandbox, ['token', 'list', '--account', id])).toEqual({ tokens: [] });
  }, 240_000);

  it('prints readable text without --json', async () => {
    const result = await cli(sandbox, ['account', 'create', '--name', 'Human']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^account acc_\S+ \(Human\)\n\s+plan free/);
  }, 60_000);
});

describe('operator CLI argument checks', () => {
  it('rejects bad arguments before it opens or creates any storage', async () => {
    const sandbox = await createSandbox('sqlite');
    try {
      for (const args of [
        ['account', 'create', '--plan', 'platinum'],
        ['account', 'set-plan', 'acc_x', 'platinum'],
        ['credits', 'add', 'acc_x', 'ten'],
        ['token', 'create', '--account', 'acc_x', '--origin', 'https://shop.example/'],
      ]) {
        expectOneLineFailure(await cliInProcess(sandbox, [...args, '--json']), args.join(' '));
      }
      expect(readdirSync(sandbox.dataDir)).toEqual([]);
    } finally {
      await sandbox.cleanup();
    }
  });
});
