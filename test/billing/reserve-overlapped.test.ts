import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Biller, type CallContext } from '../../src/engine/billing.js';
import { STORAGE_BACKENDS } from '../support/backends.js';
import { eventRows, heldReservations, type LedgerFixture, newAccount, openLedgerFixture } from './storage.js';

const call = { credentialId: 'key_live', env: 'live', endpoint: '/v1/autocomplete', source: null };
const outcome = { verdict: null, provider: 'local', query: 'Damrak 1' };

describe.each(STORAGE_BACKENDS)('a reservation made durable beside the work (%s)', (backend) => {
  let f: LedgerFixture;
  beforeEach(async () => {
    f = await openLedgerFixture(backend);
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await f.cleanup();
  });

  it('reserveOverlapped holds the credits at once and resolves durable; every pooled connection still commits with the flush', async () => {
    const acc = await newAccount(f, 'free');
    const reserved = await f.ledger.reserveOverlapped(acc, 3, call);
    expect(reserved?.reservation.total).toBe(3);
    await reserved!.durable;
    expect(await heldReservations(f.database, acc)).toBe(1);
    expect((await f.ledger.balance(acc)).available).toBe(497);
    if (backend === 'postgres') {
      // The unflushed commit was this one transaction's: no connection of the pool keeps it, so
      // settles and every other write still wait for the disk. Twenty at once touch all ten.
      const settings = await Promise.all(Array.from({ length: 20 }, async () => (await sql<{ synchronous_commit: string }>`show synchronous_commit`.execute(f.database.db)).rows[0]!.synchronous_commit));
      expect(new Set(settings)).toEqual(new Set(['on']));
    }
    expect(await f.ledger.reserveOverlapped(acc, 1000, call)).toMatchObject({ reservation: { total: 497 } });
    expect(await f.ledger.reserveOverlapped(acc, 1, call)).toBeNull();
  });

  it('a call whose reservation could not be made durable is not answered: nothing charged, nothing held', async () => {
    const acc = await newAccount(f, 'free');
    const biller = new Biller(f.ledger, f.clock);
    const ctx: CallContext = { accountId: acc, ...call, startedAt: f.clock.now() };
    const original = f.ledger.reserveOverlapped.bind(f.ledger);
    // The database went away between the reservation and its flush.
    vi.spyOn(f.ledger, 'reserveOverlapped').mockImplementation(async (...args) => {
      const made = await original(...args);
      if (!made) return made;
      const durable = made.durable.then(() => Promise.reject(new Error('Connection terminated unexpectedly')));
      durable.catch(() => undefined);
      return { reservation: made.reservation, durable };
    });
    let worked = false;
    await expect(
      biller.billed(ctx, 2, async () => {
        worked = true;
        return { value: 'answer', answered: 2, outcome };
      }),
    ).rejects.toThrow('Connection terminated unexpectedly');
    expect(worked).toBe(true);
    await f.ledger.idle();
    expect(await heldReservations(f.database, acc)).toBe(0);
    expect((await f.ledger.balance(acc)).usedThisMonth).toBe(0);
    expect(await eventRows(f.database, acc)).toEqual([]);
  });
});
