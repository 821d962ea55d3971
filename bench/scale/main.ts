import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';
import { createCredentials, createStorage, PG_URL, startApp, type Storage, type Target } from '../compare/deployment.js';
import { SQLITE_INDEX_FILE } from '../../src/local-index/store/sqlite-store.js';
import { goalReport, storesFrom } from '../goal-table.js';
import { headCommit, readRecord, saveRecord } from '../record-file.js';
import { countryTowns, FREQUENCIES } from './country.js';
import { generateCsv, generateOsm, type Generated } from './generate.js';
import { runQueries, type Latency, type QueryFigures } from './queries.js';
import { runReverse } from './reverse-queries.js';
import { scaleGoalRows, scaleHeading, TARGETS, type Run, type ScaleRecord } from './record.js';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));
const target: Target = { root, runtime: 'tsx' };

function flag(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
}

const mib = (b: number) => `${Math.round(b / 1024 / 1024).toLocaleString('en')} MiB`;
const ok = (pass: boolean) => (pass ? 'ok' : 'MISS');
const ms = (x: number) => x.toFixed(2);

/** The CLI import as an operator runs it (`addressd import`), timed, with its peak resident memory from GNU time. */
async function importThrough(storage: Storage, file: string, format: 'openaddresses' | 'osm'): Promise<{ seconds: number; cpuSeconds: number; rows: number; peakRssBytes: number }> {
  const started = performance.now();
  const { stdout, stderr } = await run('/usr/bin/time', ['-f', 'maxrss %M cpu %U %S', process.execPath, '--max-semi-space-size=64', '--import', 'tsx', join(root, 'src/cli/main.ts'), 'import', file, '--format', format, '--country', 'DE', '--json'], {
    env: { ...process.env, ...storage.env, LOG_LEVEL: 'warn' },
    maxBuffer: 1 << 26,
  });
  const seconds = (performance.now() - started) / 1000;
  const usage = /maxrss (\d+) cpu ([\d.]+) ([\d.]+)/.exec(stderr);
  const rss = Number(usage?.[1] ?? 0) * 1024;
  const cpuSeconds = Number(usage?.[2] ?? 0) + Number(usage?.[3] ?? 0);
  const summary = JSON.parse(stdout.trim().split('\n').at(-1)!) as { rows: number; imported: number };
  return { seconds, cpuSeconds, rows: summary.rows, peakRssBytes: rss };
}

async function diskBytes(storage: Storage): Promise<number> {
  if (storage.kind === 'embedded') {
    return ['', '-wal'].reduce((sum, suffix) => {
      const path = join(storage.env.DATA_DIR!, SQLITE_INDEX_FILE + suffix);
      return sum + (existsSync(path) ? statSync(path).size : 0);
    }, 0);
  }
  const schema = /search_path=([\w]+)/.exec(decodeURIComponent(storage.env.DATABASE_URL!))![1]!;
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    const res = await client.query<{ bytes: string }>(
      `SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0) AS bytes FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE n.nspname = $1 AND c.relkind IN ('r', 'm', 'p') AND c.relname LIKE 'local\\_%'`,
      [schema],
    );
    return Number(res.rows[0]!.bytes);
  } finally {
    await client.end();
  }
}

