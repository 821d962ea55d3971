import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CreditLedger } from '../../src/billing/credit-ledger.js';
import { ManualClock } from '../../src/lib/clock.js';
import { openDatabase } from '../../src/store/db/database.js';
import { createSandbox, type Sandbox, STORAGE_BACKENDS } from '../support/backends.js';
import { startTestServer, type TestServer } from '../support/server.js';

type CommitBatch = (items: unknown[], batchId: string | null) => Promise<void>;

/** Holds the server's background usage writer until `open()`: the writer's injected gate. */
function holdWriter(ledger: CreditLedger) {
  const target = ledger as unknown as { commitBatch: CommitBatch };
  const original = target.commitBatch.bind(ledger);
  let open = () => undefined as void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  let reached = () => undefined as void;
  const writing = new Promise<void>((resolve) => (reached = resolve));
  vi.spyOn(target, 'commitBatch').mockImplementation(async (items, batchId) => {
    reached();
    await gate;
    return original(items, batchId);
  });
  return { open, writing };
}

const ADDRESS = { query: 'Damrak 1, 1012 LG Amsterdam', country: 'NL' };

describe.each(STORAGE_BACKENDS)('the answer does not wait for its usage row (%s)', (backend) => {
  let sandbox: Sandbox;
  let server: TestServer;
  beforeEach(async () => {
    sandbox = await createSandbox(backend);
    server = await startTestServer({ backend, sandbox, clock: new ManualClock() });
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await server.close();
    await sandbox.cleanup();
  });

  const events = (accountId: string) =>
    server.services.database.db.selectFrom('usage_events').select(['query', 'credits', 'cached']).where('account_id', '=', accountId).orderBy('id').execute();
  const call = (key: string) =>
    fetch(`${server.url}/v1/validate`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(ADDRESS) });

  it('a billed call and a cache hit are answered while their writes are held; the events land once the writer runs, credits exact', async () => {
    const { accountId, key } = await server.createAccount({ plan: 'free' });
    const writer = holdWriter(server.services.ledger);
    const paid = await call(key);
    expect(paid.status).toBe(200);
    expect(((await paid.json()) as { cached: boolean }).cached).toBe(false);
    await writer.writing;
    const hit = await call(key);
    expect(hit.status).toBe(200);
    expect(((await hit.json()) as { cached: boolean }).cached).toBe(true);
    // Both answered; nothing written yet: the reservation holds the call's worst case.
    expect(await events(accountId)).toEqual([]);
    expect(await server.services.ledger.heldReservations()).toBe(1);
    writer.open();
    await server.services.ledger.idle();
    const rows = await events(accountId);
    expect(rows.map((r) => [Number(r.credits), Number(r.cached)])).toEqual([
      [3, 0],
      [0, 1],
    ]);
    expect(await server.services.ledger.heldReservations()).toBe(0);
    expect((await server.services.ledger.balance(accountId)).usedThisMonth).toBe(3);
  });

  it('closing the server writes what its writer holds before the database closes', async () => {
    const { accountId, key } = await server.createAccount({ plan: 'free' });
    const writer = holdWriter(server.services.ledger);
    expect((await call(key)).status).toBe(200);
    await writer.writing;
    const closing = server.close();
    writer.open();
    await closing;
    const database = await openDatabase({
      dataDir: sandbox.dataDir,
      ...(sandbox.databaseUrl ? { databaseUrl: sandbox.databaseUrl } : {}),
      ...(sandbox.schema ? { schema: sandbox.schema } : {}),
    });
    try {
      const rows = await database.db.selectFrom('usage_events').select('credits').where('account_id', '=', accountId).execute();
      expect(rows.map((r) => Number(r.credits))).toEqual([3]);
      const held = await database.db.selectFrom('credit_reservations').select('id').execute();
      expect(held).toEqual([]);
    } finally {
      await database.close();
    }
    // afterEach closes again: a second close must be harmless.
    server = { ...server, close: async () => undefined };
  });
});
