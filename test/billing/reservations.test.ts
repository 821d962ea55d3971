import type { Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CreditLedger } from '../../src/billing/credit-ledger.js';
import { ReservationSweeper } from '../../src/billing/reservation-sweeper.js';
import { migrate } from '../../src/store/db/migrations.js';
import { STORAGE_BACKENDS } from '../support/backends.js';
import { creditMonth, event, heldReservations, type LedgerFixture, newAccount, openLedgerFixture, spend } from './storage.js';

const SECOND = 1000;
const MAX_AGE = 18 * SECOND;

/**
 * Reservations belong to the instance that made them (issue 14): a restarted instance releases
 * its predecessor's at once; any instance releases others' once older than the longest request.
 * Time is a ManualClock: ages are moved by hand, never slept.
 */
describe.each(STORAGE_BACKENDS)('reservation ownership and the sweeper on %s', (backend) => {
  let f: LedgerFixture;
  const owned = (owner: string, database = f.database) => new CreditLedger(database, f.clock, { owner });
  beforeEach(async () => {
    f = await openLedgerFixture(backend, Date.UTC(2026, 10, 10, 9, 0, 0));
  });
  afterEach(async () => {
    await f.cleanup();
  });

  it('records who reserved', async () => {
    const acc = await newAccount(f, 'free');
    await owned('host-a:3000:1234abcd').reserve(acc, 2);
    const rows = await f.database.db.selectFrom('credit_reservations').select(['owner', 'created_at']).execute();
    expect(rows).toEqual([{ owner: 'host-a:3000:1234abcd', created_at: '2026-11-10 09:00:00' }]);
  });

  it('a restarted instance releases everything its predecessor held, at once, and nothing of others', async () => {
    const acc = await newAccount(f, 'free', 10);
    expect(await spend(f.ledger, acc, 495)).toBe(495);
    // Instance A dies holding two reservations, one of which reaches into the extra credits.
    await owned('a').reserve(acc, 3);
    await owned('a').reserve(acc, 4);
    // Instance B is mid-request.
    const running = await owned('b').reserve(acc, 1);
    expect(await f.ledger.balance(acc)).toMatchObject({ usedThisMonth: 503, extraCredits: 7 });

    const restarted = await f.connect();
    const a = new CreditLedger(restarted.database, f.clock, { owner: 'a' });
    expect(await a.releaseOwn()).toBe(2);
    expect(await heldReservations(restarted.database, acc)).toBe(1);
    // A's 7 are back (5 of the grant, 2 extra); B's 1 (extra) is still held.
    expect(await a.balance(acc)).toMatchObject({ usedThisMonth: 496, extraCredits: 9 });

    // B settles as usual: its reservation was never touched.
    await owned('b').settle(running!, 1, event(acc));
    expect(await a.balance(acc)).toMatchObject({ usedThisMonth: 496, extraCredits: 9, available: 14 });
    expect(await creditMonth(restarted.database, acc, '2026-11')).toEqual({ usedGrant: 495, usedExtra: 1 });
    expect(await a.releaseOwn()).toBe(0);
  });

  it('releases another instance\'s reservations once older than the longest request, not before', async () => {
    const acc = await newAccount(f, 'free');
    await owned('crashed').reserve(acc, 3);
    f.clock.advance(MAX_AGE / 2);
    await owned('crashed').reserve(acc, 2);
    const survivor = owned('survivor');

    f.clock.advance(MAX_AGE / 2 + SECOND);
    expect(await survivor.releaseStale(MAX_AGE)).toBe(1);
    expect(await survivor.balance(acc)).toMatchObject({ usedThisMonth: 2 });
    f.clock.advance(MAX_AGE / 2);
    expect(await survivor.releaseStale(MAX_AGE)).toBe(1);
    expect(await survivor.balance(acc)).toMatchObject({ usedThisMonth: 0 });
    expect(await survivor.heldReservations()).toBe(0);
  });

  it('a holder that runs longer than a request (a bulk chunk) keeps its reservation by renewing it', async () => {
    const acc = await newAccount(f, 'free');
    const chunk = owned('bulk');
    const reservation = await chunk.reserve(acc, 20);
    const sweeper = owned('server');
    for (let i = 0; i < 4; i++) {
      f.clock.advance(MAX_AGE / 2);
      expect(await chunk.renew(reservation!)).toBe(true);
      expect(await sweeper.releaseStale(MAX_AGE)).toBe(0);
    }
    // Renewals stop (the process died): the next sweep past the age takes it.
    f.clock.advance(MAX_AGE + SECOND);
    expect(await sweeper.releaseStale(MAX_AGE)).toBe(1);
    expect(await chunk.renew(reservation!)).toBe(false);
  });

  it('refunds each stale reservation once when two instances sweep at the same time', async () => {
    const acc = await newAccount(f, 'free');
    for (let i = 0; i < 5; i++) await owned('crashed').reserve(acc, 2);
    f.clock.advance(MAX_AGE + SECOND);
    // Instances share a database only on PostgreSQL; on SQLite two sweeps share the one connection.
    const other = backend === 'postgres' ? (await f.connect()).database : f.database;
    const released = await Promise.all([
      owned('one').releaseStale(MAX_AGE),
      new CreditLedger(other, f.clock, { owner: 'two' }).releaseStale(MAX_AGE),
    ]);
    expect(released[0] + released[1]).toBe(5);
    expect(await f.ledger.balance(acc)).toMatchObject({ usedThisMonth: 0, available: 500 });
  });

  it('the sweeper releases on its timer, reports it, and stops', async () => {
    const acc = await newAccount(f, 'free');
    await owned('crashed').reserve(acc, 3);
    const reports: number[] = [];
    const sweeper = new ReservationSweeper(owned('survivor'), { intervalMs: 10, maxAgeMs: MAX_AGE, onReleased: (n) => reports.push(n) });
    sweeper.start();
    // Young: the next sweep leaves it.
    expect(await sweeper.nextSweep()).toBe(0);
    f.clock.advance(MAX_AGE + SECOND);
    expect(await sweeper.nextSweep()).toBe(1);
    expect(reports).toEqual([1]);
    expect(await heldReservations(f.database, acc)).toBe(0);
    await sweeper.stop();
  });

  it('a sweep that fails (the database is away) is reported and does not stop the next one', async () => {
    const errors: unknown[] = [];
    const other = await f.connect();
    const sweeper = new ReservationSweeper(new CreditLedger(other.database, f.clock), { intervalMs: 60_000, maxAgeMs: MAX_AGE, onError: (e) => errors.push(e) });
    await other.database.close();
    expect(await sweeper.sweep()).toBe(0);
    expect(errors).toHaveLength(1);
  });
});

