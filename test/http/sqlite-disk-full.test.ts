import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/lib/clock.js';
import { captureLogs } from '../support/log-capture.js';
import { startTestServer, type TestServer } from '../support/server.js';

/**
 * The SQLite disk filling up under a running service (found by `npm run bench:soak`): SQLite rolls
 * the failed transaction back by itself, and the ROLLBACK the driver sent after it used to fail
 * with "no transaction is active", hiding SQLITE_FULL, so keyed calls answered 500. A page limit
 * on the service's own connection stands in for the disk (the same SQLITE_FULL, the same
 * automatic rollback); the soak does it with a real tmpfs.
 */
const UNAVAILABLE = { message: 'Service temporarily unavailable: try again shortly' };

describe('SQLite disk full', () => {
  let server: TestServer;
  let logs: ReturnType<typeof captureLogs>;
  let clock: ManualClock;

  beforeEach(async () => {
    logs = captureLogs('warn');
    clock = new ManualClock();
    server = await startTestServer({ backend: 'sqlite', logger: logs.logger, clock, providers: 'pdok' });
  });
  afterEach(async () => {
    await server.close();
  });

  const db = () => server.services.database.db;
  /** Every page the file may have taken, and every free one, used up by a filler table. */
  async function fillDisk(): Promise<void> {
    await sql`create table filler (x text)`.execute(db());
    const { page_count: pages } = (await sql<{ page_count: number }>`pragma page_count`.execute(db())).rows[0]!;
    await sql.raw(`pragma max_page_count = ${pages}`).execute(db());
    await expect(
      (async () => {
        for (let i = 0; i < 10_000; i++) await sql`insert into filler values (${'x'.repeat(2000)})`.execute(db());
      })(),
    ).rejects.toMatchObject({ code: 'SQLITE_FULL' });
  }
  const freeDisk = () => sql.raw('pragma max_page_count = 1073741823').execute(db());

  async function books() {
    const one = async (text: string) => Number((await sql<{ n: number | null }>`${sql.raw(text)}`.execute(db())).rows[0]!.n ?? 0);
    return {
      used: await one('select sum(used_grant + used_extra) as n from credit_months'),
      held: await one('select sum(grant_amount + extra_amount) as n from credit_reservations'),
      events: await one('select count(*) as n from usage_events'),
      eventCredits: await one('select sum(credits) as n from usage_events'),
    };
  }

  it('answers 503 with Retry-After, writes nothing half, and takes calls again once space returns, without a restart', async () => {
    const { key } = await server.createAccount({ plan: 'starter' });
    const auth = { authorization: `Bearer ${key}` };
    const validate = (i: number) => server.post('/v1/validate', { query: `Damrak ${i}, Amsterdam`, country: 'NL', source: `${i}`.padStart(64, 's') }, auth);
    expect((await validate(1)).status).toBe(200);
    const before = await books();

    await fillDisk();
    // One call after another until the ledger needs a page the disk lacks (the same call each run).
    const statuses: number[] = [];
    for (let i = 2; i < 60 && !statuses.includes(503); i++) {
      const res = await validate(i);
      statuses.push(res.status);
      if (res.status === 503) {
        expect(res.headers.get('retry-after')).toBe('5');
        expect(await res.json()).toEqual(UNAVAILABLE);
      }
    }
    expect(statuses.filter((s) => s !== 200 && s !== 503)).toEqual([]);
    expect(statuses).toContain(503);
    expect(logs.messages('unhandled error')).toEqual([]);

    await freeDisk();
    expect((await validate(1000)).status).toBe(200);
    // Settles that met the full disk were retried in the background until space returned.
    await server.services.ledger.idle();
    // A reservation whose release met the full disk waits for the sweeper.
    clock.advance(server.services.config.RESERVATION_MAX_AGE_MS + 1);
    await server.services.sweeper.sweep();
    const after = await books();
    // Every 200 billed once, the 503 not at all.
    expect(after.events).toBe(before.events + statuses.filter((s) => s === 200).length + 1);
    expect(after.held).toBe(0);
    expect(after.used).toBe(after.eventCredits);
  });
});
