import { describe, expect, it } from 'vitest';
import type { Balance } from '../../src/billing/credit-ledger.js';
import { QuotaGate } from '../../src/billing/quota-gate.js';
import { ManualClock } from '../../src/lib/clock.js';
import { LocalChangeFeed } from '../../src/store/changes/index.js';

const balance = (available: number): Balance => ({ plan: 'free', quota: 500, extraCredits: 0, usedThisMonth: 500 - available, available });

/** The gate's cached view of balances (billing/quota-gate.ts): how stale it may be and what refreshes it. */
describe('QuotaGate', () => {
  function gate(ttlMs: number) {
    const clock = new ManualClock();
    const changes = new LocalChangeFeed();
    let stored = balance(10);
    let reads = 0;
    const read = async () => {
      reads += 1;
      return stored;
    };
    return {
      clock,
      changes,
      gate: new QuotaGate(read, clock, ttlMs, changes),
      set: (b: Balance) => (stored = b),
      reads: () => reads,
    };
  }

  it('reads a balance once per ttl', async () => {
    const g = gate(1000);
    expect((await g.gate.balance('acc')).available).toBe(10);
    g.set(balance(0));
    g.clock.advance(1000);
    expect((await g.gate.balance('acc')).available).toBe(10);
    expect(g.reads()).toBe(1);
    g.clock.advance(1);
    expect((await g.gate.balance('acc')).available).toBe(0);
    expect(g.reads()).toBe(2);
  });

  it('follows what this process spent, without reading', async () => {
    const g = gate(1000);
    await g.gate.balance('acc');
    g.gate.spent('acc', 4);
    expect(await g.gate.balance('acc')).toMatchObject({ available: 6, usedThisMonth: 494 });
    g.gate.spent('acc', 9);
    expect((await g.gate.balance('acc')).available).toBe(0);
    expect(g.reads()).toBe(1);
  });

  it('reads again once this process gave credits back: an "exhausted" seen while they were held is stale', async () => {
    const g = gate(60_000);
    g.set(balance(0));
    expect((await g.gate.balance('acc')).available).toBe(0);
    g.set(balance(2));
    g.gate.refunded('acc');
    expect((await g.gate.balance('acc')).available).toBe(2);
  });

  it('reads again at once when the account changed (credits bought, plan changed)', async () => {
    const g = gate(60_000);
    g.set(balance(0));
    expect((await g.gate.balance('acc')).available).toBe(0);
    g.set(balance(25));
    g.changes.publish({ topic: 'credentials', id: 'acc' });
    expect((await g.gate.balance('acc')).available).toBe(0);
    g.changes.publish({ topic: 'account', id: 'acc' });
    expect((await g.gate.balance('acc')).available).toBe(25);
  });

  it('with ttl 0 reads on every call', async () => {
    const g = gate(0);
    await g.gate.balance('acc');
    await g.gate.balance('acc');
    expect(g.reads()).toBe(2);
  });
});
