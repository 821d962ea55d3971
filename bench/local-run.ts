import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { openLocalIndex, type LocalHit } from '../src/local-index/index.js';
import { SQLITE_INDEX_FILE } from '../src/local-index/store/sqlite-store.js';
import { rng, type BenchAddress } from './local-generate.js';

/**
 * One backend's run of the `local` benchmark, in its own process so that its resident
 * memory is its own: import the generated file, then time the query workload.
 * argv: <csv> <sample.json> <sqlite|postgres> <dataDir> [databaseUrl schema]
 */
const [csv, samplePath, backend, dataDir, databaseUrl, schema] = process.argv.slice(2) as [string, string, string, string, string?, string?];

let peakRss = 0;
const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 50);

const typed = (a: BenchAddress) => `${a.street} ${a.number}${a.unit ? `-${a.unit}` : ''}, ${a.postcode} ${a.city}`;
const hnOf = (a: BenchAddress) => `${a.number}${a.unit ? `-${a.unit}` : ''}`;

/** One letter changed, dropped or swapped inside the street name (never in its first 2 letters). */
function typo(s: string, rand: () => number, end: number): string {
  const i = 2 + Math.floor(rand() * Math.max(1, Math.min(end, s.length) - 3));
  const kind = Math.floor(rand() * 3);
  if (kind === 0) return s.slice(0, i) + s.slice(i + 1);
  if (kind === 1) return s.slice(0, i) + s[i + 1] + s[i] + s.slice(i + 2);
  return s.slice(0, i) + (s[i] === 'e' ? 'a' : 'e') + s.slice(i + 1);
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function timed(queries: (() => Promise<boolean>)[]) {
  const ms: number[] = [];
  let right = 0;
  for (const q of queries) {
    const t = performance.now();
    const ok = await q();
    ms.push(performance.now() - t);
    if (ok) right++;
  }
  ms.sort((a, b) => a - b);
  return { n: ms.length, p50: percentile(ms, 50), p99: percentile(ms, 99), max: ms.at(-1)!, hitRate: right / ms.length };
}

const sample = JSON.parse(readFileSync(samplePath, 'utf8')) as BenchAddress[];
const open = () => openLocalIndex({ dataDir, ...(databaseUrl ? { databaseUrl, schema } : {}) });
let index = await open();
const started = performance.now();
const summary = await index.importFile(csv, { format: 'openaddresses', country: 'NL' });
const importSeconds = (performance.now() - started) / 1000;
const importRss = peakRss;

const rand = rng(7);
const isTarget = (a: BenchAddress) => (h: LocalHit) =>
  h.components.street === a.street && h.components.houseNumber === hnOf(a) && h.components.city === a.city;
const warm = sample.slice(0, 200).map((a) => () => index.autocomplete({ query: typed(a).slice(0, 12), limit: 5 }).then(() => true));
await timed(warm);

const autocomplete = sample.slice(0, 10_000).map((a) => {
  const text = typed(a);
  const length = 2 + Math.floor(rand() * 29);
  let query = text.slice(0, length);
  if (rand() < 0.2 && length > 6) query = typo(query, rand, Math.min(length, a.street.length));
  // Counted right when street, number and postcode were typed (a street name alone is shared
  // by some 25 towns here) and the address is in the top 3.
  const upToPostcode = `${a.street} ${hnOf(a)}, ${a.postcode}`;
  const complete = query.startsWith(upToPostcode);
  return () => index.autocomplete({ query, limit: 5 }).then((hits) => !complete || hits.slice(0, 3).some(isTarget(a)));
});
const geocode = sample.slice(0, 10_000).map((a, i) => {
  const street = rand() < 0.2 ? typo(a.street, rand, a.street.length) : a.street;
  const input =
    i % 2 === 0
      ? { query: typed({ ...a, street }) }
      : { components: { street, houseNumber: hnOf(a), postcode: a.postcode, city: a.city } };
  return () => index.geocode(input).then((hits) => hits[0] !== undefined && isTarget(a)(hits[0]));
});

const ac = await timed(autocomplete);
const gc = await timed(geocode);

/**
 * The same workload again once the storage has done the upkeep a bulk write leaves behind
 * (PostgreSQL: the vacuum autovacuum would start and the checkpoint of the new pages; SQLite:
 * the WAL checkpoint), as a server sees it in the days after an import.
 */
async function settle(): Promise<void> {
  if (databaseUrl) {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      await client.query(`VACUUM (ANALYZE) ${schema}.local_addresses, ${schema}.local_streets, ${schema}.local_words`);
      await client.query('CHECKPOINT').catch(() => undefined); // needs a privileged role
    } finally {
      await client.end();
    }
  } else {
    const db = new SQLite(join(dataDir, SQLITE_INDEX_FILE));
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.close();
  }
}
await settle();
// A fresh handle, so the second run starts with cold look-up caches like the first.
await index.close();
index = await open();
await timed(warm);
const settled = { autocomplete: await timed(autocomplete), geocode: await timed(geocode) };

let sizeBytes = 0;
if (databaseUrl) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const res = await client.query<{ bytes: string }>(
    `SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0) AS bytes FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = $1 AND c.relkind IN ('r', 'm')`,
    [schema],
  );
  sizeBytes = Number(res.rows[0]!.bytes);
  await client.end();
} else {
  for (const suffix of ['', '-wal']) {
    try {
      sizeBytes += statSync(join(dataDir, SQLITE_INDEX_FILE + suffix)).size;
    } catch {
      // no WAL file after a checkpoint
    }
  }
}
await index.close();
clearInterval(sampler);
process.stdout.write(
  `${JSON.stringify({
    backend,
    rows: summary.rows,
    imported: summary.imported,
    importSeconds,
    importRate: summary.rows / importSeconds,
    sizeBytes,
    importPeakRss: importRss,
    peakRss: Math.max(peakRss, process.memoryUsage().rss),
    maxRssKb: process.resourceUsage().maxRSS,
    autocomplete: ac,
    geocode: gc,
    settled,
  })}\n`,
);
