import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { startRedisProcess } from '../../test/support/redis-process.js';
import { checkBooks, checkIndex, checkSqliteFiles, readPostgres, readSqlite, type Books } from './books.js';
import { mountSmallDisk } from './disk.js';
import { faultList } from './faults.js';
import { createInstance } from './instances.js';
import { startPostgresCluster } from './postgres-cluster.js';
import { describeTally, type FaultRow, printTable, tally } from './report.js';
import { checkList, type ListRun, runList } from './list-run.js';
import { createAccount, runCli, writeExtracts, writeList } from './setup.js';
import { strike } from './strike.js';
import { type Outcome, startTraffic } from './traffic.js';

/**
 * `npm run bench:soak -- [--minutes N] [--quick]` (issue 37): two instances on a PostgreSQL cluster
 * and a Redis of the soak's own, and a third on SQLite with its DATA_DIR on a small tmpfs, under
 * mixed traffic while faults strike one after another (faults.ts), with an `--update` and a
 * `--replace` import in the middle; then a table per fault and the books (books.ts). Needs root
 * (tmpfs, the `postgres` user) and osmium. Everything it starts it stops; only 127.0.0.1.
 */
interface Options {
  minutes: number;
  quick: boolean;
}

function parseOptions(args: string[]): Options {
  const quick = args.includes('--quick');
  const i = args.indexOf('--minutes');
  const minutes = i >= 0 ? Number(args[i + 1]) : quick ? 1.5 : 10;
  if (!(minutes > 0 && minutes <= 120)) throw new Error('--minutes takes a number of minutes from 0 to 120');
  return { minutes, quick };
}

