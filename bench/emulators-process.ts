import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startNominatimEmulator, startPdokEmulator, startPhotonEmulator } from '../test/emulators/index.js';

/**
 * Child process for the HTTP bench: the provider emulators on their own CPU, URLs on stdout.
 * argv: [delayMs]. With a delay, each emulator sits behind a small proxy that answers every call
 * exactly delayMs after it arrived, so a validate's latency minus delayMs is our own overhead.
 * The emulators' search costs milliseconds per query, which would make the delay anything but
 * fixed under load; so the proxy remembers each answer by its URL with the bench's trailing run
 * number (` 123`, which makes each validate a cache miss for us) taken out of the query text.
 */
const delayMs = Number(process.argv[2] ?? 0);
const emulators = await Promise.all([startPdokEmulator(), startPhotonEmulator(), startNominatimEmulator()]);
// The emulators log every request for tests to inspect; a bench run would only grow that list.
setInterval(() => {
  for (const emulator of emulators) emulator.requests.length = 0;
}, 1000).unref();

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

async function fixedDelay(target: string): Promise<string> {
  const base = new URL(target);
  const answers = new Map<string, Promise<Answer>>();
  const server = createServer((req, res) => {
    const arrived = performance.now();
    const url = new URL(req.url ?? '/', base.origin);
    for (const name of ['q', 'text']) {
      const value = url.searchParams.get(name);
      if (value) url.searchParams.set(name, value.replace(/\s+\d+$/, ''));
    }
    const key = url.toString();
    let answer = answers.get(key);
    if (!answer) {
      answer = fetch(key, { headers: { 'user-agent': String(req.headers['user-agent'] ?? 'bench') } }).then(async (r) => ({
        status: r.status,
        headers: { 'content-type': r.headers.get('content-type') ?? 'application/json' },
        body: await r.text(),
      }));
      answers.set(key, answer);
    }
    void answer.then((a) => {
      setTimeout(() => res.writeHead(a.status, a.headers).end(a.body), Math.max(0, delayMs - (performance.now() - arrived)));
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}${base.pathname.replace(/\/$/, '')}`;
}

const urls = await Promise.all(emulators.map((e) => (delayMs > 0 ? fixedDelay(e.url) : e.url)));
process.stdout.write(`${JSON.stringify({ pdok: urls[0], photon: urls[1], nominatim: urls[2] })}\n`);
process.on('SIGTERM', () => {
  void Promise.all(emulators.map((e) => e.close())).then(() => process.exit(0));
});
