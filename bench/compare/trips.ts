import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import SQLite from 'better-sqlite3';
import { Redis } from 'ioredis';
import pg from 'pg';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { createServices } from '../../src/services.js';
import { generateAddresses } from '../local-generate.js';
import { createCredentials, createStorage, importLocal, type StorageKind, type Target } from './deployment.js';
import { loadAverage } from './processes.js';

/**
 * `npm run bench:trips`: what ONE request costs the service, counted rather than timed: round
 * trips to the main database (statements sent; BEGIN and COMMIT count), to Redis (commands, and
 * the round trips they take: a pipeline is one), and the process's CPU per request, for an
 * uncached `POST /v1/validate`, a cached one, an uncached autocomplete and an uncached
 * `POST /v1/validate/batch` of `--batch` items, on both stores (`PROVIDERS=local`, a small
 * generated index). The service runs in this process (app.request, no sockets: HTTP's own cost is
 * `npm run bench`'s), one request at a time. The local index's own statements are counted apart
 * (`+N index`, PostgreSQL only): they are the index's business, not the request pipeline's.
 */
const { values: args } = parseArgs({
  options: {
    only: { type: 'string', default: 'embedded,pg+redis' },
    requests: { type: 'string', default: '300' },
    batch: { type: 'string', default: '100' },
    'local-count': { type: 'string', default: '20000' },
    trace: { type: 'boolean', default: false },
    /** BATCH_CONCURRENCY: items of a batch in flight at once (the service's default when unset). */
    concurrency: { type: 'string' },
    /** A regular expression over path names: only those are measured. */
    paths: { type: 'string' },
  },
});
const ROOT = path.resolve(import.meta.dirname, '..', '..');
const target: Target = { root: ROOT, runtime: 'tsx' };
const requests = Number(args.requests);
const batchSize = Number(args.batch);

/** Counters the patched drivers add to; `main` tells the main store's SQLite file from the index's. */
const counts = { sqlite: 0, pg: 0, index: 0, redis: 0, redisTrips: 0 };
let mainSqliteFile = '';
let countPg = false;
/** --trace: each statement of the first request of every path is printed. */
let trace = false;

// SQLite: every statement run on the main store's file.
const statementProto = Object.getPrototypeOf(new SQLite(':memory:').prepare('select 1')) as Record<string, (...a: unknown[]) => unknown>;
for (const method of ['run', 'get', 'all', 'iterate']) {
  const original = statementProto[method]!;
  statementProto[method] = function (this: { database: { name: string } }, ...a: unknown[]) {
    if (this.database.name === mainSqliteFile) {
      counts.sqlite += 1;
      if (trace) console.log(`    sqlite: ${(this as unknown as { source: string }).source.slice(0, 110)}`);
    }
    return original.apply(this, a);
  };
}
// PostgreSQL: every query of the main store (its tables, and transaction control; the index only reads).
const MAIN_STORE = /^\s*(begin|commit|rollback)|\baddressd_reserve\b|\b(accounts|credit_months|credit_reservations|usage_events|usage_daily|api_keys|publishable_tokens|token_origins|bulk_receipts)\b/i;
const pgQuery = pg.Client.prototype.query as (...a: unknown[]) => unknown;
pg.Client.prototype.query = function (this: pg.Client, ...a: unknown[]) {
  const text = typeof a[0] === 'string' ? a[0] : ((a[0] as { text?: string } | undefined)?.text ?? '');
  if (countPg && MAIN_STORE.test(text)) {
    counts.pg += 1;
    if (trace) console.log(`    pg: ${text.slice(0, 110)}`);
  } else if (countPg) counts.index += 1;
  return pgQuery.apply(this, a);
} as typeof pg.Client.prototype.query;
// Redis: every command (cache, limiter), and the round trips they take: a pipeline's commands
// reach sendCommand with the pipeline's stream, written together once the pipeline is exec'd.
const pipelines = new WeakSet<object>();
const sendCommand = Redis.prototype.sendCommand as (...a: unknown[]) => unknown;
Redis.prototype.sendCommand = function (this: Redis, ...a: unknown[]) {
  counts.redis += 1;
  const stream = a[1] as { isPipeline?: boolean } | undefined;
  if (!stream?.isPipeline) counts.redisTrips += 1;
  else if (!pipelines.has(stream)) {
    pipelines.add(stream);
    counts.redisTrips += 1;
  }
  if (trace) console.log(`    redis: ${(a[0] as { name?: string } | undefined)?.name ?? ''}`);
  return sendCommand.apply(this, a);
} as typeof Redis.prototype.sendCommand;

const work = mkdtempSync(path.join(tmpdir(), 'addressd-trips-'));
const csv = path.join(work, 'addresses.csv');
const sample = await generateAddresses(csv, Number(args['local-count']), 20_000);
const typed = (a: (typeof sample)[number]) => `${a.street} ${a.number}${a.unit ? `-${a.unit}` : ''}, ${a.postcode} ${a.city}`;

