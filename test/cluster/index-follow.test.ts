import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountStore } from '../../src/accounts/accounts.js';
import { SecretKeyStore } from '../../src/accounts/secret-keys.js';
import { runCli } from '../../src/cli/program.js';
import type { AutocompleteResponse } from '../../src/contract/autocomplete.js';
import type { ValidateResponse } from '../../src/contract/validate.js';
import { systemClock } from '../../src/lib/clock.js';
import { parseMasterKey, Sealer } from '../../src/lib/seal.js';
import { openDatabase } from '../../src/store/db/database.js';
import { importArgs, writeDamrakMonth } from '../local-index/support/damrak-files.js';
import { createSandbox, REDIS_URL, type Sandbox } from '../support/backends.js';
import { startCluster, stopCluster } from '../support/cluster.js';
import { waitFor } from '../support/wait-for.js';

const scratch = mkdtempSync(join(tmpdir(), 'cluster-follow-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const files = writeDamrakMonth(scratch);

/** Issue 28 item 1 with WORKERS=2: an import through the CLI while both workers serve, no restart. */
describe.each([
  ['SQLite', 'sqlite'],
  ['PostgreSQL + Redis', 'postgres'],
] as const)('cached answers follow the index with WORKERS=2 on %s', (_name, backend) => {
  let sandbox: Sandbox;
  let url: string;
  let child: ChildProcess;
  let key: string;

  const cliImport = async (file: string) => {
    expect(await runCli(importArgs(file), { stdout: () => undefined, stderr: () => undefined, env: sandbox.env })).toBe(0);
  };
  /** A fresh connection per request: the cluster hands connections to its workers in turn. */
  const post = async <T>(path: string, body: unknown): Promise<T> => {
    const res = await fetch(`${url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}`, connection: 'close' },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(200);
    return (await res.json()) as T;
  };
  const verdictOf = async (n: number) => (await post<ValidateResponse>('/v1/validate', { query: `Damrak ${n}, 1012 LG Amsterdam`, country: 'NL' })).verdict;
  const numbers = async () =>
    (await post<AutocompleteResponse>('/v1/autocomplete', { query: 'Damrak 1', country: 'NL', limit: 10 })).suggestions.map((s) => s.components.houseNumber);
  /** What both workers answer (two requests in a row reach both). */
  const bothWorkers = async () => {
    const out = [];
    for (let i = 0; i < 2; i++) out.push({ one: await verdictOf(1), new: await verdictOf(120), numbers: await numbers() });
    return out;
  };

  beforeAll(async () => {
    sandbox = await createSandbox(backend);
    await cliImport(files.before);
    ({ url, child } = await startCluster({
      ...sandbox.env,
      PROVIDERS: 'local',
      ...(backend === 'postgres' ? { REDIS_URL, REDIS_PREFIX: `test:${sandbox.id}:` } : {}),
    }));
    const database = await openDatabase({ dataDir: sandbox.dataDir, ...(sandbox.databaseUrl ? { databaseUrl: sandbox.databaseUrl } : {}) });
    try {
      const account = await new AccountStore(database.db, systemClock).create({ plan: 'starter' });
      key = (await new SecretKeyStore(database.db, new Sealer(parseMasterKey(sandbox.env.MASTER_KEY!)), systemClock).create(account.id, 'live')).key;
    } finally {
      await database.close();
    }
    // Three processes load the whole service at once: slow on a busy 2-core machine.
  }, 180_000);
  afterAll(async () => {
    if (child) expect(await stopCluster(child)).toBe(0);
    await sandbox?.cleanup();
  });

  it('the removed house stops being valid and the new one becomes valid on both workers, validate and autocomplete', async () => {
    // Each worker answers and caches the old data, then serves it from its cache.
    for (const seen of [...(await bothWorkers()), ...(await bothWorkers())]) {
      expect(seen).toEqual({ one: 'valid', new: 'invalid', numbers: expect.arrayContaining(['1']) });
      expect(seen.numbers).not.toContain('120');
    }
    await cliImport(files.after);
    const followed = (seen: Awaited<ReturnType<typeof bothWorkers>>) =>
      seen.every((s) => s.one !== 'valid' && s.new === 'valid' && s.numbers.includes('120') && !s.numbers.includes('1'));
    if (backend === 'sqlite') {
      // Each worker reads the index's version at its next request: at once.
      expect(followed(await bothWorkers())).toBe(true);
    } else {
      // The commit's NOTIFY reaches each worker's listening connection a moment later (another process: no event reaches the test).
      await waitFor(async () => followed(await bothWorkers()), 'both workers to follow the import');
    }
    expect(followed(await bothWorkers())).toBe(true);
  });
});
