import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORAGE_BACKENDS } from '../support/backends.js';
import { startTestServer, type TestServer } from '../support/server.js';

/**
 * A call whose settle fails (its usage event cannot be written) was not billed, so its answer
 * must not be cached: a cached answer is served free, and before, the same query was then served
 * `cached: true` for 30 days without ever being paid for.
 */
describe.each(STORAGE_BACKENDS)('nothing cached for a call that was not billed (%s)', (backend) => {
  let server: TestServer;
  let auth: Record<string, string>;
  let accountId: string;
  beforeAll(async () => {
    // Generous provider timeout: a loaded machine must not turn an answer into a timeout (not cached).
    server = await startTestServer({ backend, redis: backend === 'postgres', env: { PROVIDER_TIMEOUT_MS: '10000' } });
    const account = await server.createAccount({ plan: 'starter' });
    accountId = account.accountId;
    auth = { authorization: `Bearer ${account.key}` };
  });
  afterAll(async () => server.close());

  /** Runs `call` while usage events cannot be written: every settle fails in its transaction. */
  async function withEventsBroken<T>(call: () => Promise<T>): Promise<T> {
    const { db } = server.services.database;
    await sql`ALTER TABLE usage_events RENAME TO usage_events_away`.execute(db);
    try {
      return await call();
    } finally {
      await sql`ALTER TABLE usage_events_away RENAME TO usage_events`.execute(db);
    }
  }

  it.each([
    ['/v1/validate', { query: 'Damrak 1, 1012 LG Amsterdam', country: 'NL' }],
    ['/v1/autocomplete', { query: 'Keizersgr', country: 'NL' }],
  ])('%s', async (path, body) => {
    const failed = await withEventsBroken(() => server.post(path, body, auth));
    expect(failed.status).toBe(500);
    const before = (await server.services.ledger.balance(accountId)).usedThisMonth;

    const again = await server.post(path, body, auth);
    expect(again.status).toBe(200);
    expect(((await again.json()) as { cached: boolean }).cached).toBe(false);
    expect((await server.services.ledger.balance(accountId)).usedThisMonth).toBeGreaterThan(before);
    // Now it was paid for, the next one is a cache hit.
    expect(((await (await server.post(path, body, auth)).json()) as { cached: boolean }).cached).toBe(true);
    expect(await server.services.ledger.heldReservations()).toBe(0);
  });
});
