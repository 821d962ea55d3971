import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { generateAddresses } from './local-generate.js';

const run = promisify(execFile);
const DEFAULT_PG = 'postgres://postgres@127.0.0.1:5432/test';

interface Result {
  backend: string;
  rows: number;
  importSeconds: number;
  importRate: number;
  sizeBytes: number;
  peakRss: number;
  maxRssKb: number;
  autocomplete: { n: number; p50: number; p99: number; max: number; hitRate: number };
  geocode: { n: number; p50: number; p99: number; max: number; hitRate: number };
  /** The same workload once the storage's post-import upkeep is done. */
  settled: { autocomplete: Timing; geocode: Timing };
}

type Timing = Result['autocomplete'];

const TARGETS = { autocompleteP99: 5, geocodeP99: 10, importRate: 100_000, rss: 1024 ** 3 };

function flag(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
}

const mb = (b: number) => `${(b / 1024 / 1024).toFixed(0)} MiB`;
const ok = (pass: boolean) => (pass ? 'ok' : 'MISS');

function report(r: Result): string[] {
  return [
    `${r.backend}: ${r.rows.toLocaleString('en')} rows imported in ${r.importSeconds.toFixed(1)} s = ${Math.round(r.importRate).toLocaleString('en')}/s [${ok(r.importRate >= TARGETS.importRate)}]`,
    `  index size on disk ${mb(r.sizeBytes)}; peak resident memory ${mb(Math.max(r.peakRss, r.maxRssKb * 1024))} [${ok(Math.max(r.peakRss, r.maxRssKb * 1024) <= TARGETS.rss)}]`,
    `  autocomplete ×${r.autocomplete.n}: p50 ${r.autocomplete.p50.toFixed(2)} ms, p99 ${r.autocomplete.p99.toFixed(2)} ms [${ok(r.autocomplete.p99 <= TARGETS.autocompleteP99)}], max ${r.autocomplete.max.toFixed(1)} ms; right address in top 3 once street, number and postcode are typed: ${(r.autocomplete.hitRate * 100).toFixed(1)}%`,
    `  geocode ×${r.geocode.n}: p50 ${r.geocode.p50.toFixed(2)} ms, p99 ${r.geocode.p99.toFixed(2)} ms [${ok(r.geocode.p99 <= TARGETS.geocodeP99)}], max ${r.geocode.max.toFixed(1)} ms; right address first: ${(r.geocode.hitRate * 100).toFixed(1)}%`,
    `  once the post-import upkeep is done (vacuum, checkpoint): autocomplete p50 ${r.settled.autocomplete.p50.toFixed(2)} ms, p99 ${r.settled.autocomplete.p99.toFixed(2)} ms [${ok(r.settled.autocomplete.p99 <= TARGETS.autocompleteP99)}]; geocode p50 ${r.settled.geocode.p50.toFixed(2)} ms, p99 ${r.settled.geocode.p99.toFixed(2)} ms [${ok(r.settled.geocode.p99 <= TARGETS.geocodeP99)}]`,
  ];
}

/**
 * `npm run bench -- local [--count N] [--only sqlite|postgres] [--pg URL]`: generates N
 * synthetic addresses (default 1 000 000; see local-generate.ts for why synthetic), then per
 * backend, in a child process: import rate, index size, resident memory, query latencies.
 */
export async function benchLocal(args: string[]): Promise<void> {
  const count = Number(flag(args, '--count') ?? 1_000_000);
  const only = flag(args, '--only');
  const pgUrl = flag(args, '--pg') ?? DEFAULT_PG;
  const work = mkdtempSync(join(tmpdir(), 'bench-local-'));
  const csv = join(work, 'addresses.csv');
  const samplePath = join(work, 'sample.json');
  try {
    const t = performance.now();
    const sample = await generateAddresses(csv, count, 10_000);
    writeFileSync(samplePath, JSON.stringify(sample));
    console.log(
      `generated ${count.toLocaleString('en')} synthetic addresses in ${((performance.now() - t) / 1000).toFixed(1)} s ` +
        '(synthetic: no open data set of this size can be downloaded here and real samples stay out of the project; see bench/local-generate.ts)',
    );
    const runner = fileURLToPath(new URL('./local-run.ts', import.meta.url));
    for (const backend of ['sqlite', 'postgres'].filter((b) => !only || b === only)) {
      const dataDir = join(work, `data-${backend}`);
      const schema = `bench_local_${randomBytes(4).toString('hex')}`;
      const extra = backend === 'postgres' ? [pgUrl, schema] : [];
      try {
        // The same V8 flag as the CLI that imports (package.json `cli`, bin/addressd.js).
        const { stdout } = await run(process.execPath, [...process.execArgv, '--max-semi-space-size=64', runner, csv, samplePath, backend, dataDir, ...extra], {
          maxBuffer: 1 << 24,
        });
        const result = JSON.parse(stdout.trim().split('\n').at(-1)!) as Result;
        for (const line of report(result)) console.log(line);
      } finally {
        if (backend === 'postgres') {
          const client = new pg.Client({ connectionString: pgUrl });
          await client.connect();
          await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
          await client.end();
        }
      }
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
