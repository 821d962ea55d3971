import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountStore } from '../../src/accounts/accounts.js';
import { SecretKeyStore } from '../../src/accounts/secret-keys.js';
import { CreditLedger } from '../../src/billing/credit-ledger.js';
import { ManualClock, systemClock } from '../../src/lib/clock.js';
import { resolveMasterKey } from '../../src/lib/master-key.js';
import { Sealer } from '../../src/lib/seal.js';
import { type Database, openDatabase } from '../../src/store/db/database.js';
import { type Emulator, startNominatimEmulator, startPdokEmulator, startPhotonEmulator } from '../emulators/index.js';
import { createSandbox, type Sandbox, STORAGE_BACKENDS } from '../support/backends.js';
import { type ChildServer, startChildServer } from '../support/child-server.js';
import { startTestServer } from '../support/server.js';
import { waitFor } from '../support/wait-for.js';

/** Calls that reached the providers and hang there when the process is killed. */
const HUNG = 8;

const open = (sandbox: Sandbox) =>
  openDatabase({
    dataDir: sandbox.dataDir,
    ...(sandbox.databaseUrl ? { databaseUrl: sandbox.databaseUrl } : {}),
    ...(sandbox.schema ? { schema: sandbox.schema } : {}),
  });

/** The books of one account: what the ledger charged, what the events say, what is still held. */
async function books(database: Database, accountId: string) {
  const months = await database.db.selectFrom('credit_months').select(['used_grant', 'used_extra']).where('account_id', '=', accountId).execute();
  const events = await database.db.selectFrom('usage_events').select(['query', 'credits']).where('account_id', '=', accountId).execute();
  const held = await database.db.selectFrom('credit_reservations').select(['grant_amount', 'extra_amount', 'endpoint']).where('account_id', '=', accountId).execute();
  return {
    charged: months.reduce((sum, m) => sum + Number(m.used_grant) + Number(m.used_extra), 0),
    eventCredits: events.reduce((sum, e) => sum + Number(e.credits), 0),
    queries: events.map((e) => e.query),
    heldCredits: held.reduce((sum, r) => sum + Number(r.grant_amount) + Number(r.extra_amount), 0),
    held: held.length,
    heldCalls: held.filter((r) => r.endpoint === '/v1/validate').length,
  };
}

/**
 * `kill -9` of a real server process under load, then a new process with the same INSTANCE_ID:
 * the reservations the dead one held are settled from themselves at start (each carries its call:
 * it may have been answered, its settle not yet written), the ledger equals the sum of the usage
 * events' credits, and every 200 the clients saw was billed exactly once.
 */
