import { AccountStore } from '../src/accounts/accounts.js';
import { SecretKeyStore } from '../src/accounts/secret-keys.js';
import { loadConfig } from '../src/config.js';
import { systemClock } from '../src/lib/clock.js';
import { resolveMasterKey } from '../src/lib/master-key.js';
import { Sealer } from '../src/lib/seal.js';
import { type Database, openDatabase } from '../src/store/db/database.js';
import { type Emulator, startNominatimEmulator, startPdokEmulator, startPhotonEmulator } from '../test/emulators/index.js';
import { createSandbox, type Sandbox, type StorageBackend } from '../test/support/backends.js';
import { type ChildServer, startChildServer } from '../test/support/child-server.js';
import { startTcpProxy } from '../test/support/tcp-proxy.js';

/**
 * `npm run bench:crash`: the figures of issue 14 for money and outages, with real server processes.
 *  1. kill -9 under load (16 clients, providers answering in 100 ms), three times per backend:
 *     credits held by the dead process, and after a restart with the same INSTANCE_ID.
 *  2. PostgreSQL, two instances: kill -9 one under load; how long until the survivor's sweeper has
 *     released everything (default RESERVATION_MAX_AGE_MS and RESERVATION_SWEEP_MS).
 *  3. PostgreSQL behind a proxy: five simultaneous validates while it refuses connections, and
 *     while it accepts and never answers; the first 200 after it is back.
 */
const open = (sandbox: Sandbox): Promise<Database> =>
  openDatabase({ dataDir: sandbox.dataDir, ...(sandbox.databaseUrl ? { databaseUrl: sandbox.databaseUrl, schema: sandbox.schema! } : {}) });

async function heldCredits(database: Database): Promise<{ rows: number; credits: number }> {
  const rows = await database.db.selectFrom('credit_reservations').select(['grant_amount', 'extra_amount']).execute();
  return { rows: rows.length, credits: rows.reduce((sum, r) => sum + Number(r.grant_amount) + Number(r.extra_amount), 0) };
}

async function booksBalance(database: Database): Promise<boolean> {
  const months = await database.db.selectFrom('credit_months').select(['used_grant', 'used_extra']).execute();
  const events = await database.db.selectFrom('usage_events').select('credits').execute();
  const held = await heldCredits(database);
  const charged = months.reduce((sum, m) => sum + Number(m.used_grant) + Number(m.used_extra), 0);
  return charged === events.reduce((sum, e) => sum + Number(e.credits), 0) + held.credits;
}

async function setUp(backend: StorageBackend, emulators: Emulator[]) {
  const sandbox = await createSandbox(backend);
  const database = await open(sandbox);
  const sealer = new Sealer(resolveMasterKey(sandbox.env.MASTER_KEY, sandbox.dataDir));
  const accountId = (await new AccountStore(database.db, systemClock).create({ plan: 'scale' })).id;
  const key = (await new SecretKeyStore(database.db, sealer, systemClock).create(accountId, 'live')).key;
  const [pdok, photon, nominatim] = emulators as [Emulator, Emulator, Emulator];
  const env = { ...sandbox.env, PROVIDERS: 'pdok,photon,nominatim', PDOK_URL: pdok.url, PHOTON_URL: photon.url, NOMINATIM_URL: nominatim.url };
  return { sandbox, database, key, env };
}

/**
 * `clients` loops of validate calls with fresh queries; resolves `warm` once `answers` calls were
 * answered (the server is busy for real), `stop` ends the loops (errors of a dying server ignored).
 */
