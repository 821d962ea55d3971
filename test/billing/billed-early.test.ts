import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Biller, type CallContext } from '../../src/engine/billing.js';
import { CreditsExhaustedError } from '../../src/engine/errors.js';
import { startAhead } from '../../src/engine/work-ahead.js';
import { STORAGE_BACKENDS } from '../support/backends.js';
import { eventRows, heldReservations, type LedgerFixture, newAccount, openLedgerFixture, spend } from './storage.js';

const call = { credentialId: 'key_live', env: 'live', endpoint: '/v1/validate', source: null };
const outcome = { verdict: 'valid', provider: 'local', query: 'Damrak 1' };

/**
 * BillOptions.early: the work of a call that asks only providers answering from our own data starts
 * beside its reservation; what is answered and charged stays what the reservation allows.
 */
describe.each(STORAGE_BACKENDS)('a billed call whose work starts beside its reservation (%s)', (backend) => {
  let f: LedgerFixture;
  let biller: Biller;
  beforeEach(async () => {
    f = await openLedgerFixture(backend);
    biller = new Biller(f.ledger, f.clock);
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await f.cleanup();
  });
  const ctxOf = (accountId: string): CallContext => ({ accountId, ...call, startedAt: f.clock.now() });

  it('the work does not wait for the reservation; the answer comes once it is made, on disk, and is charged as usual', async () => {
    const acc = await newAccount(f, 'free');
    const original = f.ledger.reserve.bind(f.ledger);
    // The reservation is held until the work has started: a work that waited for it would never start.
    let started = () => undefined as void;
    const working = new Promise<void>((resolve) => (started = resolve));
    const reserve = vi.spyOn(f.ledger, 'reserve').mockImplementation(async (...args) => {
      await working;
      return original(...args);
    });
    const overlapped = vi.spyOn(f.ledger, 'reserveOverlapped');
    const allowed: number[] = [];
    const value = await biller.billed(
      ctxOf(acc),
      1,
      async (n) => {
        started();
        allowed.push(n);
        return { value: 'answer', answered: 1, outcome };
      },
      { early: true },
    );
    expect(value).toBe('answer');
    expect(allowed).toEqual([1]);
    // Its one statement commits with the flush (no reservation left to be made durable later).
    expect(reserve).toHaveBeenCalledTimes(1);
    expect(reserve.mock.calls[0]![3]).toBeUndefined();
    expect(overlapped).not.toHaveBeenCalled();
    await f.ledger.idle();
    expect(await heldReservations(f.database, acc)).toBe(0);
    expect((await f.ledger.balance(acc)).usedThisMonth).toBe(1);
    expect((await eventRows(f.database, acc)).map((r) => Number(r.credits))).toEqual([1]);
  });

  it('no credits: refused as before, the early work dropped, nothing charged or written', async () => {
    const acc = await newAccount(f, 'free');
    expect(await spend(f.ledger, acc, 500)).toBe(500);
    await expect(biller.billed(ctxOf(acc), 1, async () => ({ value: 'answer', answered: 1, outcome }), { early: true })).rejects.toBeInstanceOf(CreditsExhaustedError);
    await f.ledger.idle();
    expect(await heldReservations(f.database, acc)).toBe(0);
    expect((await f.ledger.balance(acc)).usedThisMonth).toBe(500);
    expect(await eventRows(f.database, acc)).toHaveLength(1);
  });

  it('fewer credits than wanted: the work runs again with what was reserved, and only that is answered and charged', async () => {
    const acc = await newAccount(f, 'free');
    expect(await spend(f.ledger, acc, 498)).toBe(498);
    const allowed: number[] = [];
    const value = await biller.billed(
      ctxOf(acc),
      3,
      async (n) => {
        allowed.push(n);
        return { value: `asked ${n}`, answered: n, outcome };
      },
      { early: true },
    );
    expect(allowed).toEqual([3, 2]);
    expect(value).toBe('asked 2');
    await f.ledger.idle();
    expect((await f.ledger.balance(acc)).usedThisMonth).toBe(500);
    expect(await heldReservations(f.database, acc)).toBe(0);
  });

  it('work that fails gives the reservation back: nothing charged, nothing held', async () => {
    const acc = await newAccount(f, 'free');
    await expect(
      biller.billed(
        ctxOf(acc),
        1,
        async () => {
          throw new Error('index away');
        },
        { early: true },
      ),
    ).rejects.toThrow('index away');
    await f.ledger.idle();
    expect(await heldReservations(f.database, acc)).toBe(0);
    expect((await f.ledger.balance(acc)).usedThisMonth).toBe(0);
    expect(await eventRows(f.database, acc)).toEqual([]);
  });

  it('a reservation that fails fails the call, whatever the work did: nothing charged', async () => {
    const acc = await newAccount(f, 'free');
    vi.spyOn(f.ledger, 'reserve').mockRejectedValue(new Error('Connection terminated unexpectedly'));
    await expect(biller.billed(ctxOf(acc), 1, async () => ({ value: 'answer', answered: 1, outcome }), { early: true })).rejects.toThrow(
      'Connection terminated unexpectedly',
    );
    await f.ledger.idle();
    expect((await f.ledger.balance(acc)).usedThisMonth).toBe(0);
    expect(await eventRows(f.database, acc)).toEqual([]);
  });

  it('work the engine started ahead (beside its cache read) is the answer when all is reserved; with fewer credits the call asks again', async () => {
    const acc = await newAccount(f, 'free');
    const allowed: number[] = [];
    const work = async (n: number) => {
      allowed.push(n);
      return { value: `asked ${n}`, answered: n, outcome };
    };
    expect(await biller.billed(ctxOf(acc), 2, work, { early: true, ahead: startAhead(() => work(2)) })).toBe('asked 2');
    expect(allowed).toEqual([2]);
    expect(await spend(f.ledger, acc, 497)).toBe(497);
    allowed.length = 0;
    expect(await biller.billed(ctxOf(acc), 2, work, { early: true, ahead: startAhead(() => work(2)) })).toBe('asked 1');
    expect(allowed).toEqual([2, 1]);
    await f.ledger.idle();
    expect((await f.ledger.balance(acc)).usedThisMonth).toBe(500);
    expect(await heldReservations(f.database, acc)).toBe(0);
  });

  it('work started ahead that failed gives the reservation back: nothing charged, nothing held', async () => {
    const acc = await newAccount(f, 'free');
    const ahead = startAhead<string>(async () => {
      throw new Error('index away');
    });
    await expect(biller.billed(ctxOf(acc), 1, async () => ({ value: 'unused', answered: 1, outcome }), { early: true, ahead })).rejects.toThrow('index away');
    await f.ledger.idle();
    expect(await heldReservations(f.database, acc)).toBe(0);
    expect((await f.ledger.balance(acc)).usedThisMonth).toBe(0);
    expect(await eventRows(f.database, acc)).toEqual([]);
  });
});
