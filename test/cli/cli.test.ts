import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox, STORAGE_BACKENDS } from '../support/backends.js';

const run = promisify(execFile);
const BIN = path.resolve('bin/addressd.js');

/** Runs the installed CLI entry (bin/addressd.js) as an operator would, in a sandbox. */
async function cli(sandbox: Sandbox, args: string[]) {
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

async function json(sandbox: Sandbox, args: string[]) {
  const result = await cli(sandbox, [...args, '--json']);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  expect(result.stdout.trim().split('\n')).toHaveLength(1);
  return JSON.parse(result.stdout) as Record<string, unknown>;
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

    const key = await json(sandbox, ['key', 'create', '--account', id, '--env', 'test', '--name', 'ci']);
    expect(key).toMatchObject({ env: 'test', name: 'ci' });
    expect(key.key).toMatch(/^ak_test_[A-Za-z0-9_-]{43}$/);
    const liveKey = await json(sandbox, ['key', 'create', '--account', id]);
    expect(liveKey).toMatchObject({ env: 'live', name: null });

    const listed = (await json(sandbox, ['key', 'list', '--account', id])).keys as Record<string, unknown>[];
    expect(listed.map((k) => k.id)).toEqual([key.id, liveKey.id]);
    expect(JSON.stringify(listed)).not.toContain(key.key as string);

    expect(await json(sandbox, ['key', 'reveal', key.id as string])).toEqual({ id: key.id, key: key.key });
    expect(await json(sandbox, ['key', 'rename', key.id as string, 'staging'])).toMatchObject({ id: key.id, name: 'staging' });
    const revoked = await json(sandbox, ['key', 'revoke', key.id as string]);
    expect(revoked.revokedAt).toEqual(expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/));

    const token = await json(sandbox, ['token', 'create', '--account', id, '--origin', 'https://shop.example', '--origin', 'https://www.shop.example']);
    expect(token).toMatchObject({ env: 'live', origins: ['https://shop.example', 'https://www.shop.example'] });
    expect(token.token).toMatch(/^svc_pk_live_/);
    const tokens = (await json(sandbox, ['token', 'list', '--account', id])).tokens as Record<string, unknown>[];
    expect(tokens).toHaveLength(1);
    expect(tokens[0]).toMatchObject({ id: token.id, token: token.token, revokedAt: null });
    const gone = await json(sandbox, ['token', 'revoke', token.id as string]);
    expect(gone).toMatchObject({ id: token.id });
  }, 60_000);

  it('fails with one line on stderr and changes nothing on bad input', async () => {
    const account = await json(sandbox, ['account', 'create']);
    const id = account.id as string;
    const cases: string[][] = [
      ['account', 'create', '--plan', 'platinum'],
      ['account', 'set-plan', id, 'platinum'],
      ['account', 'show', 'acc_nope'],
      ['credits', 'add', id, 'ten'],
      ['credits', 'add', 'acc_nope', '10'],
      ['key', 'create', '--account', 'acc_nope'],
      ['key', 'create', '--account', id, '--env', 'staging'],
      ['key', 'reveal', 'key_nope'],
      ['key', 'revoke', 'key_nope'],
      ['token', 'create', '--account', id, '--origin', 'http://shop.example'],
      ['token', 'create', '--account', id, '--origin', 'https://shop.example/'],
      ['token', 'create', '--account', id, '--origin', 'https://*.shop.example'],
      ['token', 'revoke', 'tok_nope'],
    ];
    for (const args of cases) {
      const result = await cli(sandbox, [...args, '--json']);
      expect(result.code, args.join(' ')).not.toBe(0);
      expect(result.stdout, args.join(' ')).toBe('');
      expect(result.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
    }
    expect(await json(sandbox, ['account', 'show', id])).toMatchObject({ plan: 'free', extraCredits: 0 });
    expect(await json(sandbox, ['key', 'list', '--account', id])).toEqual({ keys: [] });
    expect(await json(sandbox, ['token', 'list', '--account', id])).toEqual({ tokens: [] });
  }, 90_000);

  it('prints readable text without --json', async () => {
    const result = await cli(sandbox, ['account', 'create', '--name', 'Human']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^account acc_\S+ \(Human\)\n\s+plan free/);
  });
});
