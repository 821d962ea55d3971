import { execFile, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { AccountStore } from '../../src/accounts/accounts.js';
import { SecretKeyStore } from '../../src/accounts/secret-keys.js';
import { systemClock } from '../../src/lib/clock.js';
import { parseMasterKey, Sealer } from '../../src/lib/seal.js';
import { openDatabase } from '../../src/store/db/database.js';
import { writeExtract } from '../osm-update.js';
import type { Keys } from './traffic.js';

/**
 * The soak's data: an OSM extract of `buildings` addressed buildings (bench:osm-update's generator),
 * the next day's version, and the `osmium derive-changes` diff between them. Returns the number of
 * addresses the next day's extract holds, which the index must hold at the end.
 */
export async function writeExtracts(work: string, buildings: number): Promise<{ day0: string; day1: string; diff: string; day0Addresses: number; day1Addresses: number }> {
  const osmium = (...a: string[]) => promisify(execFile)('osmium', [...a, '--overwrite', '--no-progress']);
  await writeExtract(join(work, 'a.opl'), buildings, 0);
  await writeExtract(join(work, 'b.opl'), buildings, 1);
  await osmium('sort', join(work, 'a.opl'), '-o', join(work, 'a.osm.pbf'));
  await osmium('sort', join(work, 'b.opl'), '-o', join(work, 'b.osm.pbf'));
  await osmium('derive-changes', join(work, 'a.osm.pbf'), join(work, 'b.osm.pbf'), '-o', join(work, 'day.osc.gz'));
  // writeExtract's next day: 0.3 % of the buildings deleted, 0.5 % new (the same fate function).
  let day1Addresses = 0;
  for (let b = 0; b < Math.round(buildings * 1.005); b++) {
    const fate = ((b * 2654435761) % 1000) / 1000;
    if (!(b < buildings && fate >= 0.015 && fate < 0.018)) day1Addresses++;
  }
  return { day0Addresses: buildings, day0: join(work, 'a.osm.pbf'), day1: join(work, 'b.osm.pbf'), diff: join(work, 'day.osc.gz'), day1Addresses };
}

/** A scale-plan account (a million credits: the soak never runs out) with a live and a test key. */
export async function createAccount(store: { dataDir: string; databaseUrl?: string }, masterKey: string): Promise<Keys & { accountId: string }> {
  const database = await openDatabase(store);
  try {
    const sealer = new Sealer(parseMasterKey(masterKey));
    const accountId = (await new AccountStore(database.db, systemClock).create({ plan: 'scale' })).id;
    const keys = new SecretKeyStore(database.db, sealer, systemClock);
    return { accountId, live: (await keys.create(accountId, 'live')).key, test: (await keys.create(accountId, 'test')).key };
  } finally {
    await database.close();
  }
}

export interface CliRun {
  code: number | null;
  ms: number;
  /** The command's one JSON object (`--json`), when it printed one. */
  json: Record<string, unknown> | undefined;
  stderr: string;
}

/** `addressd …` as an operator runs it, in a child process (bounded by `timeoutMs`). */
export function runCli(args: string[], env: Record<string, string>, timeoutMs: number): Promise<CliRun> {
  const started = performance.now();
  const child = spawn(process.execPath, ['--max-semi-space-size=64', '--import', 'tsx', 'src/cli/main.ts', ...args, '--json'], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  return new Promise((resolve) =>
    child.on('close', (code) => {
      clearTimeout(timer);
      let json: Record<string, unknown> | undefined;
      try {
        json = JSON.parse(stdout) as Record<string, unknown>;
      } catch {
        json = undefined;
      }
      resolve({ code, ms: performance.now() - started, json, stderr });
    }),
  );
}

/** A customer list of `rows` addresses (a fifth repeated: the CLI answers repeats as cache hits). */
export function writeList(file: string, rows: number): void {
  const lines = ['address,country'];
  for (let i = 0; i < rows; i++) {
    const n = i % 5 === 4 ? i - 1 : i;
    lines.push(n % 2 === 0 ? `"Weg${n % 500} ${(n % 40) + 1}, Gemeinde ${n % 100}",DE` : `"Damrak ${(n % 90) + 1}, Amsterdam",NL`);
  }
  writeFileSync(file, `${lines.join('\n')}\n`);
}