function load(url: string, key: string, clients: number, answers = 60) {
  let stopped = false;
  let n = 0;
  let answered = 0;
  let warmed: () => void = () => undefined;
  const warm = new Promise<void>((resolve) => (warmed = resolve));
  const loops = Array.from({ length: clients }, async () => {
    while (!stopped) {
      await fetch(`${url}/v1/validate`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ query: `Damrak ${++n}, 1012 LG Amsterdam`, country: 'NL' }),
      })
        .then(async (res) => {
          await res.arrayBuffer();
          if (res.status === 200 && ++answered >= answers) warmed();
        })
        .catch(() => undefined);
    }
  });
  return {
    warm,
    async stop() {
      stopped = true;
      await Promise.all(loops);
    },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function killUnderLoad(backend: StorageBackend, emulators: Emulator[]): Promise<void> {
  const { sandbox, database, key, env } = await setUp(backend, emulators);
  const instance = { ...env, INSTANCE_ID: 'bench-crash' };
  try {
    for (let round = 1; round <= 3; round++) {
      const server = await startChildServer(instance);
      const traffic = load(server.url, key, 16);
      await traffic.warm;
      await server.kill('SIGKILL');
      await traffic.stop();
      const dead = await heldCredits(database);
      const started = performance.now();
      const again = await startChildServer(instance);
      const ready = performance.now() - started;
      const after = await heldCredits(database);
      console.log(
        `${backend.padEnd(8)} crash ${round}: held ${String(dead.credits).padStart(3)} credits in ${dead.rows} reservations → ${after.credits} after the restart (listening in ${(ready / 1000).toFixed(1)} s); ledger = events: ${await booksBalance(database)}`,
      );
      await again.kill('SIGTERM');
    }
  } finally {
    await database.close();
    await sandbox.cleanup();
  }
}

async function peerSweep(emulators: Emulator[]): Promise<void> {
  const { sandbox, database, key, env } = await setUp('postgres', emulators);
  try {
    const survivor = await startChildServer({ ...env, INSTANCE_ID: 'bench-survivor' });
    const victim = await startChildServer({ ...env, INSTANCE_ID: 'bench-victim' });
    const traffic = load(victim.url, key, 16);
    await traffic.warm;
    await victim.kill('SIGKILL');
    const killedAt = performance.now();
    await traffic.stop();
    const dead = await heldCredits(database);
    while ((await heldCredits(database)).rows > 0) await sleep(100);
    const after = (performance.now() - killedAt) / 1000;
    const defaults = loadConfig({});
    console.log(
      `postgres peer sweep: ${dead.credits} credits held by the killed instance, released by the survivor ${after.toFixed(1)} s after the kill (max age ${defaults.RESERVATION_MAX_AGE_MS / 1000} s + a sweep every ${defaults.RESERVATION_SWEEP_MS / 1000} s); ledger = events: ${await booksBalance(database)}`,
    );
    await survivor.kill('SIGTERM');
  } finally {
    await database.close();
    await sandbox.cleanup();
  }
}

async function outage(emulators: Emulator[]): Promise<void> {
  const { sandbox, database, key, env } = await setUp('postgres', emulators);
  const proxy = await startTcpProxy({ host: '127.0.0.1', port: 5432 });
  const url = new URL(sandbox.databaseUrl!);
  url.port = String(proxy.port);
  let server: ChildServer | undefined;
  const five = async () => {
    const started = performance.now();
    const statuses = await Promise.all(
      Array.from({ length: 5 }, () =>
        fetch(`${server!.url}/v1/validate`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ query: `Damrak ${Math.random()}`, country: 'NL' }),
        }).then((res) => res.status),
      ),
    );
    return `${statuses.join(',')} in ${(performance.now() - started).toFixed(0)} ms`;
  };
  try {
    server = await startChildServer({ ...env, DATABASE_URL: url.toString(), INSTANCE_ID: 'bench-outage' });
    console.log(`postgres up:                       5 simultaneous validates → ${await five()}`);
    await proxy.cut();
    console.log(`postgres refusing connections:     5 simultaneous validates → ${await five()}`);
    await proxy.blackhole();
    console.log(`postgres accepting, never answering: 5 simultaneous validates → ${await five()} (DATABASE_CONNECT_TIMEOUT_MS 5000)`);
    await proxy.restore();
    const back = performance.now();
    console.log(`postgres back:                     5 simultaneous validates → ${await five()} (${(performance.now() - back).toFixed(0)} ms after the restore)`);
    console.log(`process still the same one: ${server.child.exitCode === null}`);
  } finally {
    await server?.kill('SIGTERM');
    await proxy.close();
    await database.close();
    await sandbox.cleanup();
  }
}

export async function benchCrash(): Promise<void> {
  const emulators = await Promise.all([startPdokEmulator(), startPhotonEmulator(), startNominatimEmulator()]);
  for (const emulator of emulators) emulator.setFault({ mode: 'slow', delayMs: 100 });
  try {
    await killUnderLoad('sqlite', emulators);
    await killUnderLoad('postgres', emulators);
    await peerSweep(emulators);
    await outage(emulators);
  } finally {
    await Promise.all(emulators.map((e) => e.close()));
  }
}
