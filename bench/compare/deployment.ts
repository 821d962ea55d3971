import { randomBytes } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort, processTree, runNode, startNode, stop, waitReady } from './processes.js';

export const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
/**
 * Extra PostgreSQL session settings for the service's connections, a diagnostic only: e.g.
 * `-c synchronous_commit=off` shows what an answer's wait for the WAL flush costs on this disk
 * (docs/benchmarks.md). Never a recommendation: without the flush a database crash can lose a
 * reservation whose answer was served.
 */
const PG_OPTIONS = process.env.BENCH_PG_OPTIONS ?? '';

/** How the service is started: compiled (`npm run build` → dist/) or through the TypeScript loader. */
export type Runtime = 'dist' | 'tsx';

/** The checkout under test (this one by default; `--root` for an older commit side by side) and how to run it. */
export interface Target {
  root: string;
  runtime: Runtime;
}
export type StorageKind = 'embedded' | 'pg+redis';

const entry = ({ root, runtime }: Target, file: string) =>
  runtime === 'dist' ? [path.join(root, 'dist', `${file}.js`)] : ['--import', 'tsx', path.join(root, 'src', `${file}.ts`)];

/** One deployment's storage: a fresh DATA_DIR, and for scale-out a fresh PostgreSQL schema and Redis prefix. */
export interface Storage {
  kind: StorageKind;
  env: Record<string, string>;
  cleanup(): Promise<void>;
}

async function admin(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

export async function createStorage(kind: StorageKind): Promise<Storage> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'addressd-bench-'));
  const env: Record<string, string> = { DATA_DIR: dataDir, MASTER_KEY: randomBytes(32).toString('base64url') };
  if (kind === 'embedded') return { kind, env, cleanup: async () => rmSync(dataDir, { recursive: true, force: true }) };
  const schema = `bench_${randomBytes(5).toString('hex')}`;
  await admin(`CREATE SCHEMA ${schema}`);
  env.DATABASE_URL = `${PG_URL}?options=${encodeURIComponent([`-c search_path=${schema}`, PG_OPTIONS].filter(Boolean).join(' '))}`;
  env.REDIS_URL = REDIS_URL;
  env.REDIS_PREFIX = `bench:${schema}:`;
  return {
    kind,
    env,
    cleanup: async () => {
      await admin(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** What the load uses to authenticate: one secret key, and many widget tokens (each its own origin). */
export interface Credentials {
  key: string;
  widgets: { token: string; origin: string }[];
}

/**
 * A scale-plan account, its key and `tokens` publishable tokens, made by the checkout under test
 * (seed-process.ts). The widget is limited to 120 calls a minute per token and per origin (SPEC),
 * so its load is spread over many of both.
 */
export async function createCredentials(target: Target, storage: Storage, tokens: number): Promise<Credentials> {
  const line = await runNode(['--import', 'tsx', path.join(import.meta.dirname, 'seed-process.ts'), target.root, String(tokens)], storage.env);
  return JSON.parse(line) as Credentials;
}

export interface ImportFigures {
  rows: number;
  seconds: number;
  rate: number;
}

/** Imports a generated OpenAddresses file into the `local` index through the operator CLI, timed. */
export async function importLocal(target: Target, storage: Storage, csv: string): Promise<ImportFigures> {
  const started = performance.now();
  const line = await runNode(
    ['--max-semi-space-size=64', ...entry(target, 'cli/main'), 'import', csv, '--format', 'openaddresses', '--country', 'NL', '--json'],
    { ...storage.env, LOG_LEVEL: 'warn' },
  );
  const seconds = (performance.now() - started) / 1000;
  const rows = Number((JSON.parse(line) as { rows: number }).rows);
  return { rows, seconds, rate: rows / seconds };
}

export interface RunningApp {
  url: string;
  pid: number;
  processes: number;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** Starts the service (`node dist/main.js`, or src through tsx) and waits until it answers. */
export async function startApp(
  target: Target,
  env: Record<string, string>,
  options: { workers: number; profileDir?: string | undefined },
): Promise<RunningApp> {
  const port = await freePort();
  const flags = options.profileDir ? ['--cpu-prof', '--cpu-prof-dir', options.profileDir] : [];
  const child = startNode([...flags, ...entry(target, 'main')], {
    ...env,
    PORT: String(port),
    HOST: '127.0.0.1',
    WORKERS: String(options.workers),
    LOG_LEVEL: 'warn',
  });
  child.stdout!.resume();
  const url = `http://127.0.0.1:${port}`;
  // Ready as a load balancer sees it: the database answers and the address parser is built.
  await waitReady(url, '/readyz');
  // With workers, the first one up answers /healthz before the others listen: wait for all.
  const expected = options.workers > 1 ? options.workers + 1 : 1;
  const deadline = Date.now() + 60_000;
  while (processTree(child.pid!).length < expected && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  if (options.workers > 1) await new Promise((r) => setTimeout(r, 1000));
  return { url, pid: child.pid!, processes: processTree(child.pid!).length, child, stop: () => stop(child) };
}
