import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createStorage } from '../compare/deployment.js';
import { generateOsm } from './generate.js';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));

/**
 * `npx tsx bench/scale/import-only.ts FILE.osm.pbf [--addresses N] [--towns M] [--store sqlite|postgres] [--keep] [--dist]`:
 * only the OSM import of `bench:scale` (with its `--update` state), through the CLI as an operator
 * runs it, so an import change can be measured in a minute instead of the whole bench's quarter
 * hour. FILE is generated when missing (and kept, so runs before and after read the same bytes).
 * `--keep` leaves the schema (PostgreSQL) or data directory in place and prints its DATABASE_URL /
 * DATA_DIR, to compare the imported tables of two runs. `--dist` runs the compiled CLI (`npm run build`),
 * whose CPU profiles (IMPORT_NODE_ARGS='--cpu-prof …') name source lines (tsx's do not).
 */
async function main(args: string[]): Promise<void> {
  const flag = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
  const file = args[0];
  if (!file) throw new Error('usage: import-only.ts FILE.osm.pbf [--addresses N] [--towns M] [--store sqlite|postgres] [--keep]');
  if (!existsSync(file)) await generateOsm(file, { count: Number(flag('--addresses') ?? 300_000), towns: Number(flag('--towns') ?? 1000), sample: 10 });
  const storage = await createStorage(flag('--store') === 'sqlite' ? 'embedded' : 'pg+redis');
  const keep = args.includes('--keep');
  // IMPORT_PG_OPTIONS (e.g. `-c log_min_duration_statement=200`) joins the schema's session options: the server log then times the import's statements.
  const extra = process.env.IMPORT_PG_OPTIONS;
  if (extra && storage.env.DATABASE_URL) storage.env.DATABASE_URL = storage.env.DATABASE_URL.replace(/options=([^&]*)/, (_, o: string) => `options=${encodeURIComponent(`${decodeURIComponent(o)} ${extra}`)}`);
  try {
    const started = performance.now();
    const { stdout, stderr } = await run('/usr/bin/time', ['-f', 'maxrss %M cpu %U %S', process.execPath, '--max-semi-space-size=64', ...(process.env.IMPORT_NODE_ARGS?.split(' ').filter(Boolean) ?? []), ...(args.includes('--dist') ? [join(root, 'dist/cli/main.js')] : ['--import', 'tsx', join(root, 'src/cli/main.ts')]), 'import', file, '--format', 'osm', '--country', 'DE', '--json'], {
      env: { ...process.env, ...storage.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' },
      maxBuffer: 1 << 26,
    });
    const seconds = (performance.now() - started) / 1000;
    const usage = /maxrss (\d+) cpu ([\d.]+) ([\d.]+)/.exec(stderr);
    const summary = JSON.parse(stdout.trim().split('\n').at(-1)!) as { rows: number; updateState?: { durationMs: number } };
    console.log(JSON.stringify({ rows: summary.rows, seconds: +seconds.toFixed(2), rate: Math.round(summary.rows / seconds), cpuSeconds: Number(usage?.[2] ?? 0) + Number(usage?.[3] ?? 0), peakRssMiB: Math.round(Number(usage?.[1] ?? 0) / 1024), stateMs: summary.updateState?.durationMs, loadavg: loadavg().map((x) => +x.toFixed(2)) }));
    if (keep) console.log(storage.env.DATABASE_URL ?? storage.env.DATA_DIR);
  } finally {
    if (!keep) await storage.cleanup();
  }
}

await main(process.argv.slice(2));
