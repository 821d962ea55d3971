import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';
import { type BenchAddress, generateAddresses, rng } from './local-generate.js';

const run = promisify(execFile);
const BIN = fileURLToPath(new URL('../bin/addressd.js', import.meta.url));
const BASELINE = fileURLToPath(new URL('./cli-validate-baseline.ts', import.meta.url));
const DEFAULT_PG = 'postgres://postgres@127.0.0.1:5432/test';

const flag = (args: string[], name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const load = () => loadavg().map((l) => l.toFixed(1)).join(' / ');

/**
 * The rows to validate: addresses of the index as people type them (`Street 12A, 1234 AB Town`),
 * one in ten with a typo in the street, one in twenty with a house number the street lacks.
 */
function inputRows(sample: BenchAddress[]): string {
  const rand = rng(7);
  const lines = sample.map((a, i) => {
    let street = a.street;
    const r = rand();
    if (r < 0.1 && street.length > 4) {
      const at = 1 + Math.floor(rand() * (street.length - 3));
      street = street.slice(0, at) + street[at + 1] + street[at] + street.slice(at + 2);
    }
    const number = r > 0.95 ? String(Number.parseInt(a.number, 10) + 1000) : a.number;
    return `${i + 1},"${street} ${number}${a.unit ? `-${a.unit}` : ''}, ${a.postcode} ${a.city}"`;
  });
  return `id,address\n${lines.join('\n')}\n`;
}

/**
 * `npm run bench -- validate [--rows 100000] [--index 200000] [--only sqlite|postgres] [--baseline 2000] [--pg URL]`:
 * `addressd validate` (the real bin, a child process) on ROWS synthetic rows against the `local`
 * provider over an index of INDEX synthetic addresses, per backend; and, for comparison, BASELINE
 * rows through the API's per-call billing (a reservation and a settle transaction per row).
 */
export async function benchCliValidate(args: string[]): Promise<void> {
  const rows = Number(flag(args, '--rows') ?? 100_000);
  const indexSize = Number(flag(args, '--index') ?? Math.max(rows * 2, 10_000));
  const baselineRows = Number(flag(args, '--baseline') ?? 2000);
  const only = flag(args, '--only');
  const pgUrl = flag(args, '--pg') ?? DEFAULT_PG;
  const work = mkdtempSync(join(tmpdir(), 'bench-validate-'));
  try {
    const addresses = join(work, 'addresses.csv');
    const sample = await generateAddresses(addresses, indexSize, rows);
    const input = join(work, 'input.csv');
    writeFileSync(input, inputRows(sample));
    const baselineInput = join(work, 'baseline.csv');
    writeFileSync(baselineInput, inputRows(sample.slice(0, baselineRows)));
    console.log(`index ${indexSize.toLocaleString('en')} synthetic addresses, ${rows.toLocaleString('en')} rows to validate (see bench/local-generate.ts); load ${load()} (1/5/15 min) on ${(await import('node:os')).cpus().length} cores`);

    for (const backend of ['sqlite', 'postgres'].filter((b) => !only || b === only)) {
      const schema = `bench_validate_${randomBytes(4).toString('hex')}`;
      const env = cliEnv(work, backend, pgUrl, schema);
      if (backend === 'postgres') await admin(pgUrl, `CREATE SCHEMA ${schema}`);
      try {
        const cli = async (...argv: string[]) => (await run(process.execPath, [BIN, ...argv, '--json'], { env, maxBuffer: 1 << 24 })).stdout;
        let t = performance.now();
        await cli('import', addresses, '--format', 'openaddresses', '--country', 'NL');
        console.log(`${backend}: index imported in ${((performance.now() - t) / 1000).toFixed(1)} s`);
        const account = JSON.parse(await cli('account', 'create', '--plan', 'scale')) as { id: string };

        const before = await run(process.execPath, ['--import', 'tsx', BASELINE, baselineInput, account.id], { env, maxBuffer: 1 << 24 });
        const base = JSON.parse(before.stdout) as { rows: number; seconds: number };
        console.log(`  before (per-row billing, as the API): ${base.rows} rows in ${base.seconds.toFixed(1)} s = ${Math.round(base.rows / base.seconds)} rows/s; load ${load()}`);

        t = performance.now();
        const summary = JSON.parse(await cli('validate', input, '--account', account.id, '--country', 'NL', '--out', join(work, `out-${backend}.csv`))) as Record<string, number>;
        const seconds = (performance.now() - t) / 1000;
        console.log(
          `  addressd validate: ${rows.toLocaleString('en')} rows in ${seconds.toFixed(1)} s = ${Math.round(rows / seconds)} rows/s ` +
            `(valid ${summary.valid}, correctable ${summary.correctable}, invalid ${summary.invalid}; ${summary.creditsThisRun} credits); load ${load()}`,
        );
      } finally {
        if (backend === 'postgres') await admin(pgUrl, `DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      }
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** The CLI's environment for one store of a bench run: `local` only, its own DATA_DIR or PostgreSQL schema. */
export function cliEnv(work: string, backend: string, pgUrl: string, schema: string): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    DATA_DIR: join(work, `data-${backend}`),
    PROVIDERS: 'local',
    LOG_LEVEL: 'silent',
    ...(backend === 'postgres' ? { DATABASE_URL: `${pgUrl}?options=${encodeURIComponent(`-c search_path=${schema}`)}` } : {}),
  };
}

/** One statement on its own connection (schemas made and dropped around a bench run). */
export async function admin(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