async function measure(store: Run['store'], source: Run['source'], file: string, samples: string, generated: Generated): Promise<Run> {
  const storage = await createStorage(store === 'sqlite' ? 'embedded' : 'pg+redis');
  try {
    const imported = await importThrough(storage, file, source === 'csv' ? 'openaddresses' : 'osm');
    const disk = await diskBytes(storage);
    const env = { ...storage.env, PROVIDERS: 'local' };
    const credentials = await createCredentials(target, { ...storage, env }, 0);
    // The service starts right after the import said done: no vacuum or warm-up beyond its own.
    const app = await startApp(target, env, { workers: 1 });
    let queries: QueryFigures;
    let reverse: Latency;
    try {
      queries = await runQueries(app.url, credentials.key, generated, source === 'osm');
      reverse = await runReverse(app.url, credentials.key, generated);
    } finally {
      await app.stop();
    }
    // In-process geocode cost, after the HTTP run so that run is the first to read the fresh index.
    const cpuArgs = [samples, storage.env.DATA_DIR!, ...(storage.env.DATABASE_URL ? [storage.env.DATABASE_URL] : [])];
    const cpu = await run(process.execPath, ['--import', 'tsx', join(root, 'bench/scale/cpu-process.ts'), ...cpuArgs], { env: { ...process.env, LOG_LEVEL: 'warn' } });
    const geocodeCpu = JSON.parse(cpu.stdout.trim().split('\n').at(-1)!) as Run['geocodeCpu'];
    return { store, source, addresses: imported.rows, towns: generated.towns, importSeconds: imported.seconds, importCpuSeconds: imported.cpuSeconds, rate: imported.rows / imported.seconds, peakRssBytes: imported.peakRssBytes, diskBytes: disk, geocodeCpu, queries, reverse };
  } finally {
    await storage.cleanup();
  }
}

function lines(r: Run, before?: Run): string[] {
  const was = (x: number | undefined, f: (x: number) => string) => (before && x !== undefined ? `${f(x)} → ` : '');
  const rateTarget = r.source === 'csv' ? TARGETS.csvRate : TARGETS.osmRate;
  const out = [
    `${r.store} ${r.source}: ${r.addresses.toLocaleString('en')} addresses, ${r.towns.toLocaleString('en')} municipalities`,
    `  import ${was(before?.rate, (x) => Math.round(x).toLocaleString('en'))}${Math.round(r.rate).toLocaleString('en')}/s (${r.importSeconds.toFixed(1)} s, ${was(before?.importCpuSeconds, (x) => x.toFixed(1))}${r.importCpuSeconds?.toFixed(1) ?? '?'} CPU s) [${ok(r.rate >= rateTarget)}]; ` +
      `peak RSS ${was(before?.peakRssBytes, mib)}${mib(r.peakRssBytes)}${r.source === 'osm' ? ` [${ok(r.peakRssBytes <= TARGETS.osmRssBytes)}]` : ''}; disk ${was(before?.diskBytes, mib)}${mib(r.diskBytes)}`,
  ];
  const row = (name: string, l: Latency, b: Latency | undefined, target: number) =>
    `    ${name.padEnd(12)} ×${String(l.n).padEnd(4)} p50 ${was(b?.p50, ms)}${ms(l.p50)} ms, p99 ${was(b?.p99, ms)}${ms(l.p99)} ms [${ok(l.p99 <= target)}], max ${ms(l.max)} ms, right ${(l.right * 100).toFixed(1)} %`;
  for (const kind of ['validate', 'autocomplete'] as const) {
    out.push(`  ${kind} (over HTTP, one at a time, uncached), by street-name frequency:`);
    for (const f of FREQUENCIES) out.push(row(f, r.queries[kind][f], before?.queries[kind][f], kind === 'validate' ? TARGETS.validateP99 : TARGETS.autocompleteP99));
  }
  const noTown = r.queries.noTown;
  if (noTown) {
    out.push('  validate `street number, postcode` (no town: narrowed by the postcode), by street-name frequency:');
    for (const f of FREQUENCIES) out.push(row(f, noTown[f], before?.queries.noTown?.[f], TARGETS.validateP99));
  }
  if (r.geocodeCpu) {
    const g = r.geocodeCpu;
    const b = before?.geocodeCpu;
    out.push(`  geocode in-process, CPU per call (${r.store === 'sqlite' ? 'all of it' : 'the Node side'}) / wall p99: ${FREQUENCIES.map((f) => `${f} ${was(b?.[f].mean, ms)}${ms(g[f].mean)} / ${was(b?.[f].p99, ms)}${ms(g[f].p99)} ms`).join('; ')}`);
    const n = g.noTown;
    const bn = b?.noTown;
    if (n) out.push(`  the same without the town: ${FREQUENCIES.map((f) => `${f} ${was(bn?.[f].mean, ms)}${ms(n[f].mean)} / ${was(bn?.[f].p99, ms)}${ms(n[f].p99)} ms`).join('; ')}`);
  }
  if (r.reverse) {
    out.push('  reverse look-up (over HTTP, one at a time, uncached), positions 5-80 m off the address, radius 200 m:');
    out.push(row('all', r.reverse, before?.reverse, TARGETS.reverseP99));
  }
  const m = r.queries.municipality;
  if (m) out.push(`  municipality from boundaries (no addr:city): ${was(before?.queries.municipality?.right, (x) => `${(x * 100).toFixed(1)} %`)}${(m.right * 100).toFixed(1)} % of ${m.n} [${ok(m.right >= TARGETS.municipality)}]`);
  return out;
}

