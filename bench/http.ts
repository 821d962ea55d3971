import { serve } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Pool } from 'undici';
import { buildApp } from '../src/app.js';
import { warmUpAddressParser } from '../src/address/parse.js';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/lib/logger.js';
import { createServices } from '../src/services.js';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { DEFAULT_DATASET } from '../test/emulators/index.js';

/**
 * `npm run bench -- http`: the hot HTTP paths on one process, embedded defaults (SQLite, in-process
 * cache and limits), providers as local emulators (so figures are our overhead, not the internet's).
 * Each scenario runs a fixed number of requests at a fixed concurrency and prints req/s, p50/p99, RSS.
 */
interface Scenario {
  name: string;
  requests: number;
  concurrency: number;
  request: (i: number) => { method: 'GET' | 'POST'; path: string; body?: unknown; headers?: Record<string, string> };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

async function run(pool: Pool, scenario: Scenario): Promise<void> {
  const latencies: number[] = [];
  let next = 0;
  let failures = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < scenario.requests) {
      const i = next++;
      const r = scenario.request(i);
      const t0 = performance.now();
      const res = await pool.request({
        method: r.method,
        path: r.path,
        headers: { 'content-type': 'application/json', ...r.headers },
        ...(r.body === undefined ? {} : { body: JSON.stringify(r.body) }),
      });
      await res.body.text();
      latencies.push(performance.now() - t0);
      if (res.statusCode !== 200) failures += 1;
    }
  };
  await Promise.all(Array.from({ length: scenario.concurrency }, worker));
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const rss = process.memoryUsage().rss / 1024 / 1024;
  console.log(
    `${scenario.name.padEnd(34)} ${String(Math.round(scenario.requests / seconds)).padStart(7)} req/s  p50 ${percentile(latencies, 50).toFixed(2).padStart(6)} ms  p99 ${percentile(latencies, 99).toFixed(2).padStart(6)} ms  rss ${rss.toFixed(0)} MiB${failures ? `  (${failures} non-200)` : ''}`,
  );
}

export async function benchHttp(): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'addressd-bench-'));
  // The emulators run in their own process, so their search does not count as our latency.
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'emulators-process.ts')], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [firstLine] = (await once(child.stdout, 'data')) as [Buffer];
  const urls = JSON.parse(firstLine.toString()) as { pdok: string; photon: string; nominatim: string };
  const config = loadConfig({
    DATA_DIR: dataDir,
    PROVIDERS: 'pdok,photon,nominatim',
    PDOK_URL: urls.pdok,
    PHOTON_URL: urls.photon,
    NOMINATIM_URL: urls.nominatim,
    LOG_LEVEL: 'silent',
  });
  const services = await createServices(config, { logger: createLogger('silent') });
  warmUpAddressParser();
  const app = buildApp(services);
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const pool = new Pool(origin, { connections: 64 });
  const account = await services.accounts.create({ plan: 'scale' });
  const key = (await services.secretKeys.create(account.id, 'live')).key;
  const token = (await services.tokens.create(account.id, 'live', ['https://shop.example'])).token;
  const auth = { authorization: `Bearer ${key}` };
  const nl = DEFAULT_DATASET.filter((a) => a.country === 'NL');
  const line = (i: number) => {
    const a = nl[i % nl.length]!;
    return `${a.street} ${a.houseNumber}, ${a.postcode} ${a.city}`;
  };

  console.log(`addressd HTTP benchmark — node ${process.version}, embedded defaults, providers emulated on 127.0.0.1 in a separate process`);
  const scenarios: Scenario[] = [
    { name: 'GET /healthz', requests: 20_000, concurrency: 32, request: () => ({ method: 'GET', path: '/healthz' }) },
    {
      name: 'POST /v1/validate (cache miss, 3 prov.)',
      requests: 2_000,
      concurrency: 16,
      request: (i) => ({ method: 'POST', path: '/v1/validate', headers: auth, body: { query: `${line(i)} ${i}`, country: 'NL' } }),
    },
    {
      name: 'POST /v1/validate (cache hit)',
      requests: 10_000,
      concurrency: 32,
      request: (i) => ({ method: 'POST', path: '/v1/validate', headers: auth, body: { query: line(i), country: 'NL' } }),
    },
    {
      name: 'POST /v1/autocomplete (cache hit)',
      requests: 10_000,
      concurrency: 32,
      request: (i) => ({ method: 'POST', path: '/v1/autocomplete', headers: auth, body: { query: line(i).slice(0, 8), country: 'NL' } }),
    },
    {
      name: 'POST /v1/widget/autocomplete (hit)',
      requests: 100,
      concurrency: 4,
      request: (i) => ({
        method: 'POST',
        path: '/v1/widget/autocomplete',
        headers: { authorization: `Bearer ${token}`, origin: 'https://shop.example' },
        body: { query: line(i).slice(0, 8), country: 'NL' },
      }),
    },
    { name: 'GET /v1/usage', requests: 1_000, concurrency: 8, request: () => ({ method: 'GET', path: '/v1/usage', headers: auth }) },
  ];
  // Warm the caches the "hit" scenarios read.
  for (let i = 0; i < nl.length; i += 1) {
    await pool.request({ method: 'POST', path: '/v1/validate', headers: { 'content-type': 'application/json', ...auth }, body: JSON.stringify({ query: line(i), country: 'NL' }) }).then((r) => r.body.text());
    await pool.request({ method: 'POST', path: '/v1/autocomplete', headers: { 'content-type': 'application/json', ...auth }, body: JSON.stringify({ query: line(i).slice(0, 8), country: 'NL' }) }).then((r) => r.body.text());
  }
  for (const scenario of scenarios) await run(pool, scenario);

  await pool.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await services.close();
  child.kill('SIGTERM');
  rmSync(dataDir, { recursive: true, force: true });
}
