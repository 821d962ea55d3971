import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORAGE_BACKENDS } from '../support/backends.js';
import { ManualClock } from '../../src/lib/clock.js';
import { startTestServer, type TestServer } from '../support/server.js';

/**
 * A call whose settle is refused (its usage event cannot be written) was answered after its
 * reservation was made (issue 37), so it is billed anyway: the writer gives the settle up, and the
 * reservation, which carries the call, is settled from itself by the sweep. Its answer may be
 * cached: it was paid for, once.
 */
describe.each(STORAGE_BACKENDS)('a call whose settle is refused is billed from its reservation (%s)', (backend) => {
  let server: TestServer;
  let auth: Record<string, string>;
  let accountId: string;
  beforeAll(async () => {
    // Generous provider timeout: a loaded machine must not turn an answer into a timeout (not cached).
    server = await startTestServer({ backend, redis: backend === 'postgres', clock: new ManualClock(), env: { PROVIDER_TIMEOUT_MS: '10000' } });
    const account = await server.createAccount({ plan: 'starter' });
    accountId = account.accountId;
    auth = { authorization: `Bearer ${account.key}` };
  });
  afterAll(async () => server.close());

  /** Runs `call` while usage events cannot be written, until its background settle was given up. */
  async function withEventsBroken<T>(call: () => Promise<T>): Promise<T> {
    const { db } = server.services.database;
    await sql`ALTER TABLE usage_events RENAME TO usage_events_away`.execute(db);
    try {
      const result = await call();
      await server.services.ledger.idle();
      return result;
    } finally {
      await sql`ALTER TABLE usage_events_away RENAME TO usage_events`.execute(db);
    }
  }

  const events = () => server.services.database.db.selectFrom('usage_events').select(['credits', 'query']).where('account_id', '=', accountId).execute();

  it.each([
    ['/v1/validate', { query: 'Damrak 1, 1012 LG Amsterdam', country: 'NL' }],
    ['/v1/autocomplete', { query: 'Keizersgr', country: 'NL' }],
  ])('%s', async (path, body) => {
    const eventsBefore = (await events()).length;
    const answered = await withEventsBroken(() => server.post(path, body, auth));
    expect(answered.status).toBe(200);
    const used = (await server.services.ledger.balance(accountId)).usedThisMonth;
    expect(await server.services.ledger.heldReservations()).toBe(1);
    // Older than any request: the sweep settles it from itself, at what it reserved.
    const { clock } = server.services;
    (clock as ManualClock).advance(server.services.config.RESERVATION_MAX_AGE_MS + 1000);
    expect(await server.services.sweeper.sweep()).toBe(1);
    expect(await server.services.ledger.heldReservations()).toBe(0);
    expect((await server.services.ledger.balance(accountId)).usedThisMonth).toBe(used);
    const rows = await events();
    expect(rows).toHaveLength(eventsBefore + 1);
    expect(rows.reduce((sum, r) => sum + Number(r.credits), 0)).toBe(used);
  });
});
