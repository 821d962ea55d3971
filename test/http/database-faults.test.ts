import pg from 'pg';
import { ManualClock } from '../../src/lib/clock.js';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createSandbox, POSTGRES_URL, type Sandbox } from '../support/backends.js';
import { captureLogs } from '../support/log-capture.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.js';
import { waitFor } from '../support/wait-for.js';

/**
 * PostgreSQL behind a TCP proxy the test cuts, silences and restores, and whose backends it
 * terminates: the process stays up, keyed endpoints answer 503 with Retry-After while the
 * database is away (nothing reserved, nothing half-written), and it recovers by itself.
 */
const UNAVAILABLE = { message: 'Service temporarily unavailable: try again shortly' };
const ADDRESS = { query: 'Damrak 1, 1012 LG Amsterdam', country: 'NL' };

describe('PostgreSQL faults', () => {
  let sandbox: Sandbox;
  let proxy: TcpProxy;
  let server: TestServer;
  let logs: ReturnType<typeof captureLogs>;
  let applicationName: string;
  let key: string;
  let accountId: string;
  let clock: ManualClock;

  beforeAll(async () => {
    sandbox = await createSandbox('postgres');
    proxy = await startTcpProxy({ host: '127.0.0.1', port: 5432 });
  });
  afterAll(async () => {
    await proxy.close();
    await sandbox.cleanup();
  });
  beforeEach(async () => {
    await proxy.restore();
    logs = captureLogs('warn');
    clock = new ManualClock();
    applicationName = `addressd_${sandbox.id}_${Math.random().toString(36).slice(2, 8)}`;
    const url = new URL(sandbox.databaseUrl!);
    url.port = String(proxy.port);
    url.searchParams.set('application_name', applicationName);
    server = await startTestServer({
      sandbox,
      // `local` too: the index keeps its own pool of warm connections.
      providers: 'pdok,photon,nominatim,local',
      logger: logs.logger,
      clock,
      env: { DATABASE_URL: url.toString(), DATABASE_CONNECT_TIMEOUT_MS: '2000' },
    });
    ({ key, accountId } = await server.createAccount({ plan: 'free' }));
  });
  afterEach(async () => {
    await proxy.restore();
    await server.close();
  });

  const auth = () => ({ authorization: `Bearer ${key}` });
  const validate = () => server.post('/v1/validate', ADDRESS, auth());

  async function admin<T extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<T[]> {
    const client = new pg.Client({ connectionString: POSTGRES_URL });
    client.on('error', () => undefined);
    await client.connect();
    try {
      return (await client.query<T>(text, values)).rows;
    } finally {
      await client.end();
    }
  }

  /** Ledger and events agree, and nothing is left reserved. */
  async function books() {
    const [used] = await admin<{ n: number }>(
      `SELECT coalesce(sum(used_grant + used_extra), 0)::int AS n FROM ${sandbox.schema}.credit_months WHERE account_id = $1`,
      [accountId],
    );
    const [events] = await admin<{ n: number; credits: number }>(
      `SELECT count(*)::int AS n, coalesce(sum(credits), 0)::int AS credits FROM ${sandbox.schema}.usage_events WHERE account_id = $1`,
      [accountId],
    );
    const [held] = await admin<{ n: number }>(`SELECT count(*)::int AS n FROM ${sandbox.schema}.credit_reservations`);
    return { used: used!.n, events: events!.n, eventCredits: events!.credits, reserved: held!.n };
  }

  it('survives PostgreSQL terminating every pooled connection, and answers the next requests', async () => {
    expect((await validate()).status).toBe(200);
    // Nothing of that call may still be running on a pooled connection when they are terminated
    // (a query in flight gets the error itself, and its client then raises no event to count
    // below): its settle, which waits in the background writer, and its key's use are written.
    await server.services.ledger.idle();
    await waitFor(
      async () => (await admin(`SELECT 1 FROM ${sandbox.schema}.api_keys WHERE account_id = $1 AND last_used_at IS NOT NULL`, [accountId])).length > 0,
      "the key's use to be recorded",
    );
    // Two statements: in one, PostgreSQL may call pg_terminate_backend on rows the WHERE has not filtered yet.
    const terminated = await admin<{ pid: number; state: string }>('SELECT pid, state FROM pg_stat_activity WHERE application_name = $1', [applicationName]);
    await admin('SELECT pg_terminate_backend(pid) FROM unnest($1::int[]) AS pid', [terminated.map((row) => row.pid)]);
    // The main pool and the local index's warm connections.
    expect(terminated.length).toBeGreaterThanOrEqual(2);
    // Each idle client hears its termination; without a listener that event ended the process.
    // (A client busy at that instant fails its query instead, and is dropped on release.)
    const idle = terminated.filter((row) => row.state === 'idle').length;
    await waitFor(() => logs.messages('database connection error').length >= idle, 'the pools to notice');

    expect((await validate()).status).toBe(200);
    const usage = await fetch(`${server.url}/v1/usage`, { headers: auth() });
    expect(usage.status).toBe(200);
    expect(await books()).toMatchObject({ events: 2, reserved: 0 });
  });

  it('answers 503 with Retry-After while PostgreSQL is unreachable, reserves nothing, and recovers by itself', async () => {
    expect((await validate()).status).toBe(200);
    const before = await books();
    await proxy.cut();

    // Its cache hit still answers: free, its usage event waits in the background writer.
    expect((await validate()).status).toBe(200);
    const uncached = () => server.post('/v1/validate', { query: 'Damrak 2, 1012 LG Amsterdam', country: 'NL' }, auth());
    const down = await Promise.all(Array.from({ length: 5 }, () => uncached()));
    for (const res of down) {
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('5');
      expect(await res.json()).toEqual(UNAVAILABLE);
    }
    for (const res of [
      await server.post('/v1/autocomplete', { query: 'Damrak 1' }, auth()),
      await fetch(`${server.url}/v1/usage`, { headers: auth() }),
    ]) {
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual(UNAVAILABLE);
    }
    expect(logs.messages('unhandled error')).toEqual([]);
    const notReady = await fetch(`${server.url}/readyz`);
    expect(notReady.status).toBe(503);
    expect(await notReady.json()).toEqual({ message: 'Not ready: the database does not answer' });

    await proxy.restore();
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    expect((await validate()).status).toBe(200);
    await server.services.ledger.idle();
    const after = await books();
    // Two more cache hits (one written once the database came back), no billed call: the 503s reserved and wrote nothing.
    expect(after.events).toBe(before.events + 2);
    expect(after.used).toBe(after.eventCredits);
    expect(after.reserved).toBe(0);
  });

  it('fails fast with 503 when the database host accepts connections and never answers', async () => {
    await proxy.blackhole();
    const res = await validate();
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual(UNAVAILABLE);
    expect((await fetch(`${server.url}/readyz`)).status).toBe(503);
    await proxy.restore();
    expect((await validate()).status).toBe(200);
  });

  it('a connection lost mid-request: the answer goes, its settle is written once the database is back, billed once', async () => {
    const [pdok, photon, nominatim] = [server.emulators.pdok, server.emulators.photon, server.emulators.nominatim];
    for (const emulator of [pdok, photon, nominatim]) emulator.setFault({ mode: 'slow', delayMs: 300 });
    const reached = pdok.requests.length;
    // The reservation's flush to disk runs beside the call (reserveOverlapped); the cut must come
    // after it, or the call rightly answers 503 (nothing is served on a reservation not on disk).
    const ledger = server.services.ledger;
    const reserveOverlapped = ledger.reserveOverlapped.bind(ledger);
    let durable: Promise<void> | undefined;
    ledger.reserveOverlapped = async (...args) => {
      const reserved = await reserveOverlapped(...args);
      durable = reserved?.durable;
      return reserved;
    };
    const pending = fetch(`${server.url}/v1/validate`, { method: 'POST', headers: { 'content-type': 'application/json', ...auth() }, body: JSON.stringify(ADDRESS) });
    // Reserved and on disk, now waiting for the providers: the database goes away under it.
    await waitFor(() => pdok.requests.length > reached && durable !== undefined, 'the call to reach the providers');
    await durable;
    ledger.reserveOverlapped = reserveOverlapped;
    await proxy.cut();
    const res = await pending;
    // Its reservation was made: the answer does not wait for the settle.
    expect(res.status).toBe(200);
    expect(server.services.ledger.pendingWrites).toBe(1);

    await proxy.restore();
    for (const emulator of [pdok, photon, nominatim]) emulator.setFault({ mode: 'none' });
    // The background writer retries until the settle commits: billed once, nothing held.
    await server.services.ledger.idle();
    expect(await books()).toMatchObject({ events: 1, reserved: 0, used: 3, eventCredits: 3 });
    const again = await validate();
    expect(again.status).toBe(200);
    expect(((await again.json()) as { cached: boolean }).cached).toBe(true);
    expect(await books()).toMatchObject({ events: 2, reserved: 0, used: 3 });
  });
});