/** Issue 37: every concerned instance answers again within this many seconds of a fault's end. */
const RECOVERY_GOAL_S = 5;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function benchSoak(args: string[]): Promise<void> {
  const options = parseOptions(args);
  const cleanups: (() => Promise<void> | void)[] = [];
  const cleanUp = async () => {
    for (const step of cleanups.splice(0).reverse()) await Promise.resolve().then(step).catch((error: unknown) => console.error(`soak cleanup: ${String(error)}`));
  };
  const onSignal = () => void cleanUp().then(() => process.exit(130));
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const work = mkdtempSync(path.join(tmpdir(), 'addressd-soak-'));
  cleanups.push(() => rmSync(work, { recursive: true, force: true }));
  try {
    await run(options, work, cleanups);
  } finally {
    await cleanUp();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

async function run(options: Options, work: string, cleanups: (() => Promise<void> | void)[]): Promise<void> {
  const buildings = options.quick ? 5_000 : 20_000;
  // The instances run the compiled service, as `npm start` does.
  await promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/build.ts']);
  const extracts = await writeExtracts(work, buildings);
  const cluster = await startPostgresCluster();
  cleanups.push(() => cluster.destroy());
  const redis = await startRedisProcess();
  cleanups.push(() => redis.stop());
  const disk = mountSmallDisk(options.quick ? 64 : 128);
  cleanups.push(() => disk.destroy());
  const emulators = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, '..', 'emulators-process.ts'), '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  cleanups.push(() => void emulators.kill('SIGKILL'));
  const urls = await new Promise<Record<string, string>>((resolve) => emulators.stdout.once('data', (chunk: Buffer) => resolve(JSON.parse(chunk.toString()) as Record<string, string>)));
  console.log(`soak: PostgreSQL ${cluster.url}, Redis ${redis.url}, SQLite DATA_DIR on a tmpfs at ${disk.dir}; ${buildings.toLocaleString('en')} buildings`);

  const masterKey = randomBytes(32).toString('base64url');
  const common = { MASTER_KEY: masterKey, PROVIDERS: 'pdok,photon,nominatim,local', PDOK_URL: urls.pdok!, PHOTON_URL: urls.photon!, NOMINATIM_URL: urls.nominatim! };
  const pgEnv = { ...common, DATABASE_URL: cluster.url, REDIS_URL: redis.url };
  const sqliteEnv = { ...common, DATA_DIR: disk.dir };
  const cliPg = { ...pgEnv, DATA_DIR: path.join(work, 'cli') };
  const keys = { postgres: await createAccount({ dataDir: work, databaseUrl: cluster.url }, masterKey), sqlite: await createAccount({ dataDir: disk.dir }, masterKey) };
  for (const env of [cliPg, sqliteEnv]) {
    const imported = await runCli(['import', extracts.day0, '--country', 'DE'], env, 600_000);
    if (imported.code !== 0) throw new Error(`the first import failed: ${imported.stderr}`);
  }

  const logFile = path.join(process.cwd(), 'bench', 'results', `soak-${new Date().toISOString().replace(/[:.]/g, '-')}.log`);
  mkdirSync(path.dirname(logFile), { recursive: true });
  const dir = (name: string) => path.join(work, name);
  const pgA = await createInstance('pg-a', 'postgres', { ...pgEnv, DATA_DIR: dir('pg-a') }, logFile);
  const pgB = await createInstance('pg-b', 'postgres', { ...pgEnv, DATA_DIR: dir('pg-b') }, logFile);
  const lite = await createInstance('sqlite', 'sqlite', sqliteEnv, logFile);
  const instances = [pgA, pgB, lite];
  cleanups.push(() => Promise.all(instances.map((i) => i.kill('SIGKILL'))).then(() => undefined));
  await Promise.all(instances.map((i) => i.start()));

  const started = performance.now();
  const outcomes: Outcome[] = [];
  const traffic = startTraffic({ targets: instances, keys, clients: options.quick ? 2 : 3, started, requestTimeoutMs: 15_000, record: (o) => outcomes.push(o) });
  const now = () => performance.now() - started;
  const totalMs = options.minutes * 60_000;
  const gapMs = options.quick ? 3000 : 15_000;
  const faults = faultList({ pgA, pgB, redis, cluster, disk, sqliteFile: path.join(disk.dir, 'addressd.sqlite'), holdMs: options.quick ? 3000 : 5000 });
  const rows: FaultRow[] = [];
  const imports: { name: string; args: string[]; atMs: number; done?: string }[] = [
    { name: '--update with the next day’s diff', args: ['import', extracts.diff, '--update', '--country', 'DE'], atMs: totalMs * 0.4 },
    { name: '--replace with the next day’s extract', args: ['import', extracts.day1, '--replace', '--country', 'DE'], atMs: totalMs * 0.55 },
  ];
  const runImport = async (step: (typeof imports)[number]) => {
    const ran = await runCli(step.args, cliPg, 600_000);
    const [before] = await cluster.query<{ n: number }>('SELECT count(*)::int AS n FROM local_addresses');
    step.done = `${ran.code === 0 ? 'ok' : `FAILED (exit ${ran.code}): ${ran.stderr.trim().split('\n').pop()}`} in ${(ran.ms / 1000).toFixed(1)} s, index then ${before?.n} addresses`;
    log(`import ${step.name}: ${step.done}`);
  };

  const listFile = path.join(work, 'customers.csv');
  const listRows = options.quick ? 200 : 600;
  writeList(listFile, listRows);
  let list: Promise<ListRun> | undefined;
  const log = (line: string) => console.log(`  ${(now() / 1000).toFixed(0).padStart(4)} s  ${line}`);

  await sleep(options.quick ? 5000 : 15_000);
  for (let i = 0; ; i++) {
    // The list runs beside the faults (from a quarter of the time), resumed when one cuts it short.
    if (!list && now() >= totalMs * 0.25) list = runList(listFile, path.join(work, 'customers-out.csv'), listRows, keys.postgres.accountId, cliPg, log);
    for (const step of imports) if (!step.done && now() >= step.atMs) await runImport(step);
    if (options.quick ? i >= faults.length : now() > totalMs - 30_000) break;
    rows.push(await strike(faults[i % faults.length]!, instances, traffic.send, now, outcomes));
    await sleep(gapMs);
  }
  for (const step of imports) if (!step.done) await runImport(step);
  const listRun = await (list ?? runList(listFile, path.join(work, 'customers-out.csv'), listRows, keys.postgres.accountId, cliPg, log));
  while (now() < totalMs && !options.quick) await sleep(1000);
  await traffic.stop();
  const endedMs = now();
  await Promise.all(instances.map((i) => i.kill('SIGTERM')));

  printTable(rows);
  const quiet = outcomes.filter((o) => !rows.some((r) => r.store === o.store && o.ended >= r.fromMs && o.sent <= r.toMs));
  console.log(`\n${describeTally(`all ${(endedMs / 60_000).toFixed(1)} minutes`, tally(outcomes))}`);
  console.log(describeTally('outside the fault windows', tally(quiet)));
  const books: Books[] = [];
  console.log('\nPostgreSQL books (two instances):');
  books.push(await checkBooks(readPostgres(cluster), outcomes.filter((o) => o.store === 'postgres')));
  books.push(await checkIndex(readPostgres(cluster), (t) => `local_${t}`, extracts.day1Addresses));
  books.push(await checkList(readPostgres(cluster), listRun));
  for (const line of books.slice(-3).flatMap((b) => b.lines)) console.log(`  ${line}`);
  console.log('SQLite books (one instance, disk filled and freed):');
  const sqliteBooks = readSqlite(path.join(disk.dir, 'addressd.sqlite'));
  const sqliteIndex = readSqlite(path.join(disk.dir, 'local-index.sqlite'));
  books.push(await checkBooks(sqliteBooks, outcomes.filter((o) => o.store === 'sqlite')));
  books.push(await checkIndex(sqliteIndex, (t) => t, extracts.day0Addresses));
  sqliteBooks.close();
  sqliteIndex.close();
  books.push(checkSqliteFiles(disk.dir));
  for (const line of books.slice(-3).flatMap((b) => b.lines)) console.log(`  ${line}`);
  const errors = instances.flatMap((i) => i.errors.map((line) => `${i.name}: ${line.msg} ${JSON.stringify((line.err as { message?: string } | undefined)?.message ?? '')}`));
  console.log(`\nerror lines in the instances' logs: ${errors.length} (all warn/error lines: ${path.relative(process.cwd(), logFile)})`);
  for (const [line, n] of count(errors)) console.log(`  ${n} × ${line.slice(0, 300)}`);
  const all = tally(outcomes);
  const backs = rows.map((r) => r.backAfterS ?? Infinity);
  const late = backs.filter((s) => s > RECOVERY_GOAL_S).length;
  console.log(
    `\nverdict: ${all.errors} × 500/5xx, ${all.bare503} × 503 without Retry-After, slowest recovery ${Math.max(...backs).toFixed(1)} s after a fault's end (${late} of ${rows.length} faults over ${RECOVERY_GOAL_S} s), books ${books.every((b) => b.ok) ? 'exact' : 'WRONG'}; load average ${loadavg().map((l) => l.toFixed(1)).join(', ')}`,
  );
  if (all.errors > 0 || all.bare503 > 0 || late > 0 || !books.every((b) => b.ok)) process.exitCode = 1;
}

function count(lines: string[]): [string, number][] {
  const counts = new Map<string, number>();
  for (const line of lines) counts.set(line, (counts.get(line) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1]);
}
