import SQLite from 'better-sqlite3';
import { SqliteDriver, sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CreditLedger, type ReservationCall } from '../../src/billing/credit-ledger.js';
import { event, type LedgerFixture, newAccount, openLedgerFixture } from './storage.js';

/**
 * Issue 37: on SQLite the ledger's hot writes (reserve, settle, usage rows, the background batch)
 * run synchronously on the raw connection, with statements prepared once: no Kysely query, a
 * fixed number of statements, and the same guarantees as through Kysely.
 */
const CALL: ReservationCall = { credentialId: 'key_live', env: 'live', endpoint: '/v1/validate', source: null };

/** Every statement run on the connection (better-sqlite3's prototype: BEGIN and COMMIT included), and its text. */
function countStatements() {
  const proto = Object.getPrototypeOf(new SQLite(':memory:').prepare('select 1')) as Record<'run' | 'all' | 'get', (...a: unknown[]) => unknown>;
  const texts: string[] = [];
  for (const method of ['run', 'all', 'get'] as const) {
    const original = proto[method];
    vi.spyOn(proto, method).mockImplementation(function (this: { source: string }, ...a: unknown[]) {
      texts.push(this.source);
      return original.apply(this, a);
    });
  }
  return texts;
}

async function books(f: LedgerFixture, accountId: string) {
  const one = async (text: string) => Number((await sql<{ n: number | null }>`${sql.raw(text)}`.execute(f.database.db)).rows[0]!.n ?? 0);
  return {
    used: await one(`select sum(used_grant + used_extra) as n from credit_months where account_id = '${accountId}'`),
    held: await one(`select count(*) as n from credit_reservations where account_id = '${accountId}'`),
    events: await one(`select count(*) as n from usage_events where account_id = '${accountId}'`),
    eventCredits: await one(`select sum(credits) as n from usage_events where account_id = '${accountId}'`),
    daily: await one(`select sum(n) as n from usage_daily where account_id = '${accountId}'`),
  };
}

describe('the SQLite ledger runs on the raw connection', () => {
  let f: LedgerFixture;
  beforeEach(async () => {
    f = await openLedgerFixture('sqlite');
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await f.cleanup();
  });

  it('a reserve, its background settle and a cache hit issue no Kysely query, prepare nothing after the first call, and run a fixed count of statements', async () => {
    const acc = await newAccount(f, 'starter');
    const ledger = new CreditLedger(f.database, f.clock, { owner: 'i1' });
    const once = async (query: string) => {
      const reservation = await ledger.reserve(acc, 3, CALL);
      await (await ledger.settleLater(reservation!, 3, event(acc, { query }))).written;
      await (await ledger.recordFreeLater(event(acc, { query: `${query} again`, cached: true }))).written;
    };
    await once('warm-up');
    const kysely = vi.spyOn(SqliteDriver.prototype, 'acquireConnection');
    const prepare = vi.spyOn(f.database.sqlite!.connection, 'prepare');
    const texts = countStatements();

    const reservation = await ledger.reserve(acc, 3, CALL);
    const reserveTexts = texts.splice(0);
    await (await ledger.settleLater(reservation!, 3, event(acc))).written;
    const settleTexts = texts.splice(0);
    await (await ledger.recordFreeLater(event(acc, { cached: true }))).written;
    const freeTexts = texts.splice(0);

    expect(kysely).not.toHaveBeenCalled();
    expect(prepare).not.toHaveBeenCalled();
    // begin, the account, the month's row (made if missing, then read), its debit, the reservation, commit.
    expect(reserveTexts.map((t) => t.split(' ')[0]!.toLowerCase())).toEqual(['begin', 'select', 'insert', 'select', 'update', 'insert', 'commit']);
    // begin (its write lock is the account's lock), the batch's id, the reservation dropped (a full
    // charge: no refund), the day's total, the event, commit.
    expect(settleTexts).toHaveLength(6);
    expect(settleTexts.filter((t) => /from accounts/.test(t))).toEqual([]);
    expect(settleTexts.filter((t) => /usage_events|usage_daily/.test(t))).toHaveLength(2);
    // begin, the batch's id, the day's total, the event, commit.
    expect(freeTexts).toHaveLength(5);
    vi.restoreAllMocks();
    expect(await books(f, acc)).toEqual({ used: 6, held: 0, events: 4, eventCredits: 6, daily: 4 });
  });

  it('waits for a Kysely transaction open on the connection instead of joining it: its rollback leaves the reservation', async () => {
    const acc = await newAccount(f, 'starter');
    let release = () => undefined as void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let opened = () => undefined as void;
    const isOpen = new Promise<void>((resolve) => (opened = resolve));
    const other = f.database.db.transaction().execute(async (trx) => {
      await sql`update accounts set name = 'renamed' where id = ${acc}`.execute(trx);
      opened();
      await gate;
      throw new Error('rolled back on purpose');
    });
    await isOpen;
    let reserved = false;
    const reserving = f.ledger.reserve(acc, 2).then((r) => {
      reserved = true;
      return r;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(reserved).toBe(false);
    release();
    await expect(other).rejects.toThrow('rolled back on purpose');
    expect((await reserving)?.total).toBe(2);
    expect(await books(f, acc)).toMatchObject({ used: 2, held: 1 });
    const name = await f.database.db.selectFrom('accounts').select('name').where('id', '=', acc).executeTakeFirst();
    expect(name?.name).not.toBe('renamed');
  });

  it('a settle that fails midway writes nothing half; the call is then settled from its reservation, once', async () => {
    const acc = await newAccount(f, 'starter');
    const ledger = new CreditLedger(f.database, f.clock, { owner: 'i1' });
    // The event's insert fails after the reservation was dropped and the day's total written, in the same transaction.
    await sql`create trigger refuse_event before insert on usage_events when new.query = 'refused' begin select raise(abort, 'refused on purpose'); end`.execute(f.database.db);
    const reservation = await ledger.reserve(acc, 3, CALL);
    const { written } = await ledger.settleLater(reservation!, 2, event(acc, { query: 'refused' }));
    await expect(written).rejects.toThrow('refused on purpose');
    expect(await books(f, acc)).toEqual({ used: 3, held: 1, events: 0, eventCredits: 0, daily: 0 });

    // A restart of the same instance (or a sweep) settles it from itself: its whole reservation, one event.
    const restarted = await f.connect();
    const recovered = new CreditLedger(restarted.database, f.clock, { owner: 'i1' });
    expect(await recovered.releaseOwn()).toBe(1);
    expect(await recovered.releaseOwn()).toBe(0);
    expect(await books(f, acc)).toEqual({ used: 3, held: 0, events: 1, eventCredits: 3, daily: 1 });
  });
});
