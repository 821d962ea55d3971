import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountStore } from '../../src/accounts/accounts.js';
import { SecretKeyStore } from '../../src/accounts/secret-keys.js';
import { CreditLedger } from '../../src/billing/credit-ledger.js';
import { systemClock } from '../../src/lib/clock.js';
import { parseMasterKey, Sealer } from '../../src/lib/seal.js';
import { type Database, openDatabase } from '../../src/store/db/database.js';
import { type Emulator, startNominatimEmulator, startPdokEmulator, startPhotonEmulator } from '../emulators/index.js';
import { createSandbox, REDIS_URL, type Sandbox } from '../support/backends.js';
import { startCluster, stopCluster } from '../support/cluster.js';

/** A fresh connection per request: the cluster hands connections to its workers in turn. */
function post(url: string, path: string, key: string, body: unknown): Promise<Response> {
  return fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}`, connection: 'close' },
    body: JSON.stringify(body),
  });
}

describe.each([
  ['SQLite', 'sqlite'],
  ['PostgreSQL + Redis', 'postgres'],
] as const)('WORKERS=2 on %s', (_name, backend) => {
  let sandbox: Sandbox;
  let database: Database;
  let emulators: Emulator[];
  let url: string;
  let child: ChildProcess;
  let accounts: AccountStore;
  let keys: SecretKeyStore;
  let ledger: CreditLedger;

  beforeAll(async () => {
    sandbox = await createSandbox(backend);
    emulators = await Promise.all([startPdokEmulator(), startPhotonEmulator(), startNominatimEmulator()]);
    const env: Record<string, string> = {
      ...sandbox.env,
      PROVIDERS: 'pdok,photon,nominatim',
      PDOK_URL: emulators[0]!.url,
      PHOTON_URL: emulators[1]!.url,
      NOMINATIM_URL: emulators[2]!.url,
      PROVIDER_TIMEOUT_MS: '5000',
      ...(backend === 'postgres' ? { REDIS_URL, REDIS_PREFIX: `test:${sandbox.id}:` } : {}),
    };
    ({ url, child } = await startCluster(env));
    database = await openDatabase({ dataDir: sandbox.dataDir, ...(sandbox.databaseUrl ? { databaseUrl: sandbox.databaseUrl } : {}) });
    accounts = new AccountStore(database.db, systemClock);
    keys = new SecretKeyStore(database.db, new Sealer(parseMasterKey(sandbox.env.MASTER_KEY!)), systemClock);
    ledger = new CreditLedger(database, systemClock);
    // Three processes load the whole service at once: slow on a busy 2-core machine.
  }, 180_000);
  afterAll(async () => {
    if (child) expect(await stopCluster(child)).toBe(0);
    await database?.close();
    await Promise.all((emulators ?? []).map((e) => e.close()));
    await sandbox?.cleanup();
  });

  it('the test-key limit of 60 a minute holds for both workers together', async () => {
    const account = await accounts.create({ plan: 'growth' });
    const key = (await keys.create(account.id, 'test')).key;
    const statuses: number[] = [];
    for (let i = 0; i < 64; i += 1) {
      const res = await post(url, '/v1/autocomplete', key, { query: 'Damrak', country: 'NL' });
      await res.arrayBuffer();
      statuses.push(res.status);
    }
    expect(statuses.slice(0, 60).every((s) => s === 200)).toBe(true);
    expect(statuses.slice(60)).toEqual([429, 429, 429, 429]);
  });

  it('a batch counts each of its items against that limit, on whichever worker it lands (issue 28 §10)', async () => {
    const account = await accounts.create({ plan: 'growth' });
    const key = (await keys.create(account.id, 'test')).key;
    // Items that are their own 400 cost nothing and ask no provider; they count all the same.
    const items = (n: number) => ({ items: Array.from({ length: n }, () => ({ query: 'x'.repeat(1000) })) });
    const statuses: number[] = [];
    for (const n of [50, 11, 10, 1]) {
      const res = await post(url, '/v1/validate/batch', key, items(n));
      await res.arrayBuffer();
      statuses.push(res.status);
    }
    expect(statuses).toEqual([200, 429, 200, 429]);
  });

  it('200 concurrent uncached calls at 492 of 500 credits spend exactly the 8 left', async () => {
    const account = await accounts.create({ plan: 'free' });
    const key = (await keys.create(account.id, 'live')).key;
    const seed = await ledger.reserve(account.id, 492);
    await ledger.settle(seed!, 492, { accountId: account.id, credentialId: 'seed', env: 'live', endpoint: '/v1/validate', verdict: null, provider: null, latencyMs: 0, cached: false, query: null, source: null });

    const statuses = await Promise.all(
      Array.from({ length: 200 }, (_, i) => post(url, '/v1/validate', key, { query: `Damrak 1, 1012 LG Amsterdam ${i}`, country: 'NL' }).then(async (r) => (await r.arrayBuffer(), r.status))),
    );
    expect(statuses.filter((s) => s !== 200 && s !== 429)).toEqual([]);
    // A provider slow past its timeout gives its credit back after the others were refused: such
    // a credit must still be spendable (never stranded). The workers take turns, and the one that
    // gave it back reads the balance again, so a few more calls spend it.
    for (let i = 0; i < 6 && (await ledger.balance(account.id)).available > 0; i += 1) {
      const res = await post(url, '/v1/validate', key, { query: `Damrak 1, 1012 LG Amsterdam ${200 + i}`, country: 'NL' });
      await res.arrayBuffer();
      statuses.push(res.status);
    }
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThan(0);
    // Each worker answers before its usage event is written (a background writer): the books are
    // read once the cluster has stopped, which drains every worker's writer. So this test is last.
    expect(await stopCluster(child)).toBe(0);
    const balance = await ledger.balance(account.id);
    expect(balance).toMatchObject({ usedThisMonth: 500, available: 0 });
    const events = await database.db.selectFrom('usage_events').select(['credits']).where('account_id', '=', account.id).execute();
    expect(events.reduce((sum, e) => sum + Number(e.credits), 0)).toBe(500);
    expect(events).toHaveLength(1 + statuses.filter((s) => s === 200).length);
    expect(await database.db.selectFrom('credit_reservations').select('id').where('account_id', '=', account.id).execute()).toEqual([]);
  });
});