describe.each(STORAGE_BACKENDS)('migration 0003_reservation_owner on %s', (backend) => {
  it('runs on a database that already ran 0004, and keeps reservations made before it', async () => {
    const f = await openLedgerFixture(backend, Date.UTC(2026, 10, 10, 9, 0, 0));
    try {
      const acc = await newAccount(f, 'free');
      const db = f.database.db as unknown as Kysely<unknown>;
      // The state of a database migrated before 0003 existed: 0004 applied, 0003 never.
      await migrate(db, f.database.dialect, f.sandbox.schema, '0002_usage_daily');
      await migrate(db, f.database.dialect, f.sandbox.schema);
      await f.database.db.schema.dropIndex('credit_reservations_owner').execute();
      await f.database.db.schema.dropIndex('credit_reservations_created').execute();
      await f.database.db.schema.alterTable('credit_reservations').dropColumn('owner').execute();
      await (db as Kysely<{ kysely_migration: { name: string } }>).deleteFrom('kysely_migration').where('name', '=', '0003_reservation_owner').execute();
      await (db as Kysely<Record<string, Record<string, unknown>>>)
        .insertInto('credit_reservations')
        .values({ id: 'res_old', account_id: acc, month: '2026-11', grant_amount: 2, extra_amount: 0, created_at: '2026-11-10 08:00:00' })
        .execute();

      const reopened = await f.connect();
      const rows = await reopened.database.db.selectFrom('credit_reservations').select(['id', 'owner']).execute();
      expect(rows).toEqual([{ id: 'res_old', owner: null }]);
      // Ownerless (older than the column): released by age like any other.
      expect(await new CreditLedger(reopened.database, f.clock, { owner: 'x' }).releaseOwn()).toBe(0);
      expect(await reopened.ledger.releaseStale(MAX_AGE)).toBe(1);
    } finally {
      await f.cleanup();
    }
  });
});
