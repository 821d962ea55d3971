import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { admin, cliEnv } from '../cli-validate.js';
import { goalReport, storesFrom } from '../goal-table.js';
import { generateAddresses } from '../local-generate.js';
import { headCommit, readRecord, saveRecord } from '../record-file.js';
import { listGoalRows, listHeading, type ListRecord } from './record.js';
import { writeList } from './list-rows.js';

const run = promisify(execFile);
const BIN = fileURLToPath(new URL('../../bin/addressd.js', import.meta.url));
const USAGE = fileURLToPath(new URL('./usage-report.mjs', import.meta.url));
const PROFILE_SUMMARY = fileURLToPath(new URL('../compare/profile-summary.ts', import.meta.url));
const DEFAULT_PG = 'postgres://postgres@127.0.0.1:5432/test';

const flag = (args: string[], name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const load = () => loadavg().map((l) => l.toFixed(1)).join(' / ');
const n = (x: number) => Math.round(x).toLocaleString('en');

/**
 * `npm run bench:list -- [--rows 1000000] [--index 10000000] [--store sqlite|postgres|both] [--workers 0,2]
 * [--chunk N] [--profile] [--pg URL] [--save FILE] [--compare FILE]`: a customer list (bench/list/list-rows.ts: clean, typos,
 * wrong postcodes, fakes, repeats, no city, upper case) drawn from the synthetic index of
 * bench/local-generate.ts, through `addressd validate` (the real bin, a child process, PROVIDERS=local)
 * on each store one after the other and each --workers value (default: the command's own default). Prints rows/s end
 * to end, CPU per row (all threads), peak RSS, and with --profile where the CPU went; ends with
 * both stores side by side against the goals, and with `--compare` (a record `--save` wrote) the
 * before → after table. `--only` is the older name of `--store`.
 */
export async function benchList(args: string[]): Promise<void> {
  const rows = Number(flag(args, '--rows') ?? 1_000_000);
  const indexSize = Number(flag(args, '--index') ?? 10_000_000);
  const stores = storesFrom(flag(args, '--store') ?? flag(args, '--only'));
  const before = readRecord<ListRecord>(flag(args, '--compare'));
  const record: ListRecord = { at: new Date().toISOString(), commit: headCommit(), loadavg: loadavg(), rows, index: indexSize, runs: [] };
  const pgUrl = flag(args, '--pg') ?? DEFAULT_PG;
  const workers = (flag(args, '--workers') ?? 'default').split(',');
  const chunk = flag(args, '--chunk');
  const profile = args.includes('--profile');
  // --keep: the list, outputs and profiles stay on disk (the path is printed) to be looked at again.
  const keep = args.includes('--keep');
  const work = mkdtempSync(join(tmpdir(), 'bench-list-'));
  try {
    const addresses = join(work, 'addresses.csv');
    let t = performance.now();
    const sample = await generateAddresses(addresses, indexSize, Math.min(rows, 200_000));
    const list = join(work, 'list.csv');
    const kinds = await writeList(list, sample, rows);
    console.log(
      `bench:list: ${n(rows)} rows (${Object.entries(kinds).map(([k, v]) => `${k} ${n(v)}`).join(', ')}) against an index of ${n(indexSize)} synthetic addresses; ` +
        `generated in ${((performance.now() - t) / 1000).toFixed(1)} s; ${cpus().length} cores, load ${load()} (1/5/15 min)`,
    );

    for (const backend of stores) {
      const schema = `bench_list_${randomBytes(4).toString('hex')}`;
      const env = cliEnv(work, backend, pgUrl, schema);
      if (backend === 'postgres') await admin(pgUrl, `CREATE SCHEMA ${schema}`);
      try {
        const cli = async (...argv: string[]) => (await run(process.execPath, ['--max-semi-space-size=64', BIN, ...argv, '--json'], { env, maxBuffer: 1 << 24 })).stdout;
        t = performance.now();
        await cli('import', addresses, '--format', 'openaddresses', '--country', 'NL');
        console.log(`${backend}: index imported in ${((performance.now() - t) / 1000).toFixed(1)} s; load ${load()}`);
        for (const w of workers) {
          const account = JSON.parse(await cli('account', 'create', '--plan', 'scale')) as { id: string };
          await cli('credits', 'add', account.id, String(rows * 2));
          const usageFile = join(work, `usage-${backend}-${w}.json`);
          const profileDir = join(work, `profile-${backend}-${w}`);
          if (profile) mkdirSync(profileDir);
          const argv = ['validate', list, '--account', account.id, '--out', join(work, `out-${backend}-${w}.csv`), ...(w === 'default' ? [] : ['--workers', w]), ...(chunk ? ['--chunk', chunk] : [])];
          t = performance.now();
          const res = await run(
            process.execPath,
            ['--max-semi-space-size=64', '--import', USAGE, ...(profile ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : []), BIN, ...argv, '--json'],
            { env: { ...env, BENCH_USAGE_FILE: usageFile }, maxBuffer: 1 << 24 },
          );
          const seconds = (performance.now() - t) / 1000;
          const summary = JSON.parse(res.stdout) as Record<string, number>;
          const usage = JSON.parse(readFileSync(usageFile, 'utf8')) as { userUs: number; systemUs: number; maxRssKb: number };
          const cpuMs = (usage.userUs + usage.systemUs) / 1000;
          record.runs.push({ store: backend, workers: w, rows, seconds, rate: rows / seconds, cpuMsPerRow: cpuMs / rows, peakRssBytes: usage.maxRssKb * 1024 });
          console.log(
            `  --workers ${w}: ${n(rows)} rows in ${seconds.toFixed(1)} s = ${n(rows / seconds)} rows/s; CPU ${(cpuMs / rows).toFixed(3)} ms/row ` +
              `(${(cpuMs / 1000 / seconds).toFixed(2)} cores busy); peak RSS ${n(usage.maxRssKb / 1024)} MiB; ` +
              `valid ${n(summary.valid ?? 0)}, correctable ${n(summary.correctable ?? 0)}, invalid ${n(summary.invalid ?? 0)}, not verified ${n(summary.unverified ?? 0)}, ` +
              `repeats ${n(summary.repeats ?? 0)}, ${n(summary.creditsThisRun ?? 0)} credits; load ${load()}`,
          );
          if (profile) {
            const { stdout } = await run(process.execPath, ['--import', 'tsx', PROFILE_SUMMARY, profileDir, '--top', '20'], { maxBuffer: 1 << 24 });
            console.log(stdout.replace(/^/gm, '    '));
          }
        }
      } finally {
        if (backend === 'postgres') await admin(pgUrl, `DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      }
    }
    record.loadavg = loadavg();
    for (const line of goalReport((x) => ({ heading: listHeading(x), rows: listGoalRows(x) }), record, before, stores)) console.log(line);
    saveRecord(flag(args, '--save'), record);
  } finally {
    if (keep) console.log(`kept: ${work}`);
    else rmSync(work, { recursive: true, force: true });
  }
}
