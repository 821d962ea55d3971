import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CreditLedger } from '../../src/billing/credit-ledger.js';
import { STORAGE_BACKENDS } from '../support/backends.js';
import { creditMonth, event, eventRows, heldReservations, type LedgerFixture, newAccount, openLedgerFixture, spend } from './storage.js';

const CALLS = 100;

/** An account with exactly 10 credits left: 6 of the free grant and 4 extra credits. */
async function accountWithTenLeft(f: LedgerFixture): Promise<string> {
  const acc = await newAccount(f, 'free', 4);
  expect(await spend(f.ledger, acc, 494)).toBe(494);
  expect((await f.ledger.balance(acc)).available).toBe(10);
  return acc;
}

/** One billed call: reserve the worst case (3 providers), then settle what `answered` says. */
async function call(ledger: CreditLedger, acc: string, i: number): Promise<number> {
  const reservation = await ledger.reserve(acc, 3);
  if (!reservation) return 0;
  const answered = Math.min(reservation.total, i % 4);
  await ledger.settle(reservation, answered, event(acc, { query: `call ${i}` }));
  return answered;
}

describe.each(STORAGE_BACKENDS)('credits under concurrency on %s', (backend) => {
  let f: LedgerFixture;
  beforeEach(async () => {
    f = await openLedgerFixture(backend);
  });
  afterEach(async () => {
    await f.cleanup();
  });

  it('never reserves more than the 10 credits left across 100 parallel reservations', async () => {
    const acc = await accountWithTenLeft(f);
    // On PostgreSQL the calls alternate between two connection pools, as two instances would.
    const ledgers = backend === 'postgres' ? [f.ledger, (await f.connect()).ledger] : [f.ledger];
    const reservations = await Promise.all(
      Array.from({ length: CALLS }, (_, i) => ledgers[i % ledgers.length]!.reserve(acc, 1 + (i % 3))),
    );
    const granted = reservations.filter((r) => r !== null);
    expect(granted.reduce((sum, r) => sum + r.total, 0)).toBe(10);
    expect(granted.reduce((sum, r) => sum + r.extra, 0)).toBe(4);
    expect(reservations.filter((r) => r === null).length).toBeGreaterThanOrEqual(CALLS - 10);

    await Promise.all(granted.map((r, i) => ledgers[i % ledgers.length]!.settle(r, r.total, event(acc))));
    expect(await f.ledger.balance(acc)).toMatchObject({ extraCredits: 0, usedThisMonth: 504, available: 0 });
    expect(await creditMonth(f.database, acc, '2026-11')).toEqual({ usedGrant: 500, usedExtra: 4 });
  });

  it('spends at most 10 credits over 100 parallel calls that reserve, call and settle', async () => {
    const acc = await accountWithTenLeft(f);
    const ledgers = backend === 'postgres' ? [f.ledger, (await f.connect()).ledger] : [f.ledger];
    // Settles refund unused credits while others reserve: credits freed by one call go to the next.
    const charged = await Promise.all(Array.from({ length: CALLS }, (_, i) => call(ledgers[i % 2 === 0 ? 0 : ledgers.length - 1]!, acc, i)));

    const spent = charged.reduce((a, b) => a + b, 0);
    expect(spent).toBeLessThanOrEqual(10);
    const balance = await f.ledger.balance(acc);
    expect(balance.usedThisMonth).toBe(494 + spent);
    expect(balance.extraCredits).toBeGreaterThanOrEqual(0);
    expect(balance.available).toBe(10 - spent);
    const rows = await eventRows(f.database, acc);
    expect(rows.slice(1).reduce((sum, r) => sum + Number(r.credits), 0)).toBe(spent);
    expect(await heldReservations(f.database, acc)).toBe(0);
  });
});