describe.each(STORAGE_BACKENDS)('kill -9 under load, then a restart (%s)', (backend) => {
  let sandbox: Sandbox;
  let emulators: Emulator[];
  let key: string;
  let accountId: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    sandbox = await createSandbox(backend);
    emulators = await Promise.all([startPdokEmulator(), startPhotonEmulator(), startNominatimEmulator()]);
    const [pdok, photon, nominatim] = emulators as [Emulator, Emulator, Emulator];
    const database = await open(sandbox);
    const sealer = new Sealer(resolveMasterKey(sandbox.env.MASTER_KEY, sandbox.dataDir));
    accountId = (await new AccountStore(database.db, systemClock).create({ plan: 'growth' })).id;
    key = (await new SecretKeyStore(database.db, sealer, systemClock).create(accountId, 'live')).key;
    await database.close();
    env = {
      ...sandbox.env,
      PROVIDERS: 'pdok,photon,nominatim',
      PDOK_URL: pdok.url,
      PHOTON_URL: photon.url,
      NOMINATIM_URL: nominatim.url,
      // Far beyond the test: a hung provider call is still in flight when the process dies.
      PROVIDER_TIMEOUT_MS: '30000',
      INSTANCE_ID: `crash-${sandbox.id}`,
      // Only the restart may release here: no sweep, no age limit within the test.
      RESERVATION_SWEEP_MS: '3600000',
      RESERVATION_MAX_AGE_MS: '3600000',
    };
  });
  afterAll(async () => {
    await Promise.all(emulators.map((e) => e.close()));
    await sandbox.cleanup();
  });

  it('settles what the dead process held from its reservations, at once, and keeps the books exact', async () => {
    const first = await startChildServer(env);
    const [pdok] = emulators as [Emulator];
    // The start-up reachability probe is a PDOK request too: wait until it was made (its line is
    // logged), so the count of calls in flight below holds only lookups.
    await waitFor(() => first.logs.some((l) => l.msg.startsWith('provider pdok')), 'the reachability line of pdok', 60_000);
    const served: string[] = [];
    const refused: string[] = [];
    let sent = 0;
    let killed = false;
    const worker = async () => {
      while (!killed) {
        const query = `Damrak ${++sent}, 1012 LG Amsterdam`;
        try {
          const res = await fetch(`${first.url}/v1/validate`, {
            method: 'POST',
            headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
            body: JSON.stringify({ query, country: 'NL' }),
          });
          if (res.status === 200) served.push(query);
          else refused.push(`${res.status} ${await res.text()}`);
        } catch {
          // The connection died with the process: this call was in flight.
        }
      }
    };
    const workers = Array.from({ length: 12 }, () => worker());
    await waitFor(() => served.length >= 30, 'thirty answers', 60_000);
    // Now the providers stop answering: every call that reaches them holds its reservation
    // (reserved before the fan-out) when the process dies.
    for (const emulator of emulators) emulator.setFault({ mode: 'hang' });
    const reached = pdok.requests.length;
    await waitFor(() => pdok.requests.length >= reached + HUNG, 'calls in flight', 60_000);
    await first.kill('SIGKILL');
    killed = true;
    await Promise.all(workers);
    expect(refused).toEqual([]);

    const database = await open(sandbox);
    try {
      const crashed = await books(database, accountId);
      // The situation of the issue: credits held by calls that will never settle (3 providers each).
      expect(crashed.heldCredits).toBeGreaterThanOrEqual(3 * HUNG);
      expect(crashed.charged).toBe(crashed.eventCredits + crashed.heldCredits);
      // Every reservation a call left carries the call, so recovery can write its event.
      expect(crashed.heldCalls).toBe(crashed.held);

      for (const emulator of emulators) emulator.setFault({ mode: 'none' });
      const second = await startChildServer(env);
      try {
        // Settled during start-up, before the first request: no sweep, no age limit involved.
        const restarted = await books(database, accountId);
        expect(restarted.heldCredits).toBe(0);
        expect(restarted.charged).toBe(crashed.charged);
        expect(restarted.charged).toBe(restarted.eventCredits);
        expect(second.logs.find((l) => l.msg.startsWith('recovered credit reservations left by this instance'))).toBeDefined();
        // One event per recovered reservation, at its reserved amount; its query died with the process.
        expect(restarted.queries.filter((q) => q === null)).toHaveLength(crashed.held);
        expect(restarted.eventCredits - crashed.eventCredits).toBe(crashed.heldCredits);

        // Every answer a client saw was billed, once: by its own event, or — answered, its settle
        // not yet written when the process died — by the event recovered from its reservation. An
        // event without an answer is a call that settled (or was recovered) with its response lost.
        const billed = new Map<string, number>();
        for (const query of restarted.queries) if (query !== null) billed.set(query, (billed.get(query) ?? 0) + 1);
        expect([...billed.values()].every((n) => n === 1)).toBe(true);
        const byRecovery = served.filter((query) => !billed.has(query));
        expect(byRecovery.length).toBeLessThanOrEqual(crashed.held);
        expect(restarted.queries.length - served.length).toBeGreaterThanOrEqual(0);
        expect(restarted.queries.length - served.length).toBeLessThanOrEqual(12);

        const res = await fetch(`${second.url}/v1/validate`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ query: 'Damrak 1, 1012 LG Amsterdam', country: 'NL' }),
        });
        expect(res.status).toBe(200);
        // The answer went before its settle was written; GET /v1/usage reads after this instance's writes.
        const usage = await fetch(`${second.url}/v1/usage`, { headers: { authorization: `Bearer ${key}` } });
        expect(usage.status).toBe(200);
        const after = await books(database, accountId);
        expect(after.charged).toBe(after.eventCredits);
        expect(after.heldCredits).toBe(0);
      } finally {
        await second.kill('SIGTERM');
      }
    } finally {
      await database.close();
    }
  }, 300_000);
});