console.log(`bench:trips — node ${process.version}, ${requests} requests one at a time per path, index ${sample.length ? args['local-count'] : 0} addresses, load average ${loadAverage().toFixed(2)}`);
try {
  for (const kind of args.only.split(',') as StorageKind[]) {
    const storage = await createStorage(kind);
    try {
      const credentials = await createCredentials(target, storage, 1);
      await importLocal(target, storage, csv);
      const config = loadConfig({
        ...storage.env,
        PROVIDERS: 'local',
        LOG_LEVEL: 'warn',
        PORT: '0',
        ...(args.concurrency !== undefined ? { BATCH_CONCURRENCY: args.concurrency } : {}),
      });
      mainSqliteFile = path.join(config.DATA_DIR, 'addressd.sqlite');
      const services = await createServices(config);
      const app = buildApp(services);
      const auth = { authorization: `Bearer ${credentials.key}`, 'content-type': 'application/json' };
      const post = async (url: string, body: unknown) => {
        const res = await app.request(url, { method: 'POST', headers: auth, body: JSON.stringify(body) });
        if (res.status !== 200) throw new Error(`${url} answered ${res.status}: ${await res.text()}`);
        return res.text();
      };
      let next = 0;
      const item = () => {
        const a = sample[next++ % sample.length]!;
        return { query: `${typed(a)}`, country: 'NL' };
      };
      // Warm-up: parser, prepared statements, JIT.
      for (let i = 0; i < 50; i += 1) await post('/v1/validate', item());
      await services.ledger.idle();

      const measure = async (name: string, n: number, perRequest: number, send: () => Promise<unknown>) => {
        if (args.paths && !new RegExp(args.paths, 'i').test(name)) return;
        await services.ledger.idle();
        countPg = true;
        const before = { ...counts };
        const cpu = process.cpuUsage();
        const started = performance.now();
        for (let i = 0; i < n; i += 1) {
          trace = args.trace && i === 0;
          await send();
          if (trace) await services.ledger.idle();
          trace = false;
        }
        await services.ledger.idle();
        const used = process.cpuUsage(cpu);
        const ms = performance.now() - started;
        countPg = false;
        const per = (k: keyof typeof counts) => ((counts[k] - before[k]) / n).toFixed(1);
        const cpuMs = (used.user + used.system) / 1000 / n;
        const items = perRequest > 1 ? `, ${Math.round((n * perRequest) / (ms / 1000))} items/s, CPU ${(cpuMs / perRequest).toFixed(3)} ms/item` : '';
        console.log(
          `  ${name.padEnd(38)} db ${kind === 'embedded' ? per('sqlite') : per('pg')} statements${kind === 'embedded' ? '' : ` (+${per('index')} index)`}, redis ${per('redis')} (${per('redisTrips')} round trips), CPU ${cpuMs.toFixed(2)} ms/req, wall ${(ms / n).toFixed(2)} ms/req${items}`,
        );
      };
      console.log(`${kind}:`);
      await measure('validate, uncached', requests, 1, () => post('/v1/validate', item()));
      const seen = item();
      await post('/v1/validate', seen);
      await measure('validate, cache hit', requests, 1, () => post('/v1/validate', seen));
      // The widget's hit: origin and publishable token checked, its two limits counted, the account's credits.
      const widget = credentials.widgets[0]!;
      const widgetHit = { query: typed(sample[0]!).slice(0, 12), country: 'NL' };
      const widgetPost = async () => {
        const res = await app.request('/v1/widget/autocomplete', {
          method: 'POST',
          headers: { authorization: `Bearer ${widget.token}`, origin: widget.origin, 'content-type': 'application/json' },
          body: JSON.stringify(widgetHit),
        });
        if (res.status !== 200) throw new Error(`widget autocomplete answered ${res.status}: ${await res.text()}`);
        return res.text();
      };
      await widgetPost();
      // At most 120 a minute per token and per origin (SPEC): this path stays under it.
      await measure('widget autocomplete, cache hit', Math.min(requests, 100), 1, widgetPost);
      await measure('autocomplete, uncached', requests, 1, () => {
        const a = sample[next++ % sample.length]!;
        return post('/v1/autocomplete', { query: typed(a).slice(0, 12 + (next % 10)), country: 'NL' });
      });
      await measure(`validate/batch, ${batchSize} uncached`, Math.max(3, Math.round(requests / batchSize)), batchSize, () =>
        post('/v1/validate/batch', { items: Array.from({ length: batchSize }, item) }),
      );
      await services.close();
    } finally {
      await storage.cleanup();
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
console.log(`load average at the end ${loadAverage().toFixed(2)}`);
