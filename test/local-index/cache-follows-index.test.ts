import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { runCli } from '../../src/cli/program.js';
import type { AutocompleteResponse } from '../../src/contract/autocomplete.js';
import type { ValidateResponse } from '../../src/contract/validate.js';
import { openLocalIndex } from '../../src/local-index/index.js';
import { createSandbox, type Sandbox } from '../support/backends.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { waitFor } from '../support/wait-for.js';
import { importArgs, writeDamrakMonth } from './support/damrak-files.js';

const scratch = mkdtempSync(join(tmpdir(), 'cache-follows-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const { before, after } = writeDamrakMonth(scratch);

/** `addressd import FILE --format openaddresses --country NL --replace`, as the operator runs it while the servers serve. */
async function cliImport(sandbox: Sandbox, file: string): Promise<void> {
  let stderr = '';
  const code = await runCli(importArgs(file), {
    stdout: () => undefined,
    stderr: (t) => (stderr += t),
    env: sandbox.env,
  });
  expect(stderr).toBe('');
  expect(code).toBe(0);
}

async function validate(server: TestServer, key: string, query: string): Promise<ValidateResponse> {
  const res = await server.post('/v1/validate', { query, country: 'NL' }, { authorization: `Bearer ${key}` });
  expect(res.status).toBe(200);
  return (await res.json()) as ValidateResponse;
}

async function autocomplete(server: TestServer, key: string, query: string): Promise<{ numbers: string[]; cached: boolean }> {
  const res = await server.post('/v1/autocomplete', { query, country: 'NL', limit: 10 }, { authorization: `Bearer ${key}` });
  expect(res.status).toBe(200);
  const body = (await res.json()) as AutocompleteResponse;
  return { numbers: body.suggestions.map((s) => s.components.houseNumber ?? '').filter(Boolean).sort(), cached: body.cached };
}

/** Both answers cached from the old data: the removed house valid, the new one invalid. */
async function cacheOldAnswers(servers: TestServer[], key: string): Promise<void> {
  for (const server of servers) {
    expect(await validate(server, key, 'Damrak 1, 1012 LG Amsterdam')).toMatchObject({ verdict: 'valid' });
    expect(await validate(server, key, 'Damrak 120, 1012 LG Amsterdam')).toMatchObject({ verdict: 'invalid' });
    expect((await autocomplete(server, key, 'Damrak 1')).numbers).toContain('1');
  }
  expect(await autocomplete(servers[0]!, key, 'Damrak 1')).toMatchObject({ cached: true });
  expect(await validate(servers[0]!, key, 'Damrak 1, 1012 LG Amsterdam')).toMatchObject({ verdict: 'valid', cached: true });
  expect(await validate(servers[0]!, key, 'Damrak 120, 1012 LG Amsterdam')).toMatchObject({ verdict: 'invalid', cached: true });
}

/**
 * After the import: every server answers from the new data, validate and autocomplete, without a
 * restart. The first asks the index afresh; the others may be served its new answers from the
 * shared cache, never the old ones.
 */
async function expectNewAnswers(servers: TestServer[], key: string): Promise<void> {
  for (const [i, server] of servers.entries()) {
    const fresh = i === 0 ? { cached: false } : {};
    expect(await validate(server, key, 'Damrak 120, 1012 LG Amsterdam')).toMatchObject({ verdict: 'valid', ...fresh, address: { houseNumber: '120' } });
    const gone = await validate(server, key, 'Damrak 1, 1012 LG Amsterdam');
    expect(gone.verdict).not.toBe('valid');
    expect(gone.address?.houseNumber).not.toBe('1');
    const { numbers, cached } = await autocomplete(server, key, 'Damrak 1');
    if (i === 0) expect(cached).toBe(false);
    expect(numbers).toContain('120');
    expect(numbers).not.toContain('1');
  }
}

describe('cached answers follow the index (SQLite, one instance)', () => {
  let server: TestServer;
  let key: string;
  beforeAll(async () => {
    server = await startTestServer({ backend: 'sqlite', providers: 'local' });
    ({ key } = await server.createAccount({ plan: 'starter' }));
    await cliImport(server.sandbox, before);
  });
  afterAll(async () => server?.close());

  it('an import made through the CLI makes every cached answer of the old data unreachable at once', async () => {
    await cacheOldAnswers([server], key);
    await cliImport(server.sandbox, after);
    await expectNewAnswers([server], key);
  });
});

describe('cached answers follow the index (PostgreSQL + Redis, two instances)', () => {
  let first: TestServer;
  let second: TestServer;
  let key: string;
  beforeAll(async () => {
    first = await startTestServer({ backend: 'postgres', redis: true, providers: 'local' });
    second = await startTestServer({ sandbox: first.sandbox, redis: true, providers: 'local' });
    ({ key } = await first.createAccount({ plan: 'starter' }));
    await cliImport(first.sandbox, before);
    const generation = (s: TestServer) => s.services.localIndex!.dataGeneration('NL');
    await waitFor(() => generation(first) > 0 && generation(second) === generation(first), 'both instances to see the first import');
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  it('an import through the CLI moves both instances on, sharing one Redis cache', async () => {
    await cacheOldAnswers([first, second], key);
    const was = first.services.localIndex!.dataGeneration('NL');
    await cliImport(first.sandbox, after);
    // The commit's NOTIFY reaches each instance's listening connection (another process's commit:
    // no event reaches the test).
    await waitFor(
      () => [first, second].every((s) => s.services.localIndex!.dataGeneration('NL') > was),
      'both instances to see the import',
    );
    await expectNewAnswers([first, second], key);
  });
});

describe('PostgreSQL: a serving index follows another process commit by LISTEN/NOTIFY', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await createSandbox('postgres');
  });
  afterAll(async () => sandbox?.cleanup());
  afterEach(() => vi.useRealTimers());

  it('moves its generation on with no poll at all', async () => {
    // The periodic re-check never runs: only the notification can move the generation.
    vi.useFakeTimers({ toFake: ['setInterval'] });
    const storage = { dataDir: sandbox.dataDir, databaseUrl: sandbox.databaseUrl!, schema: sandbox.schema! };
    const server = await openLocalIndex({ ...storage, follow: true });
    const cli = await openLocalIndex(storage);
    try {
      expect(server.dataGeneration('NL')).toBe(0);
      await cli.importFile(before, { format: 'openaddresses', country: 'NL' });
      await waitFor(() => server.dataGeneration('NL') > 0, 'the notification');
      expect(server.dataGeneration('NL')).toBe(cli.dataGeneration('NL'));
      expect(server.covered()).toEqual(['NL']);
    } finally {
      await cli.close();
      await server.close();
    }
  });
});