describe.each(STORAGE_BACKENDS)('reservations of a running server (%s)', (backend) => {
  it('any running instance releases a stopped instance\'s stale reservations within its sweep interval', async () => {
    const clock = new ManualClock();
    const server = await startTestServer({ backend, clock, env: { RESERVATION_SWEEP_MS: '20' } });
    try {
      const { accountId } = await server.createAccount({ plan: 'free' });
      const peer = new CreditLedger(server.services.database, clock, { owner: 'peer-that-died' });
      expect(await peer.reserve(accountId, 3)).toMatchObject({ total: 3 });
      const { sweeper, ledger, config } = server.services;
      // Young: a running call, left alone.
      expect(await sweeper.nextSweep()).toBe(0);
      clock.advance(config.RESERVATION_MAX_AGE_MS + 1000);
      expect(await sweeper.nextSweep()).toBe(1);
      expect(await ledger.heldReservations()).toBe(0);
      expect(await ledger.balance(accountId)).toMatchObject({ usedThisMonth: 0, available: 500 });
    } finally {
      await server.close();
    }
  }, 60_000);

  /** The events of an account as recovery writes them. */
  const recoveredEvents = (server: { services: { database: Database } }, accountId: string) =>
    server.services.database.db
      .selectFrom('usage_events')
      .select(['credential_id', 'env', 'endpoint', 'source', 'credits', 'query', 'verdict', 'cached'])
      .where('account_id', '=', accountId)
      .execute();
  const call = { credentialId: 'key_dead', env: 'live', endpoint: '/v1/validate', source: 'crm.42' };
  const asRecovered = { credential_id: 'key_dead', env: 'live', endpoint: '/v1/validate', source: 'crm.42', credits: 3, query: null, verdict: null, cached: 0 };

  it('the sweep settles a stopped instance\'s stale reservation that carries its call: charged once, its event with its source', async () => {
    const clock = new ManualClock();
    const server = await startTestServer({ backend, clock, env: { RESERVATION_SWEEP_MS: '20' } });
    try {
      const { accountId } = await server.createAccount({ plan: 'free' });
      // A call answered by an instance that died before its settle was written.
      const peer = new CreditLedger(server.services.database, clock, { owner: 'peer-that-died' });
      expect(await peer.reserve(accountId, 3, call)).toMatchObject({ total: 3 });
      const { sweeper, ledger, config } = server.services;
      expect(await sweeper.nextSweep()).toBe(0);
      clock.advance(config.RESERVATION_MAX_AGE_MS + 1000);
      expect(await sweeper.nextSweep()).toBe(1);
      expect(await sweeper.nextSweep()).toBe(0);
      expect(await ledger.heldReservations()).toBe(0);
      expect(await ledger.balance(accountId)).toMatchObject({ usedThisMonth: 3, available: 497 });
      expect((await recoveredEvents(server, accountId)).map((e) => ({ ...e, credits: Number(e.credits), cached: Number(e.cached) }))).toEqual([asRecovered]);
    } finally {
      await server.close();
    }
  }, 60_000);

  it('a restart with the same INSTANCE_ID settles its predecessor\'s reservation that carries its call, once', async () => {
    const clock = new ManualClock();
    const sandbox = await createSandbox(backend);
    try {
      const first = await startTestServer({ backend, clock, sandbox, env: { INSTANCE_ID: 'instance-1' } });
      const { accountId } = await first.createAccount({ plan: 'free' });
      await first.services.ledger.reserve(accountId, 3, call);
      await first.close();
      const again = await startTestServer({ backend, clock, sandbox, env: { INSTANCE_ID: 'instance-1' } });
      try {
        expect(await again.services.ledger.heldReservations()).toBe(0);
        expect(await again.services.ledger.balance(accountId)).toMatchObject({ usedThisMonth: 3 });
        expect((await recoveredEvents(again, accountId)).map((e) => ({ ...e, credits: Number(e.credits), cached: Number(e.cached) }))).toEqual([asRecovered]);
        // Nothing left to settle twice: a second recovery finds nothing.
        expect(await again.services.ledger.releaseOwn()).toBe(0);
        expect(await recoveredEvents(again, accountId)).toHaveLength(1);
      } finally {
        await again.close();
      }
    } finally {
      await sandbox.cleanup();
    }
  }, 120_000);

  it('a restart with the same INSTANCE_ID recovers its predecessor\'s at once; another id leaves them to age', async () => {
    const clock = new ManualClock();
    const sandbox = await createSandbox(backend);
    try {
      const first = await startTestServer({ backend, clock, sandbox, env: { INSTANCE_ID: 'instance-1' } });
      const { accountId } = await first.createAccount({ plan: 'free' });
      // Reserved by instance-1, which then stops without settling (its process died).
      await first.services.ledger.reserve(accountId, 3);
      await first.close();

      const other = await startTestServer({ backend, clock, sandbox, env: { INSTANCE_ID: 'instance-2' } });
      expect(await other.services.ledger.heldReservations()).toBe(1);
      await other.close();
      const again = await startTestServer({ backend, clock, sandbox, env: { INSTANCE_ID: 'instance-1' } });
      expect(await again.services.ledger.heldReservations()).toBe(0);
      expect(await again.services.ledger.balance(accountId)).toMatchObject({ usedThisMonth: 0 });
      await again.close();
    } finally {
      await sandbox.cleanup();
    }
  }, 120_000);
});
