import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { startRedisProcess } from '../../test/support/redis-process.js';
import { freePort } from '../compare/processes.js';
import { startPostgresCluster } from './postgres-cluster.js';
import { createAccount } from './setup.js';

/**
 * `npm run bench:start -- [--store sqlite|postgres|both] [--runs N] [--profile DIR]` (issue 37):
 * how long a restarted instance takes to answer. Spawns the compiled service (`node dist/main.js`,
 * as `npm start` and the soak's restarts run it) `runs` times per store and times, from the spawn,
 * the first 200 on /healthz and the first 200 on a billed validate (a local-index query, so no
 * provider's latency is in it), each polled every 10 ms. PostgreSQL and Redis are the soak's own
 * (a throw-away cluster, a redis-server); with `--profile` each start also writes a CPU profile
 * (`node --cpu-prof`), stopped once it answered the validate.
 */
interface Timing {
  healthMs: number;
  validateMs: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function firstOk(url: string, init: RequestInit | undefined, spawned: number, child: ChildProcess): Promise<number> {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the service exited (${child.exitCode}) before answering ${url}`);
    try {
      const res = await fetch(url, { ...init, signal: AbortSignal.timeout(10_000) });
      await res.arrayBuffer();
      if (res.status === 200) return performance.now() - spawned;
    } catch {
      // not listening yet
    }
    await sleep(10);
  }
}

async function timeStart(env: Record<string, string>, key: string, profileDir: string | undefined): Promise<Timing> {
  const port = await freePort();
  const args = [...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []), 'dist/main.js'];
  const spawned = performance.now();
  const child = spawn(process.execPath, args, { env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'inherit'] });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    const base = `http://127.0.0.1:${port}`;
    const validate = {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'Hauptstraße 12, 10115 Berlin', country: 'DE' }),
    };
    const [healthMs, validateMs] = await Promise.all([firstOk(`${base}/healthz`, undefined, spawned, child), firstOk(`${base}/v1/validate`, validate, spawned, child)]);
    return { healthMs, validateMs };
  } finally {
    // SIGINT: a profiled process writes its profile on a clean exit.
    child.kill(profileDir ? 'SIGINT' : 'SIGKILL');
    await exited;
  }
}

export async function benchStart(argv: string[]): Promise<void> {
  const { values } = parseArgs({ args: argv, options: { store: { type: 'string', default: 'both' }, runs: { type: 'string', default: '5' }, profile: { type: 'string' } } });
  const runs = Number(values.runs);
  const stores = values.store === 'both' ? ['sqlite', 'postgres'] : [values.store];
  if (!(runs >= 1) || stores.some((s) => s !== 'sqlite' && s !== 'postgres')) throw new Error('usage: bench:start -- [--store sqlite|postgres|both] [--runs N] [--profile DIR]');
  await promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/build.ts']);
  const work = mkdtempSync(path.join(tmpdir(), 'addressd-start-'));
  const stops: (() => Promise<void>)[] = [async () => rmSync(work, { recursive: true, force: true })];
  try {
    const masterKey = randomBytes(32).toString('base64url');
    const common = { MASTER_KEY: masterKey, PROVIDERS: 'local' };
    for (const store of stores) {
      let env: Record<string, string>;
      let key: string;
      if (store === 'postgres') {
        const cluster = await startPostgresCluster();
        stops.push(() => cluster.destroy());
        const redis = await startRedisProcess();
        stops.push(() => redis.stop());
        env = { ...common, DATABASE_URL: cluster.url, REDIS_URL: redis.url, DATA_DIR: path.join(work, 'pg') };
        key = (await createAccount({ dataDir: work, databaseUrl: cluster.url }, masterKey)).live;
      } else {
        env = { ...common, DATA_DIR: path.join(work, 'sqlite') };
        mkdirSync(env.DATA_DIR!, { recursive: true });
        key = (await createAccount({ dataDir: env.DATA_DIR! }, masterKey)).live;
      }
      // One start first that is not counted: it creates what a restart finds already there.
      await timeStart(env, key, undefined);
      const timings: Timing[] = [];
      for (let i = 0; i < runs; i++) timings.push(await timeStart(env, key, values.profile ? path.join(values.profile, store) : undefined));
      const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
      const ms = (xs: number[]) => `median ${median(xs).toFixed(0)} ms (${xs.map((x) => x.toFixed(0)).join(', ')})`;
      console.log(`${store}: spawn → first 200 on /healthz ${ms(timings.map((t) => t.healthMs))}`);
      console.log(`${store}: spawn → first 200 on a validate ${ms(timings.map((t) => t.validateMs))}`);
      console.log(`  load average ${loadavg().map((l) => l.toFixed(2)).join(', ')}`);
    }
  } finally {
    for (const stop of stops.reverse()) await stop().catch((error: unknown) => console.error(`bench:start cleanup: ${String(error)}`));
  }
}
