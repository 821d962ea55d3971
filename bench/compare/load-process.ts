import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import type { LoadResult, LoadSpec } from './load-spec.js';

/**
 * The load generator, in its own process so that its work never shares the server's event loop:
 * autocannon drives `connections` keep-alive connections, each request taken in turn from the
 * spec's list (a shared counter, so a list longer than the run means no request repeats).
 * Latencies are kept at full resolution here (autocannon's histogram rounds to whole ms).
 * argv: <spec.json>; prints one LoadResult line on stdout.
 */
const spec = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as LoadSpec;

// Shared by the warm-up and the measured run, so a request list that must not repeat runs on.
let next = spec.offset ?? 0;

async function run(seconds: number, keep: boolean): Promise<Omit<LoadResult, 'total'> & { counted: number }> {
  const latencies: number[] = [];
  let counted = 0;
  const first = next;
  let cached = 0;
  let answered = 0;
  const started = performance.now();
  const instance = autocannon({
    url: spec.url,
    connections: spec.connections,
    duration: seconds,
    // Every response counts: a 429 or 500 is reported, never silently dropped from the figures.
    requests: [
      {
        setupRequest: (request) => {
          const r = spec.requests[next++ % spec.requests.length]!;
          return { ...request, method: r.method, path: r.path, headers: r.headers, ...(r.body !== undefined ? { body: r.body } : { body: undefined }) };
        },
        onResponse: (status, body) => {
          if (status !== 200) return;
          answered += 1;
          if (body.includes('"cached":true')) cached += 1;
        },
      },
    ],
  });
  instance.on('response', (_client, _status, _bytes, responseTime) => {
    counted += 1;
    if (keep) latencies.push(responseTime);
  });
  const result = await instance;
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? 0;
  const non2xx = result.non2xx + result.errors + result.timeouts;
  return {
    requests: latencies.length,
    seconds: elapsed,
    rps: latencies.length / elapsed,
    p50: at(50),
    p99: at(99),
    max: latencies.at(-1) ?? 0,
    failed: non2xx,
    statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, s]) => [code, s.count])),
    cachedShare: answered ? cached / answered : 0,
    used: next - first,
    counted,
  };
}

const warm = spec.warmupSeconds > 0 ? await run(spec.warmupSeconds, false) : undefined;
const measured = await run(spec.durationSeconds, true);
const { counted, ...figures } = measured;
process.stdout.write(`${JSON.stringify({ ...figures, total: counted + (warm?.counted ?? 0) } satisfies LoadResult)}\n`);
