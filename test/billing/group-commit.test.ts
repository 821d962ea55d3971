import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CreditLedger } from '../../src/billing/credit-ledger.js';
import { GroupCommit } from '../../src/billing/group-commit.js';
import type { Database } from '../../src/store/db/database.js';
import { STORAGE_BACKENDS } from '../support/backends.js';
import { event, eventRows, heldReservations, type LedgerFixture, newAccount, openLedgerFixture, spend } from './storage.js';

/** A commit function that waits until told, recording each batch it was given. */
function heldCommits<T>() {
  const batches: T[][] = [];
  const release: Array<(error?: unknown) => void> = [];
  const commit = (items: T[]) =>
    new Promise<void>((resolve, reject) => {
      batches.push(items);
      release.push((error) => (error ? reject(error) : resolve()));
    });
  return { batches, release, commit };
}

const settled = async (p: Promise<unknown>) => p.then(() => 'ok', (e: unknown) => e);
const tick = () => new Promise((r) => setImmediate(r));

describe('GroupCommit', () => {
  it('puts what arrives during a commit into the next batch, and answers each only after its batch committed', async () => {
    const { batches, release, commit } = heldCommits<number>();
    const group = new GroupCommit(commit);
    const answered: number[] = [];
    const submit = (n: number) => group.submit(n).then(() => answered.push(n));
    const first = submit(1);
    await tick();
    expect(batches).toEqual([[1]]);
    const rest = [2, 3, 4].map(submit);
    await tick();
    expect(batches).toEqual([[1]]);
    expect(answered).toEqual([]);
    release[0]!();
    await first;
    await tick();
    expect(batches).toEqual([[1], [2, 3, 4]]);
    expect(answered).toEqual([1]);
    release[1]!();
    await Promise.all(rest);
    expect(answered).toEqual([1, 2, 3, 4]);
    await group.idle();
  });

  it('retries each item of a batch that rolled back alone: one bad item fails only its own request', async () => {
    const written: string[] = [];
    const group = new GroupCommit<string>(async (items) => {
      if (items.includes('bad')) throw new Error('constraint violated');
      written.push(...items);
    });
    const results = await Promise.all(['a', 'bad', 'c'].map((x) => settled(group.submit(x))));
    expect(results[0]).toBe('ok');
    expect(results[1]).toMatchObject({ message: 'constraint violated' });
    expect(results[2]).toBe('ok');
    expect(written.sort()).toEqual(['a', 'c']);
  });

  it('writes a batch that failed for a transient reason again, under the same id, until it commits', async () => {
    const ids: string[] = [];
    const retried: number[] = [];
    let written: string[] = [];
    const group = new GroupCommit<string>(
      async (items, batchId) => {
        ids.push(batchId);
        if (ids.length < 3) throw new Error('Connection terminated unexpectedly');
        written = items;
      },
      { classify: () => 'retry', pause: async () => undefined, onRetry: (_, attempt) => retried.push(attempt) },
    );
    const results = await Promise.all(['a', 'b', 'c'].map((x) => settled(group.submit(x))));
    expect(results).toEqual(['ok', 'ok', 'ok']);
    expect(written).toEqual(['a', 'b', 'c']);
    // The same id each time: the writer's commit finds a first run that did commit, and writes nothing.
    expect(new Set(ids).size).toBe(1);
    expect(retried).toEqual([1, 2]);
  });

  it('accepts at once and writes after: enqueue resolves before the commit, `written` and flushed() after it', async () => {
    const { batches, release, commit } = heldCommits<number>();
    const group = new GroupCommit(commit);
    const { written } = await group.enqueue(1);
    await tick();
    expect(batches).toEqual([[1]]);
    let flushed = false;
    const flush = group.flushed().then(() => (flushed = true));
    await tick();
    expect(flushed).toBe(false);
    release[0]!();
    await written;
    await flush;
    expect(flushed).toBe(true);
  });

  it('a full queue makes the next request wait for room (back-pressure), never drops it', async () => {
    const { batches, release, commit } = heldCommits<number>();
    const lengths: number[] = [];
    const group = new GroupCommit(commit, { maxQueued: 2, onLength: (n) => lengths.push(n) });
    await group.enqueue(1);
    await group.enqueue(2);
    let third = false;
    const waiting = group.enqueue(3).then((accepted) => {
      third = true;
      return accepted;
    });
    await tick();
    expect(third).toBe(false);
    expect(group.length).toBe(2);
    release[0]!();
    const { written } = await waiting;
    expect(third).toBe(true);
    await tick();
    expect(batches).toEqual([[1, 2], [3]]);
    release[1]!();
    await written;
    expect(group.length).toBe(0);
    expect(Math.max(...lengths)).toBe(2);
  });

  it('flushed() waiting on a batch resolves once that batch fails for a transient reason (the reader fails on its own read)', async () => {
    let fail = () => undefined as void;
    const failing = new Promise<void>((resolve) => (fail = resolve));
    let resume = () => undefined as void;
    const group = new GroupCommit<number>(
      async () => {
        await failing;
        throw new Error('Connection terminated unexpectedly');
      },
      { classify: () => 'retry', pause: () => new Promise<void>((resolve) => (resume = resolve)), onDropped: () => undefined },
    );
    const held = await group.enqueue(1);
    let read = false;
    const flushed = group.flushed().then(() => (read = true));
    await tick();
    await tick();
    expect(read).toBe(false);
    fail();
    await flushed;
    expect(group.length).toBe(1);
    const stopping = group.stop(0);
    await new Promise((resolve) => setTimeout(resolve, 0));
    resume();
    await stopping;
    expect(await settled(held.written)).toBeInstanceOf(Error);
  });

  it('stop() writes what is held before it resolves; a database still away past the grace is given up', async () => {
    const { release, commit } = heldCommits<number>();
    const group = new GroupCommit(commit);
    const { written } = await group.enqueue(1);
    let stopped = false;
    const stopping = group.stop(60_000).then(() => (stopped = true));
    await tick();
    expect(stopped).toBe(false);
    release[0]!();
    await stopping;
    await written;

    const dropped: number[] = [];
    let pausing = () => undefined as void;
    const paused = new Promise<void>((resolve) => (pausing = resolve));
    let resume = () => undefined as void;
    const away = new GroupCommit<number>(
      async () => {
        throw new Error('Connection terminated unexpectedly');
      },
      {
        classify: () => 'retry',
        pause: () => {
          pausing();
          return new Promise<void>((resolve) => (resume = resolve));
        },
        onDropped: (_, n) => dropped.push(n),
      },
    );
    const held = await away.enqueue(7);
    await paused;
    const done = away.stop(0);
    // The grace timer (0 ms, set first) has fired once this one has: the next failure is the last.
    await new Promise((resolve) => setTimeout(resolve, 0));
    resume();
    await done;
    expect(await settled(held.written)).toBeInstanceOf(Error);
    expect(dropped).toEqual([1]);
  });
});

