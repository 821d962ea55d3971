import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CreditLedger } from '../../src/billing/credit-ledger.js';
import { Biller, type CallContext } from '../../src/engine/billing.js';
import { STORAGE_BACKENDS } from '../support/backends.js';
import { event, eventRows, heldReservations, type LedgerFixture, newAccount, openLedgerFixture } from './storage.js';

type CommitBatch = (items: unknown[], batchId: string | null) => Promise<void>;

/** The ledger's background commit, to hold or to break from a test (the writer's injected gate). */
function commitOf(ledger: CreditLedger) {
  const target = ledger as unknown as { commitBatch: CommitBatch };
  const original = target.commitBatch.bind(ledger);
  return { spy: vi.spyOn(target, 'commitBatch'), original };
}

const call = { credentialId: 'key_live', env: 'live', endpoint: '/v1/validate', source: 'shop' };

describe.each(STORAGE_BACKENDS)('usage written after the answer (%s)', (backend) => {
  let f: LedgerFixture;
  beforeEach(async () => {
    f = await openLedgerFixture(backend);
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await f.cleanup();
  });

  it('settleLater and recordFreeLater are accepted before they are written; the events land once the writer runs', async () => {
    const acc = await newAccount(f, 'free');
    const { spy, original } = commitOf(f.ledger);
    let open = () => undefined as void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    spy.mockImplementation(async (items, batchId) => {
      await gate;
      return original(items, batchId);
    });
    const reservation = await f.ledger.reserve(acc, 3, call);
    const settled = await f.ledger.settleLater(reservation!, 1, event(acc, { query: 'paid', source: 'shop' }));
    const free = await f.ledger.recordFreeLater(event(acc, { query: 'hit', cached: true }));
    // Accepted, not written: the caller has answered; the reservation still holds the worst case.
    expect(await eventRows(f.database, acc)).toEqual([]);
    expect(await heldReservations(f.database, acc)).toBe(1);
    expect(f.ledger.refunding(acc)).toBe(true);
    open();
    await Promise.all([settled.written, free.written]);
    const rows = await eventRows(f.database, acc);
    expect(rows.map((r) => [r.query, Number(r.credits), r.source])).toEqual([
      ['paid', 1, 'shop'],
      ['hit', 0, null],
    ]);
    expect(await heldReservations(f.database, acc)).toBe(0);
    expect((await f.ledger.balance(acc)).usedThisMonth).toBe(1);
    expect(f.ledger.refunding(acc)).toBe(false);
  });

  it('with a linger, a settle waits for company; a cache hit\'s event, which no reservation recovers, is written at once with it', async () => {
    const acc = await newAccount(f, 'free');
    const ledger = new CreditLedger(f.database, f.clock, { writer: { lingerMs: 60_000 } });
    const first = await ledger.reserve(acc, 1, call);
    const second = await ledger.reserve(acc, 1, call);
    const settles = [await ledger.settleLater(first!, 1, event(acc, { query: 'one' })), await ledger.settleLater(second!, 1, event(acc, { query: 'two' }))];
    // Held: a crash now is settled from the reservations, which carry their calls.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await eventRows(f.database, acc)).toEqual([]);
    expect(await heldReservations(f.database, acc)).toBe(2);
    const hit = await ledger.recordFreeLater(event(acc, { query: 'hit', cached: true }));
    await Promise.all([...settles.map((s) => s.written), hit.written]);
    expect((await eventRows(f.database, acc)).map((r) => [r.query, Number(r.credits)])).toEqual([
      ['one', 1],
      ['two', 1],
      ['hit', 0],
    ]);
    expect(await heldReservations(f.database, acc)).toBe(0);

    // A reader of the books does not wait out the linger either.
    const third = await ledger.reserve(acc, 1, call);
    await ledger.settleLater(third!, 1, event(acc, { query: 'three' }));
    await ledger.flushed();
    expect((await eventRows(f.database, acc)).map((r) => r.query)).toContain('three');
    await ledger.drain(1000);
  });

  it('a batch whose commit was lost after it landed is written again and writes nothing twice', async () => {
    const acc = await newAccount(f, 'starter');
    const { spy, original } = commitOf(f.ledger);
    let lost = 0;
    // The first run commits, then its connection dies before the answer: outcome unknown to the writer.
    spy.mockImplementation(async (items, batchId) => {
      await original(items, batchId);
      if (lost++ === 0) throw new Error('Connection terminated unexpectedly');
    });
    const full = await f.ledger.reserve(acc, 3, call);
    const partial = await f.ledger.reserve(acc, 3, call);
    const accepted = await Promise.all([
      f.ledger.settleLater(full!, 3, event(acc, { query: 'full' })),
      f.ledger.settleLater(partial!, 1, event(acc, { query: 'partial' })),
      f.ledger.recordFreeLater(event(acc, { query: 'hit', cached: true })),
    ]);
    await Promise.all(accepted.map((a) => a.written));
    expect(lost).toBe(2);
    const rows = await eventRows(f.database, acc);
    expect(rows.map((r) => [r.query, Number(r.credits)]).sort()).toEqual([
      ['full', 3],
      ['hit', 0],
      ['partial', 1],
    ]);
    const daily = await f.database.db.selectFrom('usage_daily').select(['n', 'credits']).where('account_id', '=', acc).execute();
    expect(daily.reduce((sum, d) => sum + Number(d.n), 0)).toBe(3);
    expect(daily.reduce((sum, d) => sum + Number(d.credits), 0)).toBe(4);
    expect((await f.ledger.balance(acc)).usedThisMonth).toBe(4);
    expect(await heldReservations(f.database, acc)).toBe(0);
  });

  it('a settle that fails for a transient reason is retried in the background until it commits', async () => {
    const acc = await newAccount(f, 'free');
    const { spy, original } = commitOf(f.ledger);
    let failures = 0;
    spy.mockImplementation(async (items, batchId) => {
      if (failures++ < 2) throw Object.assign(new Error('the database system is shutting down'), { code: '57P01' });
      return original(items, batchId);
    });
    const reservation = await f.ledger.reserve(acc, 2, call);
    const { written } = await f.ledger.settleLater(reservation!, 2, event(acc, { query: 'later' }));
    await written;
    expect(failures).toBe(3);
    expect((await eventRows(f.database, acc)).map((r) => [r.query, Number(r.credits)])).toEqual([['later', 2]]);
    expect((await f.ledger.balance(acc)).usedThisMonth).toBe(2);
  });

  it('a call settled by recovery meanwhile is billed once: its late settle writes nothing', async () => {
    const acc = await newAccount(f, 'free');
    const reservation = await f.ledger.reserve(acc, 3, call);
    // A stall longer than any request: a sweep took the reservation for a dead process's and settled it.
    f.clock.advance(11 * 60_000);
    expect(await f.ledger.releaseStale(10 * 60_000)).toBe(1);
    const { written } = await f.ledger.settleLater(reservation!, 1, event(acc, { query: 'late' }));
    await written;
    const rows = await eventRows(f.database, acc);
    // The recovered event, at the reserved worst case: the late one is not written.
    expect(rows.map((r) => [r.query, Number(r.credits), r.source, r.endpoint])).toEqual([[null, 3, 'shop', '/v1/validate']]);
    expect((await f.ledger.balance(acc)).usedThisMonth).toBe(3);
  });

  it('flushed() waits for the writes accepted before it: a reader sees its own calls', async () => {
    const acc = await newAccount(f, 'free');
    const accepted = await Promise.all(Array.from({ length: 5 }, (_, i) => f.ledger.recordFreeLater(event(acc, { query: `hit ${i}`, cached: true }))));
    await f.ledger.flushed();
    expect(await eventRows(f.database, acc)).toHaveLength(5);
    await Promise.all(accepted.map((a) => a.written));
  });

  it('a call that gives credits back answers once the refund is written, and not later than the database allows', async () => {
    const acc = await newAccount(f, 'free');
    const ledger = f.ledger;
    const biller = new Biller(ledger, f.clock);
    const ctx: CallContext = { accountId: acc, ...call, startedAt: f.clock.now() };
    const outcome = { verdict: 'valid', provider: 'pdok', query: 'one of three answered' };
    const { spy, original } = commitOf(ledger);
    let committed = 0;
    spy.mockImplementation(async (items, batchId) => {
      await original(items, batchId);
      committed += 1;
    });
    // Three providers reserved, one answered: when the answer goes, the two are spendable elsewhere.
    await biller.billed(ctx, 3, async () => ({ value: 'answer', answered: 1, outcome }));
    // Read before anything else could run: the writer starts its batch only in a later turn of the loop.
    expect(committed).toBe(1);
    expect((await ledger.balance(acc)).usedThisMonth).toBe(1);
    expect(await heldReservations(f.database, acc)).toBe(0);
    // A call that spends all it reserved answers without waiting for its write.
    await biller.billed(ctx, 1, async () => ({ value: 'answer', answered: 1, outcome }));
    expect(committed).toBe(1);
    await ledger.idle();
    expect(committed).toBe(2);

    // The database away: the answer goes all the same; the refund is written once it is back.
    let away = true;
    let failed = () => undefined as void;
    const failedOnce = new Promise<void>((resolve) => (failed = resolve));
    spy.mockImplementation(async (items, batchId) => {
      if (away) {
        failed();
        throw Object.assign(new Error('Connection terminated unexpectedly'), { code: '57P01' });
      }
      return original(items, batchId);
    });
    expect(await biller.billed(ctx, 3, async () => ({ value: 'answer', answered: 1, outcome }))).toBe('answer');
    await failedOnce;
    expect(ledger.pendingWrites).toBe(1);
    away = false;
    await ledger.idle();
    expect((await ledger.balance(acc)).usedThisMonth).toBe(3);
    expect(await heldReservations(f.database, acc)).toBe(0);
  });

  it('drain() writes what the writer holds before the database may close', async () => {
    const acc = await newAccount(f, 'free');
    const reservation = await f.ledger.reserve(acc, 2, call);
    await f.ledger.settleLater(reservation!, 2, event(acc, { query: 'at shutdown' }));
    await f.ledger.drain(60_000);
    expect(f.ledger.pendingWrites).toBe(0);
    expect((await eventRows(f.database, acc)).map((r) => r.query)).toEqual(['at shutdown']);
    expect(await heldReservations(f.database, acc)).toBe(0);
  });
});