/**
 * `npm run bench:scale -- [--addresses 2000000] [--towns M] [--store sqlite|postgres|both]
 *   [--sources osm|csv|csv,osm] [--count N] [--sample 300] [--save FILE] [--compare FILE]`
 * Generates a country (Zipf street names over M municipalities; by default the issue's
 * country-shaped extract: 2M addresses, 1,200 municipalities, as an OSM PBF), imports it through
 * the CLI into each store one after the other, starts the service (PROVIDERS=local) and times
 * validate, autocomplete and reverse look-up over HTTP. Ends with one table of both stores side by side against
 * the goals; `--save` keeps the figures as JSON; `--compare` reads a saved run and adds the
 * before → after table (and `before → after` in the detail lines). `--count` sizes the CSV apart
 * from `--addresses`; `--only` and `--before` are the older names of `--store` and `--compare`.
 */
export async function benchScale(args: string[]): Promise<void> {
  const osmCount = Number(flag(args, '--addresses') ?? flag(args, '--osm-count') ?? 2_000_000);
  const count = Number(flag(args, '--count') ?? osmCount);
  const towns = Number(flag(args, '--towns') ?? countryTowns(osmCount));
  const sample = Number(flag(args, '--sample') ?? 300);
  const stores = storesFrom(flag(args, '--store') ?? flag(args, '--only'));
  const sources = (flag(args, '--sources') ?? 'osm').split(',') as Run['source'][];
  const before = readRecord<ScaleRecord>(flag(args, '--compare') ?? flag(args, '--before'));
  const work = mkdtempSync(join(tmpdir(), 'bench-scale-'));
  const record: ScaleRecord = { at: new Date().toISOString(), commit: headCommit(), loadavg: loadavg(), runs: [] };
  try {
    const files: [Run['source'], string, string, Generated][] = [];
    for (const source of sources) {
      const t = performance.now();
      const file = join(work, source === 'csv' ? 'country.csv' : 'country.osm.pbf');
      const n = source === 'csv' ? count : osmCount;
      const generated = source === 'csv' ? await generateCsv(file, { count: n, towns, sample }) : await generateOsm(file, { count: n, towns, sample });
      const spread = FREQUENCIES.map((f) => `${f} ${generated.townsPerName[f]?.min ?? 0}-${generated.townsPerName[f]?.max ?? 0}`).join(', ');
      console.log(`generated ${source}: ${n.toLocaleString('en')} addresses, ${towns.toLocaleString('en')} municipalities, ${mib(statSync(file).size)} in ${((performance.now() - t) / 1000).toFixed(0)} s; towns per street name: ${spread}`);
      const samples = join(work, `samples-${source}.json`);
      writeFileSync(samples, JSON.stringify(generated));
      files.push([source, file, samples, generated]);
    }
    for (const store of stores) {
      for (const [source, file, samples, generated] of files) {
        const r = await measure(store, source, file, samples, generated);
        record.runs.push(r);
        const b = before?.runs.find((x) => x.store === store && x.source === source);
        for (const line of lines(r, b)) console.log(line);
      }
    }
    record.loadavg = loadavg();
    for (const line of goalReport((x) => ({ heading: scaleHeading(x), rows: scaleGoalRows(x) }), record, before, stores)) console.log(line);
    saveRecord(flag(args, '--save'), record);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