describe('GroupCommit lingering (USAGE_WRITE_LINGER_MS)', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('holds writes nobody waits for until the linger ends, then writes them in one batch', async () => {
    const { batches, release, commit } = heldCommits<number>();
    const group = new GroupCommit(commit, { lingerMs: 20 });
    const accepted = await Promise.all([1, 2].map((n) => group.enqueue(n)));
    await tick();
    await vi.advanceTimersByTimeAsync(19);
    expect(batches).toEqual([]);
    await group.enqueue(3);
    await vi.advanceTimersByTimeAsync(1);
    expect(batches).toEqual([[1, 2, 3]]);
    release[0]!();
    await Promise.all(accepted.map((a) => a.written));
    // A later write, once the first batch is done, waits for a linger of its own.
    await group.enqueue(4);
    await tick();
    expect(batches).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(20);
    expect(batches).toEqual([[1, 2, 3], [4]]);
    release[1]!();
    await group.idle();
  });

  it('a reader (flushed), a waiting submit and stop() end the linger at once', async () => {
    const { batches, release, commit } = heldCommits<number>();
    const group = new GroupCommit(commit, { lingerMs: 60_000 });
    await group.enqueue(1);
    await tick();
    const read = group.flushed();
    await tick();
    expect(batches).toEqual([[1]]);
    release[0]!();
    await read;

    const submitted = group.submit(2);
    await tick();
    await tick();
    expect(batches).toEqual([[1], [2]]);
    release[1]!();
    await submitted;

    await group.enqueue(3);
    await tick();
    const stopped = group.stop(1000);
    await tick();
    expect(batches).toEqual([[1], [2], [3]]);
    release[2]!();
    await stopped;
  });

  it('an item that may not wait is written at once, with everything accepted before it', async () => {
    const { batches, release, commit } = heldCommits<string>();
    const group = new GroupCommit(commit, { lingerMs: 60_000, mayLinger: (item) => item !== 'hit' });
    await group.enqueue('settle-1');
    await group.enqueue('settle-2');
    await tick();
    expect(batches).toEqual([]);
    await group.enqueue('hit');
    await tick();
    expect(batches).toEqual([['settle-1', 'settle-2', 'hit']]);
    release[0]!();
    await group.idle();
  });

  it('a batch that fills up is written without waiting out the linger', async () => {
    const { batches, release, commit } = heldCommits<number>();
    const group = new GroupCommit(commit, { lingerMs: 60_000, maxBatch: 3 });
    for (const n of [1, 2]) await group.enqueue(n);
    await tick();
    expect(batches).toEqual([]);
    await group.enqueue(3);
    await tick();
    expect(batches).toEqual([[1, 2, 3]]);
    release[0]!();
    await group.idle();
  });
});

