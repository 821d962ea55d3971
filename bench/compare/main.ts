import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { type BenchAddress, generateAddresses } from '../local-generate.js';
import { type Credentials, createCredentials, createStorage, importLocal, type Runtime, startApp, type StorageKind, type Target } from './deployment.js';
import type { LoadResult, LoadSpec } from './load-spec.js';
import { autocompleteHitRequest, benchPaths, type BenchPath, HIT_LINES, HIT_PREFIXES, validateHitRequest } from './paths.js';
import { firstLine, fresh, freePort, loadAverage, startNode, stop, treeCpuSeconds, treeRssMiB } from './processes.js';
import { bareRps, type BareFigures, type BenchReport, type ConfigFigures, formatBare, formatConfig } from './report.js';

/**
 * `npm run bench`: every path of issue 11 side by side with the bare framework, load from
 * autocannon in its own process. See README "Performance" for what each figure means.
 */
const { values: args } = parseArgs({
  options: {
    configs: { type: 'string', default: 'embedded-1,embedded-2,pg+redis-1,pg+redis-2' },
    duration: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '1' },
    runtime: { type: 'string' },
    root: { type: 'string' },
    'no-build': { type: 'boolean', default: false },
    'local-count': { type: 'string', default: '1000000' },
    only: { type: 'string' },
    profile: { type: 'string' },
    out: { type: 'string', default: path.join(import.meta.dirname, '..', 'results', 'latest.json') },
  },
});

const ROOT = path.resolve(import.meta.dirname, '..', '..');
// Another checkout (an older commit) runs from its sources unless told otherwise: it may predate `npm run build`.
const runtime = (args.runtime ?? (args.root ? 'tsx' : 'dist')) as Runtime;
if (runtime !== 'dist' && runtime !== 'tsx') throw new Error(`unknown runtime ${runtime} (dist or tsx)`);
const target: Target = { root: path.resolve(args.root ?? ROOT), runtime };
// --only is a regular expression over path names ('healthz|cache hit'): the names hold commas.
const only = args.only === undefined ? undefined : new RegExp(args.only, 'i');
const durationSeconds = Number(args.duration);
const warmupSeconds = Number(args.warmup);
const localCount = Number(args['local-count']);
const PROVIDER_DELAY_MS = 20;
const WIDGET_TOKENS = 1000;
const configs = args.configs.split(',').map((name) => {
  const match = /^(embedded|pg\+redis)-(\d+)$/.exec(name.trim());
  if (!match) throw new Error(`unknown config ${name} (embedded-N or pg+redis-N)`);
  return { name: name.trim(), storage: match[1] as StorageKind, workers: Number(match[2]) };
});

if (target.runtime === 'dist' && !args['no-build']) execFileSync('npm', ['run', '--silent', 'build'], { cwd: target.root, stdio: 'inherit' });

const work = mkdtempSync(path.join(tmpdir(), 'addressd-compare-'));
const loadProcess = path.join(import.meta.dirname, 'load-process.ts');

/**
 * One autocannon run in the load process, with the server's CPU time per request (its process
 * tree's user + system time over every response, warm-up included): on a shared machine this moves
 * far less with other people's load than req/s does.
 */
async function load(url: string, pid: number, requests: LoadSpec['requests'], connections: number, offset = 0): Promise<LoadResult & { cpuUsPerRequest: number }> {
  const cpuBefore = treeCpuSeconds(pid);
  const specFile = path.join(work, `spec-${Date.now()}.json`);
  const spec: LoadSpec = { url, connections, warmupSeconds, durationSeconds, requests, offset };
  writeFileSync(specFile, JSON.stringify(spec));
  const child = startNode(['--import', 'tsx', loadProcess, specFile]);
  const line = await firstLine(child);
  await stop(child);
  const result = JSON.parse(line) as LoadResult;
  return { ...result, cpuUsPerRequest: ((treeCpuSeconds(pid) - cpuBefore) * 1e6) / Math.max(1, result.total) };
}

const report: BenchReport = {
  startedAt: new Date().toISOString(),
  node: process.version,
  cpus: cpus().length,
  runtime: target.runtime,
  root: target.root,
  warmupSeconds,
  durationSeconds,
  providerDelayMs: PROVIDER_DELAY_MS,
  localAddresses: localCount,
  bare: [],
  configs: [],
};

async function bare(when: BareFigures['when']): Promise<void> {
  for (const workers of [...new Set([1, ...configs.map((c) => c.workers)])].sort()) {
    const port = await freePort();
    const child = startNode(['--import', 'tsx', path.join(import.meta.dirname, 'bare-server.ts'), String(port), String(workers)]);
    await firstLine(child);
    const body = JSON.stringify(HIT_LINES[0]);
    const result = await load(`http://127.0.0.1:${port}`, child.pid!, [{ method: 'POST', path: '/echo', headers: { 'content-type': 'application/json' }, body }], 32);
    const figures: BareFigures = { ...result, when, workers, rssMiB: treeRssMiB(child.pid!), loadAverage: loadAverage() };
    await stop(child);
    report.bare.push(figures);
    console.log(formatBare(figures));
  }
}

