import { type ChildProcessByStdio, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { Pool } from 'undici';
import { warmUpAddressParser } from '../src/address/parse.js';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import type { RunOptions } from '../src/engine/fan-out.js';
import { createLogger } from '../src/lib/logger.js';
import { listen } from '../src/server.js';
import { createServices } from '../src/services.js';
import { DEFAULT_DATASET } from '../test/emulators/index.js';

/**
 * `npm run bench:hang`: what a hanging provider costs past its timeout. PDOK is a TCP server that
 * accepts and never answers; Photon and Nominatim answer in a fixed 20 ms from their emulators in
 * another process. For 1, 4 and 16 requests in flight it prints p50 / p95 / max of:
 *   - total: the request as the client saw it, minus the wait (PROVIDER_TIMEOUT_MS; the goal ≤ 50 ms),
 *   - before: request received → fan-out started (auth, quota gate, parsing, cache read, reservation),
 *   - fan-out: the fan-out's duration minus the wait (the timer, the breaker, the abort),
 *   - after: fan-out done → answer read by the client (scoring, settling the credits, the response).
 * Then the same with PDOK answering like the others (wait = their 20 ms): the baseline, so what the
 * hang itself adds shows in the fan-out column. Phases are matched to requests by X-Request-Id;
 * WARM_UP requests per level run first, uncounted. The breaker never opens (BREAKER_FAILURES=1000),
 * so every request really waits for the timeout. Figures depend on the machine's load (printed):
 * another process taking the CPU shows up in every column.
 */
const TIMEOUT_MS = 500;
/** How long the emulators' proxy takes to answer (bench/emulators-process.ts). */
const PROVIDER_DELAY_MS = 20;
const WARM_UP = 8;
const LEVELS = [
  { inFlight: 1, requests: 40 },
  { inFlight: 4, requests: 80 },
  { inFlight: 16, requests: 160 },
];

interface Timing {
  sent: number;
  fanOutStart?: number;
  fanOutEnd?: number;
  received?: number;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

const summary = (values: number[]) => {
  const s = [...values].sort((a, b) => a - b);
  return `${percentile(s, 50).toFixed(0).padStart(4)} /${percentile(s, 95).toFixed(0).padStart(4)} /${(s.at(-1) ?? 0).toFixed(0).padStart(4)}`;
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
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'emulators-process.ts'), String(PROVIDER_DELAY_MS)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    await measure(child);
  } finally {
    child.kill('SIGTERM');
  }
}

async function measure(child: ChildProcessByStdio<null, Readable, null>): Promise<void> {
  const [firstLine] = (await once(child.stdout, 'data')) as [Buffer];
  const urls = JSON.parse(firstLine.toString()) as { pdok: string; photon: string; nominatim: string };
  const hanging = await startHangingServer();
  warmUpAddressParser();
  console.log(`PROVIDER_TIMEOUT_MS=${TIMEOUT_MS}, node ${process.version}, load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  console.log('ms, p50 / p95 / max                 total past wait       before fan-out        fan-out past wait     after fan-out');
  // The baseline: the same requests with PDOK answering like the others, "wait" being their 20 ms.
  // What the hang itself costs is the difference in the fan-out column.
  for (const [name, pdokUrl, waitMs] of [
    ['PDOK hangs', hanging.url, TIMEOUT_MS],
    ['no hang (baseline)', urls.pdok, PROVIDER_DELAY_MS],
  ] as const) {
    for (const level of LEVELS) {
      const row = await runLevel(level, { pdok: pdokUrl, photon: urls.photon, nominatim: urls.nominatim }, waitMs);
      console.log(`${name.padEnd(19)}${String(level.inFlight).padStart(2)} in flight ${row}`);
    }
  }
  await hanging.close();
}

const NL = DEFAULT_DATASET.filter((a) => a.country === 'NL');

/** One fresh app (breaker, sockets and caches start equal), `level.requests` validates; one table row. */
async function runLevel(level: { inFlight: number; requests: number }, urls: { pdok: string; photon: string; nominatim: string }, waitMs: number): Promise<string> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'addressd-bench-hang-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    PROVIDERS: 'pdok,photon,nominatim',
    PDOK_URL: urls.pdok,
    PHOTON_URL: urls.photon,
    NOMINATIM_URL: urls.nominatim,
    PROVIDER_TIMEOUT_MS: String(TIMEOUT_MS),
    BREAKER_FAILURES: '1000',
    LOG_LEVEL: 'silent',
  });
  const services = await createServices(config, { logger: createLogger('silent') });
  const timings = new Map<string, Timing>();
  // Bench-only instrumentation: the fan-out's start and end, per request id.
  const run = services.runner.run.bind(services.runner) as (...args: unknown[]) => Promise<unknown>;
  Object.assign(services.runner, {
    run: async (...args: unknown[]) => {
      const timing = timings.get((args[3] as RunOptions | undefined)?.requestId ?? '');
      if (timing) timing.fanOutStart = performance.now();
      try {
        return await run(...args);
      } finally {
        if (timing) timing.fanOutEnd = performance.now();
      }
    },
  });
  const http = await listen(buildApp(services), config);
  const pool = new Pool(`http://127.0.0.1:${http.port}`, { connections: 32 });
  const account = await services.accounts.create({ plan: 'scale' });
  const key = (await services.secretKeys.create(account.id, 'live')).key;

  let next = -WARM_UP;
  const worker = async () => {
    while (next < level.requests) {
      const i = next++;
      const a = NL[(i + WARM_UP) % NL.length]!;
      const id = `bench-${level.inFlight}-${i}`;
      const timing: Timing = { sent: performance.now() };
      // The first requests compile code paths and prepare statements: run, not counted.
      if (i >= 0) timings.set(id, timing);
      const res = await pool.request({
        method: 'POST',
        path: '/v1/validate',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${key}`, 'x-request-id': id },
        // A trailing run number: a fresh lookup each time (the emulators' proxy ignores it).
        body: JSON.stringify({ query: `${a.street} ${a.houseNumber}, ${a.postcode} ${a.city} ${i}`, country: 'NL' }),
      });
      await res.body.text();
      timing.received = performance.now();
      if (res.statusCode !== 200) throw new Error(`unexpected answer ${res.statusCode}`);
      // Photon and Nominatim did not answer in time either (a very busy machine): not this bench's case.
      if (res.headers['x-addressd-unverified'] !== undefined) timings.delete(id);
    }
  };
  await Promise.all(Array.from({ length: level.inFlight }, worker));
  await pool.close();
  await http.drain(1000);
  await services.close();
  rmSync(dataDir, { recursive: true, force: true });

  const skipped = level.requests - timings.size;
  const done = [...timings.values()].filter((t): t is Required<Timing> => t.fanOutStart !== undefined && t.fanOutEnd !== undefined && t.received !== undefined);
  return [
    summary(done.map((t) => t.received - t.sent - waitMs)),
    summary(done.map((t) => t.fanOutStart - t.sent)),
    summary(done.map((t) => t.fanOutEnd - t.fanOutStart - waitMs)),
    summary(done.map((t) => t.received - t.fanOutEnd)),
  ]
    .map((c) => c.padEnd(22))
    .join('')
    .concat(skipped ? `(${skipped} left out: no provider answered)` : '');
}
