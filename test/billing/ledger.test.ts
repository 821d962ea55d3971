import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PLAN_QUOTAS } from '../../src/billing/plans.js';
import { STORAGE_BACKENDS } from '../support/backends.js';
import {
  creditMonth,
  event,
  eventRows,
  heldReservations,
  type LedgerFixture,
  newAccount,
  openLedgerFixture,
  spend,
} from './storage.js';

const MINUTE = 60_000;

describe.each(STORAGE_BACKENDS)('credit ledger on %s', (backend) => {
  let f: LedgerFixture;
  beforeEach(async () => {
    f = await openLedgerFixture(backend, Date.UTC(2026, 10, 10, 9, 0, 0));
  });
  afterEach(async () => {
    await f.cleanup();
  });

  it('spends the monthly grant before extra credits', async () => {
    const acc = await newAccount(f, 'free', 20);
    const first = await f.ledger.reserve(acc, 498);
    expect(first).toMatchObject({ grant: 498, extra: 0, total: 498 });
    await f.ledger.settle(first!, 498, event(acc));
    const second = await f.ledger.reserve(acc, 5);
    expect(second).toMatchObject({ grant: 2, extra: 3, total: 5 });
    await f.ledger.settle(second!, 5, event(acc));

    expect(await f.ledger.balance(acc)).toEqual({
      plan: 'free',
      quota: 500,
      extraCredits: 17,
      usedThisMonth: 503,
      available: 17,
    });
    expect(await creditMonth(f.database, acc, '2026-11')).toEqual({ usedGrant: 500, usedExtra: 3 });
  });

  it('grants fewer credits than wanted when fewer remain, and none once exhausted', async () => {
    const acc = await newAccount(f, 'free', 1);
    expect(await spend(f.ledger, acc, 499)).toBe(499);
    const partial = await f.ledger.reserve(acc, 3);
    expect(partial).toMatchObject({ grant: 1, extra: 1, total: 2 });
    await f.ledger.settle(partial!, 2, event(acc));
    expect(await f.ledger.reserve(acc, 1)).toBeNull();
    expect((await f.ledger.balance(acc)).available).toBe(0);
  });

  it('keeps unspent extra credits across months while the grant starts over', async () => {
    const acc = await newAccount(f, 'starter', 50);
    expect(await spend(f.ledger, acc, PLAN_QUOTAS.starter + 10)).toBe(PLAN_QUOTAS.starter + 10);
    expect(await f.ledger.balance(acc)).toMatchObject({ extraCredits: 40, usedThisMonth: 10_010, available: 40 });

    f.clock.set(Date.UTC(2026, 11, 3, 8, 0, 0));
    expect(await f.ledger.balance(acc)).toEqual({
      plan: 'starter',
      quota: 10_000,
      extraCredits: 40,
      usedThisMonth: 0,
      available: 10_040,
    });
    const december = await f.ledger.reserve(acc, 10_005);
    expect(december).toMatchObject({ grant: 10_000, extra: 5, month: '2026-12' });
    await f.ledger.settle(december!, 10_005, event(acc));
    expect(await creditMonth(f.database, acc, '2026-11')).toEqual({ usedGrant: 10_000, usedExtra: 10 });
    expect(await creditMonth(f.database, acc, '2026-12')).toEqual({ usedGrant: 10_000, usedExtra: 5 });
    expect((await f.ledger.balance(acc)).extraCredits).toBe(35);
  });

  it('resets the grant at 00:00 UTC on the 1st, not at a local midnight', async () => {
    const acc = await newAccount(f, 'free');
    f.clock.set(Date.UTC(2026, 10, 30, 22, 30, 0));
    expect(await spend(f.ledger, acc, 500)).toBe(500);
    // 23:30 UTC is already December 1st in Amsterdam; the UTC month still says November.
    f.clock.set(Date.UTC(2026, 10, 30, 23, 30, 0));
    expect(await f.ledger.reserve(acc, 1)).toBeNull();
    f.clock.set(Date.UTC(2026, 10, 30, 23, 59, 59));
    expect((await f.ledger.balance(acc)).available).toBe(0);
    f.clock.advance(1000);
    expect(await f.ledger.balance(acc)).toMatchObject({ usedThisMonth: 0, available: 500 });
    expect(await spend(f.ledger, acc, 2)).toBe(2);
    expect(await creditMonth(f.database, acc, '2026-12')).toEqual({ usedGrant: 2, usedExtra: 0 });
  });

  it('refunds the unused part of a reservation to extra credits first', async () => {
    const acc = await newAccount(f, 'free', 10);
    expect(await spend(f.ledger, acc, 498)).toBe(498);
    const reservation = await f.ledger.reserve(acc, 5);
    expect(reservation).toMatchObject({ grant: 2, extra: 3 });
    expect((await f.ledger.balance(acc)).extraCredits).toBe(7);
    // One provider answered: 4 of 5 come back, the 3 extra credits before the grant.
    await f.ledger.settle(reservation!, 1, event(acc));
    expect(await f.ledger.balance(acc)).toMatchObject({ extraCredits: 10, usedThisMonth: 499, available: 11 });
    expect(await creditMonth(f.database, acc, '2026-11')).toEqual({ usedGrant: 499, usedExtra: 0 });
    expect((await eventRows(f.database, acc)).map((e) => e.credits)).toEqual([498, 1]);
  });

  it('gives a whole reservation back on release and records no event', async () => {
    const acc = await newAccount(f, 'free', 5);
    expect(await spend(f.ledger, acc, 497)).toBe(497);
    const reservation = await f.ledger.reserve(acc, 6);
    expect(reservation).toMatchObject({ grant: 3, extra: 3 });
    await f.ledger.release(reservation!);
    await f.ledger.release(reservation!);
    expect(await f.ledger.balance(acc)).toMatchObject({ extraCredits: 5, usedThisMonth: 497, available: 8 });
    expect(await heldReservations(f.database, acc)).toBe(0);
    expect(await eventRows(f.database, acc)).toHaveLength(1);
  });

  it('records a free call with its event and no debit', async () => {
    const acc = await newAccount(f, 'free');
    await f.ledger.recordFree(event(acc, { cached: true, env: 'test', credentialId: 'key_test', source: 'crm' }));
    expect((await f.ledger.balance(acc)).usedThisMonth).toBe(0);
    const [row] = await eventRows(f.database, acc);
    expect(row).toMatchObject({ cached: 1, credits: 0, env: 'test', source: 'crm', at: '2026-11-10 09:00:00' });
  });

  it('refunds reservations a crashed process left behind, at the next start', async () => {
    const acc = await newAccount(f, 'free', 4);
    expect(await spend(f.ledger, acc, 498)).toBe(498);
    // The process reserves, calls providers, and dies before settling.
    const orphan = await f.ledger.reserve(acc, 5);
    expect(orphan).toMatchObject({ grant: 2, extra: 3 });
    await f.database.close();

    f.clock.advance(11 * MINUTE);
    const restarted = await f.connect();
    const young = await restarted.ledger.reserve(acc, 1);
    expect(young).toMatchObject({ extra: 1 });
    expect(await restarted.ledger.releaseStale(10 * MINUTE)).toBe(1);

    expect(await heldReservations(restarted.database, acc)).toBe(1);
    expect(await restarted.ledger.balance(acc)).toMatchObject({ extraCredits: 3, usedThisMonth: 499 });
    expect(await eventRows(restarted.database, acc)).toHaveLength(1);
    await restarted.ledger.settle(young!, 1, event(acc));
    expect(await restarted.ledger.balance(acc)).toMatchObject({ extraCredits: 3, usedThisMonth: 499, available: 5 });
  });

  it('bills what is left when a stalled call settles after its reservation was swept', async () => {
    const acc = await newAccount(f, 'free');
    expect(await spend(f.ledger, acc, 498)).toBe(498);
    const stalled = await f.ledger.reserve(acc, 3);
    expect(stalled).toMatchObject({ total: 2 });
    f.clock.advance(11 * MINUTE);
    expect(await f.ledger.releaseStale(10 * MINUTE)).toBe(1);
    expect(await spend(f.ledger, acc, 1)).toBe(1);

    await f.ledger.settle(stalled!, 2, event(acc, { query: 'stalled' }));
    expect(await f.ledger.balance(acc)).toMatchObject({ usedThisMonth: 500, available: 0 });
    const rows = await eventRows(f.database, acc);
    expect(rows.map((r) => [r.query, r.credits])).toEqual([
      ['Damrak 1, Amsterdam', 498],
      ['Damrak 1, Amsterdam', 1],
      ['stalled', 1],
    ]);
  });

  it('writes the usage event and the debit together: a failed event insert leaves no debit', async () => {
    const acc = await newAccount(f, 'free', 3);
    expect(await spend(f.ledger, acc, 499)).toBe(499);
    const before = await f.ledger.balance(acc);
    const reservation = await f.ledger.reserve(acc, 3);
    expect(reservation).toMatchObject({ grant: 1, extra: 2 });

    // endpoint is NOT NULL: the insert fails inside the settle transaction.
    const broken = event(acc, { endpoint: null as unknown as string });
    await expect(f.ledger.settle(reservation!, 3, broken)).rejects.toThrow();

    expect(await f.ledger.balance(acc)).toEqual(before);
    expect(await creditMonth(f.database, acc, '2026-11')).toEqual({ usedGrant: 499, usedExtra: 0 });
    expect(await heldReservations(f.database, acc)).toBe(0);
    expect(await eventRows(f.database, acc)).toHaveLength(1);
  });

  it('bills live and test keys of one account from one balance', async () => {
    const acc = await newAccount(f, 'free');
    expect(await spend(f.ledger, acc, 300, 300, { env: 'live', credentialId: 'key_live' })).toBe(300);
    expect(await spend(f.ledger, acc, 300, 300, { env: 'test', credentialId: 'key_test' })).toBe(200);
    expect(await f.ledger.balance(acc)).toMatchObject({ usedThisMonth: 500, available: 0 });
    expect(await f.ledger.reserve(acc, 1)).toBeNull();
  });
});