/** Fills the response cache the hit paths read: each request on fresh connections, once per worker. */
async function warmCaches(url: string, credentials: Credentials, workers: number): Promise<void> {
  const requests = [
    ...HIT_LINES.map((_, i) => validateHitRequest(credentials.key, i)),
    ...HIT_PREFIXES.map((_, i) => autocompleteHitRequest(credentials.key, i)),
  ];
  for (let round = 0; round < workers; round += 1) {
    for (const r of requests) {
      const answer = await fresh(url, r.method, r.path, r.headers, r.body);
      if (answer.status !== 200) throw new Error(`warm-up ${r.path} answered ${answer.status}: ${answer.body}`);
    }
  }
}

let sample: BenchAddress[] = [];
let csv: string | undefined;
if (localCount > 0) {
  csv = path.join(work, 'addresses.csv');
  const t = performance.now();
  sample = await generateAddresses(csv, localCount, 50_000);
  console.log(`generated ${localCount.toLocaleString('en')} synthetic addresses in ${((performance.now() - t) / 1000).toFixed(1)} s (bench/local-generate.ts)`);
}

const emulators = startNode(['--import', 'tsx', path.join(ROOT, 'bench', 'emulators-process.ts'), String(PROVIDER_DELAY_MS)]);
const urls = JSON.parse(await firstLine(emulators)) as { pdok: string; photon: string; nominatim: string };
const emulatedEnv = { PROVIDERS: 'pdok,photon,nominatim', PDOK_URL: urls.pdok, PHOTON_URL: urls.photon, NOMINATIM_URL: urls.nominatim };

console.log(`addressd bench — ${target.root}, node ${process.version}, ${cpus().length} CPUs, runtime ${target.runtime}, ${warmupSeconds} s warm-up + ${durationSeconds} s per path, load average ${loadAverage().toFixed(2)} at start`);
try {
  await bare('first');
  for (const kind of [...new Set(configs.map((c) => c.storage))]) {
    const storage = await createStorage(kind);
    try {
      const credentials = await createCredentials(target, storage, WIDGET_TOKENS);
      const imported = csv ? await importLocal(target, storage, csv) : undefined;
      // Uncached paths continue through their request lists across configs sharing a storage (and a Redis cache).
      const consumed = new Map<string, number>();
      for (const config of configs.filter((c) => c.storage === kind)) {
        const paths = benchPaths(credentials, sample, PROVIDER_DELAY_MS).filter((p) => !only || only.test(p.name));
        const figures: ConfigFigures = { name: config.name, storage: kind === 'embedded' ? 'SQLite, in-process cache and limits' : 'PostgreSQL + Redis', workers: config.workers, processes: 0, paths: [] };
        if (imported) figures.import = imported;
        for (const server of ['emulated', 'local'] as const) {
          const mine = paths.filter((p) => p.server === server);
          if (mine.length === 0) continue;
          const profileDir = args.profile ? path.resolve(args.profile, `${config.name}-${server}`) : undefined;
          if (profileDir) mkdirSync(profileDir, { recursive: true });
          const env = { ...storage.env, ...(server === 'emulated' ? emulatedEnv : { PROVIDERS: 'local' }) };
          const app = await startApp(target, env, { workers: config.workers, profileDir });
          figures.processes = app.processes;
          try {
            if (server === 'emulated') await warmCaches(app.url, credentials, config.workers);
            for (const p of mine) figures.paths.push(await measure(app.url, app.pid, p, config.workers, consumed));
          } finally {
            await app.stop();
          }
        }
        report.configs.push(figures);
        for (const line of formatConfig(figures)) console.log(line);
      }
    } finally {
      await storage.cleanup();
    }
  }
  await bare('last');
} finally {
  await stop(emulators);
  rmSync(work, { recursive: true, force: true });
}

async function measure(url: string, pid: number, p: BenchPath, workers: number, consumed: Map<string, number>) {
  const offset = p.unique ? (consumed.get(p.name) ?? 0) : 0;
  const result = await load(url, pid, p.requests, p.connections, offset);
  if (p.unique) consumed.set(p.name, offset + result.used + 64);
  return {
    ...result,
    name: p.name,
    connections: p.connections,
    ratio: result.rps / bareRps({ bare: report.bare.filter((b) => b.when === 'first') }, workers),
    ...(p.providerDelayMs !== undefined ? { overheadP50: result.p50 - p.providerDelayMs, overheadP99: result.p99 - p.providerDelayMs } : {}),
    ...(p.itemsPerRequest ? { itemsPerRequest: p.itemsPerRequest } : {}),
    rssMiB: treeRssMiB(pid),
    loadAverage: loadAverage(),
  };
}

// Ratios against the mean of the first and last bare runs, now that both exist.
for (const config of report.configs) {
  for (const p of config.paths) p.ratio = p.rps / bareRps(report, config.workers);
}
console.log('\nratios against the mean of the first and last bare runs:');
for (const config of report.configs) console.log(`  ${config.name}: ${config.paths.map((p) => `${p.name} ${p.ratio.toFixed(2)}×`).join(', ')}`);
mkdirSync(path.dirname(args.out), { recursive: true });
writeFileSync(args.out, `${JSON.stringify(report, null, 2)}\n`);
console.log(`\nwritten to ${path.relative(process.cwd(), args.out)}; load average at the end ${loadAverage().toFixed(2)}`);
