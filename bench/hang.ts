import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { serve } from '@hono/node-server';
import { Pool } from 'undici';
import { warmUpAddressParser } from '../src/address/parse.js';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/lib/logger.js';
import { createServices } from '../src/services.js';
import { DEFAULT_DATASET } from '../test/emulators/index.js';

/**
 * `npm run bench:hang`: what a hanging provider costs past its timeout. PDOK is a TCP server that
 * accepts and never answers; Photon and Nominatim answer from their emulators in another process.
 * For 1, 4 and 16 requests in flight it prints, past PROVIDER_TIMEOUT_MS, the p50/p95/max of
 *   - guard: the hanging provider's own trace step (timer + breaker + abort: the engine's share),
 *   - http:  the whole request as the client saw it (adds scoring, billing, the response path).
 * The goal is http max ≤ 50 ms. The breaker never opens here (BREAKER_FAILURES=1000), so every
 * request really waits for the timeout.
 */
const TIMEOUT_MS = 500;
const LEVELS = [
  { inFlight: 1, requests: 40 },
  { inFlight: 4, requests: 80 },
  { inFlight: 16, requests: 160 },
];

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

const summary = (values: number[]) => {
  const s = [...values].sort((a, b) => a - b);
  return `${percentile(s, 50).toFixed(0).padStart(4)} /${percentile(s, 95).toFixed(0).padStart(4)} /${(s.at(-1) ?? 0).toFixed(0).padStart(4)} ms`;
};

/** Accepts connections and never answers; closes them on exit. */
async function startHangingServer(): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.resume();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/bzk/locatieserver/search/v3_1`,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export async function benchHang(): Promise<void> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'emulators-process.ts')], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [firstLine] = (await once(child.stdout, 'data')) as [Buffer];
  const urls = JSON.parse(firstLine.toString()) as { photon: string; nominatim: string };
  const hanging = await startHangingServer();
  warmUpAddressParser();
  const nl = DEFAULT_DATASET.filter((a) => a.country === 'NL');

  console.log(`hanging provider, PROVIDER_TIMEOUT_MS=${TIMEOUT_MS}; time past the timeout, p50 / p95 / max — node ${process.version}`);
  for (const level of LEVELS) {
    // A fresh app per level: breaker, sockets and caches start equal.
    const dataDir = mkdtempSync(path.join(tmpdir(), 'addressd-bench-hang-'));
    const config = loadConfig({
      DATA_DIR: dataDir,
      PROVIDERS: 'pdok,photon,nominatim',
      PDOK_URL: hanging.url,
      PHOTON_URL: urls.photon,
      NOMINATIM_URL: urls.nominatim,
      PROVIDER_TIMEOUT_MS: String(TIMEOUT_MS),
      BREAKER_FAILURES: '1000',
      LOG_LEVEL: 'silent',
    });
    const services = await createServices(config, { logger: createLogger('silent') });
    const app = buildApp(services);
    const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
      const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
    });
    const pool = new Pool(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, { connections: 32 });
    const account = await services.accounts.create({ plan: 'scale' });
    const key = (await services.secretKeys.create(account.id, 'live')).key;

    const guard: number[] = [];
    const http: number[] = [];
    let next = 0;
    const worker = async () => {
      while (next < level.requests) {
        const i = next++;
        const a = nl[i % nl.length]!;
        const t0 = performance.now();
        const res = await pool.request({
          method: 'POST',
          path: '/v1/validate',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
          // debug: a fresh lookup every time, and the trace says what the guard measured.
          body: JSON.stringify({ query: `${a.street} ${a.houseNumber}, ${a.postcode} ${a.city}`, country: 'NL', debug: true }),
        });
        const body = (await res.body.json()) as { trace?: { provider: string; status: string; latencyMs?: number }[] };
        http.push(performance.now() - t0 - TIMEOUT_MS);
        const step = body.trace?.find((s) => s.provider === 'pdok');
        if (res.statusCode !== 200 || step?.status !== 'timeout') throw new Error(`unexpected answer ${res.statusCode} ${JSON.stringify(step)}`);
        guard.push((step.latencyMs ?? 0) - TIMEOUT_MS);
      }
    };
    await Promise.all(Array.from({ length: level.inFlight }, worker));
    console.log(`${String(level.inFlight).padStart(2)} in flight (${level.requests} requests)   guard ${summary(guard)}   http ${summary(http)}`);

    await pool.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await services.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  await hanging.close();
  child.kill('SIGTERM');
}