/** The database with its transactions counted: how many a ledger opened. */
function countingTransactions(database: Database) {
  const counter = { count: 0 };
  const db = new Proxy(database.db, {
    get(target, property) {
      if (property !== 'transaction') {
        // Kysely keeps its state in private fields: its methods must run on the instance itself.
        const value: unknown = Reflect.get(target, property, target);
        return typeof value === 'function' ? value.bind(target) : value;
      }
      return () => {
        counter.count += 1;
        return target.transaction();
      };
    },
  });
  // SQLite's ledger runs its transactions on the raw connection (ledger-runners.ts): count those too.
  const sqlite = database.sqlite && {
    connection: database.sqlite.connection,
    transaction: <T>(work: () => T) => {
      counter.count += 1;
      return database.sqlite!.transaction(work);
    },
  };
  return { database: { ...database, db, ...(sqlite ? { sqlite } : {}) }, counter };
}

describe.each(STORAGE_BACKENDS)('usage events by group commit on %s', (backend) => {
  let f: LedgerFixture;
  let transactions: { count: number };
  let ledger: CreditLedger;
  beforeEach(async () => {
    f = await openLedgerFixture(backend);
    const counted = countingTransactions(f.database);
    transactions = counted.counter;
    ledger = new CreditLedger(counted.database, f.clock);
  });
  afterEach(async () => {
    await f.cleanup();
  });

  it('concurrent requests share transactions; every event, credit and daily total is counted exactly once', async () => {
    const acc = await newAccount(f, 'starter');
    const calls = Array.from({ length: 60 }, async (_, i) => {
      if (i % 2 === 0) {
        await ledger.recordFree(event(acc, { cached: true, query: `free ${i}`, verdict: 'valid' }));
        return 0;
      }
      const reservation = await ledger.reserve(acc, 3);
      const answered = i % 4;
      await ledger.settle(reservation!, answered, event(acc, { query: `paid ${i}`, verdict: 'correctable' }));
      return answered;
    });
    const charged = (await Promise.all(calls)).reduce((a, b) => a + b, 0);

    const rows = await eventRows(f.database, acc);
    expect(rows).toHaveLength(60);
    expect(new Set(rows.map((r) => r.query)).size).toBe(60);
    expect(rows.reduce((sum, r) => sum + Number(r.credits), 0)).toBe(charged);
    const daily = await f.database.db.selectFrom('usage_daily').selectAll().where('account_id', '=', acc).execute();
    expect(daily.reduce((sum, d) => sum + Number(d.n), 0)).toBe(60);
    expect(daily.find((d) => d.verdict === 'valid')).toMatchObject({ n: 30, credits: 0 });
    expect(Number(daily.find((d) => d.verdict === 'correctable')?.credits)).toBe(charged);
    expect((await ledger.balance(acc)).usedThisMonth).toBe(charged);
    // 30 reservations took a transaction each; the 60 events and settles took far fewer.
    expect(transactions.count - 30).toBeLessThan(60);
  });

  it('cache hits alone: PostgreSQL writes their batch as one statement, with no transaction around it', async () => {
    const acc = await newAccount(f, 'starter');
    await Promise.all(Array.from({ length: 40 }, (_, i) => ledger.recordFree(event(acc, { cached: true, query: `hit ${i}`, source: i % 2 ? 'shop' : null }))));
    expect(await eventRows(f.database, acc)).toHaveLength(40);
    const daily = await f.database.db.selectFrom('usage_daily').select(['source', 'n', 'credits']).where('account_id', '=', acc).orderBy('source').execute();
    expect(daily.map((d) => [d.source, Number(d.n), Number(d.credits)])).toEqual([['', 20, 0], ['shop', 20, 0]]);
    // SQLite keeps its (in-process, cheap) transaction; PostgreSQL saves BEGIN and COMMIT round trips.
    if (backend === 'postgres') expect(transactions.count).toBe(0);
    else expect(transactions.count).toBeGreaterThan(0);
  });

  it('a request is answered only once its event can be read by another connection', async () => {
    const acc = await newAccount(f, 'starter');
    const other = await f.connect();
    const visible = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        await ledger.recordFree(event(acc, { cached: true, query: `seen ${i}` }));
        const row = await other.database.db.selectFrom('usage_events').select('id').where('query', '=', `seen ${i}`).executeTakeFirst();
        return row !== undefined;
      }),
    );
    expect(visible.every(Boolean)).toBe(true);
  });

  it('an event the database refuses fails only its own request; the rest of its batch is written once', async () => {
    const acc = await newAccount(f, 'starter');
    // A NOT NULL column left empty: the whole batch rolls back, then each event is tried alone.
    const bad = event(acc, { query: 'refused', endpoint: null as unknown as string });
    const results = await Promise.all([
      ...Array.from({ length: 10 }, (_, i) => settled(ledger.recordFree(event(acc, { query: `good ${i}` })))),
      settled(ledger.recordFree(bad)),
      ...Array.from({ length: 10 }, (_, i) => settled(ledger.recordFree(event(acc, { query: `good ${i + 10}` })))),
    ]);
    expect(results.filter((r) => r === 'ok')).toHaveLength(20);
    expect(results[10]).toBeInstanceOf(Error);
    const rows = await eventRows(f.database, acc);
    expect(rows.map((r) => r.query).sort()).toEqual(Array.from({ length: 20 }, (_, i) => `good ${i}`).sort());
    const daily = await f.database.db.selectFrom('usage_daily').select('n').where('account_id', '=', acc).execute();
    expect(daily.reduce((sum, d) => sum + Number(d.n), 0)).toBe(20);
  });

  it('a settle that fails gives its reservation back; the others of its batch are charged', async () => {
    const acc = await newAccount(f, 'free');
    const reservations = await Promise.all(Array.from({ length: 5 }, () => ledger.reserve(acc, 2)));
    const results = await Promise.all(
      reservations.map((r, i) => settled(ledger.settle(r!, 2, i === 2 ? event(acc, { env: null as unknown as string }) : event(acc)))),
    );
    expect(results.filter((r) => r === 'ok')).toHaveLength(4);
    expect((await ledger.balance(acc)).usedThisMonth).toBe(8);
    expect(await eventRows(f.database, acc)).toHaveLength(4);
  });

  it('an uncached call costs PostgreSQL one statement to reserve and one to settle, no transaction around either', async () => {
    const acc = await newAccount(f, 'starter');
    const reservation = await ledger.reserve(acc, 3);
    expect(reservation).toMatchObject({ total: 3 });
    await ledger.settle(reservation!, 3, event(acc));
    if (backend === 'postgres') expect(transactions.count).toBe(0);
    else expect(transactions.count).toBe(2);
    expect((await eventRows(f.database, acc)).map((e) => Number(e.credits))).toEqual([3]);
    expect((await ledger.balance(acc)).usedThisMonth).toBe(3);
    expect(await heldReservations(f.database, acc)).toBe(0);
  });

  it('settles a batch of calls from one reservation: each its event and credits, the rest refunded', async () => {
    const acc = await newAccount(f, 'free', 2);
    expect(await spend(ledger, acc, 497)).toBe(497);
    // 3 of the grant and 2 extra credits left; the batch's worst case was 9.
    const reservation = await ledger.reserve(acc, 9);
    expect(reservation).toMatchObject({ grant: 3, extra: 2, total: 5 });
    await ledger.settleCalls(reservation, [
      { event: event(acc, { query: 'a' }), credits: 2 },
      { event: event(acc, { query: 'b', cached: true }), credits: 0 },
      { event: event(acc, { query: 'c' }), credits: 1 },
    ]);
    const rows = await eventRows(f.database, acc);
    expect(rows.slice(1).map((r) => [r.query, Number(r.credits)])).toEqual([
      ['a', 2],
      ['b', 0],
      ['c', 1],
    ]);
    // 3 charged, 2 refunded: the extra credits first.
    expect(await ledger.balance(acc)).toMatchObject({ usedThisMonth: 500, extraCredits: 2, available: 2 });
    expect(await heldReservations(f.database, acc)).toBe(0);
  });

  it('a batch whose reservation was swept meanwhile is billed what is left, to its calls in order', async () => {
    const acc = await newAccount(f, 'free');
    expect(await spend(ledger, acc, 496)).toBe(496);
    const reservation = await ledger.reserve(acc, 4);
    expect(reservation).toMatchObject({ total: 4 });
    // A stall longer than any request: the sweep gives the 4 back, and another call takes 2 of them.
    f.clock.advance(11 * 60_000);
    expect(await ledger.releaseStale(10 * 60_000)).toBe(1);
    expect(await spend(ledger, acc, 2)).toBe(2);
    await ledger.settleCalls(reservation, [
      { event: event(acc, { query: 'a' }), credits: 1 },
      { event: event(acc, { query: 'b' }), credits: 2 },
      { event: event(acc, { query: 'c' }), credits: 1 },
    ]);
    const rows = await eventRows(f.database, acc);
    expect(rows.slice(2).map((r) => [r.query, Number(r.credits)])).toEqual([
      ['a', 1],
      ['b', 1],
      ['c', 0],
    ]);
    expect(await ledger.balance(acc)).toMatchObject({ usedThisMonth: 500, available: 0 });
  });
});
