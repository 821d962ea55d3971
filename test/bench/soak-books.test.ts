import SQLite from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { checkBooks, type Read } from '../../bench/soak/books.js';
import type { Outcome } from '../../bench/soak/traffic.js';

/**
 * The soak's books (`npm run bench:soak`) match every call its traffic made to the usage events by
 * source tag: the check is only worth something if it catches what it looks for. The columns it
 * reads, in a real SQLite database.
 */
let db: SQLite.Database;
afterEach(() => db.close());

function books(events: [string, number][], used: number, reservations = 0): Read {
  db = new SQLite(':memory:');
  db.exec('CREATE TABLE usage_events (source TEXT, credits INTEGER); CREATE TABLE credit_months (used_grant INTEGER, used_extra INTEGER); CREATE TABLE credit_reservations (id TEXT)');
  for (const [source, credits] of events) db.prepare('INSERT INTO usage_events VALUES (?, ?)').run(source, credits);
  db.prepare('INSERT INTO credit_months VALUES (?, 0)').run(used);
  for (let i = 0; i < reservations; i++) db.prepare('INSERT INTO credit_reservations VALUES (?)').run(`r${i}`);
  return <T>(text: string) => Promise.resolve(db.prepare(text).all() as T[]);
}

function call(source: string, status: Outcome['status'], credits?: number): Outcome {
  const answered = status === 200 ? [source] : [];
  return {
    sent: 0,
    ended: 1,
    target: 'pg-a',
    store: 'postgres',
    kind: 'validate',
    status,
    retryAfter: status === 503,
    answered,
    credits: new Map(credits === undefined ? [] : [[source, credits]]),
    sentSources: [source],
  };
}

const failed = async (read: Read, outcomes: Outcome[]) => (await checkBooks(read, outcomes)).lines.filter((l) => l.startsWith('FAIL'));

describe('the soak books', () => {
  it('add up when every answered call has one event, the list and an answer lost in flight included', async () => {
    const read = books([['soak.pg-a.1', 2], ['soak.pg-a.3', 1], ['soak-list', 1]], 4);
    const result = await checkBooks(read, [call('soak.pg-a.1', 200, 2), call('soak.pg-a.2', 503), call('soak.pg-a.3', 'connection')]);
    expect(result.lines.filter((l) => l.startsWith('FAIL'))).toEqual([]);
    expect(result.ok).toBe(true);
  });

  it('catch an answer served unbilled, and one billed twice', async () => {
    expect(await failed(books([], 0), [call('soak.pg-a.1', 200)])).toEqual([expect.stringContaining('unbilled 1')]);
    expect(await failed(books([['soak.pg-a.1', 1], ['soak.pg-a.1', 1]], 2), [call('soak.pg-a.1', 200)])).toEqual([expect.stringContaining('billed twice 1')]);
  });

  it('catch a call billed though it was answered with an error, and credits a trace did not name', async () => {
    expect(await failed(books([['soak.pg-a.1', 1]], 1), [call('soak.pg-a.1', 503)])).toEqual([
      expect.stringContaining('answered calls\' 0'),
      expect.stringContaining('answered with an error: 1'),
    ]);
    expect(await failed(books([['soak.pg-a.1', 3]], 3), [call('soak.pg-a.1', 200, 2)])).toEqual([expect.stringContaining('(1 differ)')]);
  });

  it('catch a ledger that differs from its events, and a reservation left', async () => {
    expect(await failed(books([['soak.pg-a.1', 1]], 2), [call('soak.pg-a.1', 200)])).toEqual([expect.stringContaining('credits used 2')]);
    expect(await failed(books([['soak.pg-a.1', 1]], 1, 1), [call('soak.pg-a.1', 200)])).toEqual([expect.stringContaining('reservations left: 1')]);
  });
});
