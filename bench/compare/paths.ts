import type { BenchAddress } from '../local-generate.js';
import { rng } from '../local-generate.js';
import { DEFAULT_DATASET } from '../../test/emulators/index.js';
import type { Credentials } from './deployment.js';
import type { LoadRequest } from './load-spec.js';

/** One measured path: what is sent, at how many connections, and against which server. */
export interface BenchPath {
  name: string;
  /** `emulated`: providers on 127.0.0.1 answering in a fixed delay; `local`: the offline index only. */
  server: 'emulated' | 'local';
  connections: number;
  requests: LoadRequest[];
  /** Requests must not repeat (an uncached path): the list is consumed, never cycled. */
  unique?: boolean;
  /** Subtract this from latencies to report our own overhead (the providers' fixed delay). */
  providerDelayMs?: number;
  /** Items per request (a batch): the report adds items/s and CPU per item. */
  itemsPerRequest?: number;
}

const json = (headers: Record<string, string>, body: unknown) => ({
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});

/** The emulators' addresses as one line each; the cache-hit paths cycle through these. */
export const HIT_LINES = DEFAULT_DATASET.map((a) => ({ query: `${a.street} ${a.houseNumber}, ${a.postcode} ${a.city}`, country: a.country }));
/** Autocomplete prefixes of the same lines (8 and 12 characters). */
export const HIT_PREFIXES = HIT_LINES.flatMap((l) => [8, 12].map((n) => ({ query: l.query.slice(0, n), country: l.country })));

export function validateHitRequest(key: string, i: number): LoadRequest {
  return { method: 'POST', path: '/v1/validate', ...json({ authorization: `Bearer ${key}` }, HIT_LINES[i % HIT_LINES.length]) };
}

export function autocompleteHitRequest(key: string, i: number): LoadRequest {
  return { method: 'POST', path: '/v1/autocomplete', ...json({ authorization: `Bearer ${key}` }, HIT_PREFIXES[i % HIT_PREFIXES.length]) };
}

const typed = (a: BenchAddress) => `${a.street} ${a.number}${a.unit ? `-${a.unit}` : ''}, ${a.postcode} ${a.city}`;

/** Distinct autocomplete queries from the generated sample: prefixes of 3-30 characters, each once. */
function localPrefixes(sample: BenchAddress[], count: number): string[] {
  const rand = rng(11);
  const seen = new Set<string>();
  const out: string[] = [];
  for (let round = 0; out.length < count && round < 20; round += 1) {
    for (const a of sample) {
      const text = typed(a);
      const query = text.slice(0, 3 + Math.floor(rand() * 28)).trimEnd();
      const norm = query.toLowerCase().replace(/[\s,]+/g, ' ');
      if (seen.has(norm)) continue;
      seen.add(norm);
      out.push(query);
      if (out.length >= count) break;
    }
  }
  return out;
}

/** Free text and structured, alternately, as in `bench:local`. */
function localItem(a: BenchAddress, i: number) {
  return i % 2 === 0
    ? { query: typed(a), country: 'NL' }
    : { components: { street: a.street, houseNumber: `${a.number}${a.unit ? `-${a.unit}` : ''}`, postcode: a.postcode, city: a.city, country: 'NL' } };
}

/** Every path of the issue, for one deployment. */
export function benchPaths(credentials: Credentials, sample: BenchAddress[], providerDelayMs: number): BenchPath[] {
  const auth = { authorization: `Bearer ${credentials.key}` };
  const many = (n: number, make: (i: number) => LoadRequest) => Array.from({ length: n }, (_, i) => make(i));
  // A run number in the text makes every request a cache miss; the providers still find the address.
  // `base` keeps two such paths from asking each other's texts (which would be cache hits); the
  // number stays last, where the emulators' proxy ignores it (bench/emulators-process.ts).
  const dutchLines = HIT_LINES.filter((l) => l.country === 'NL');
  const uncachedValidate = (name: string, connections: number, base: number): BenchPath => ({
    name,
    server: 'emulated',
    connections,
    unique: true,
    providerDelayMs,
    requests: many(40_000, (i) => {
      const line = dutchLines[i % 16]!;
      return { method: 'POST', path: '/v1/validate', ...json(auth, { query: `${line.query} ${base + i}`, country: 'NL' }) };
    }),
  });
  const paths: BenchPath[] = [
    { name: 'GET /healthz', server: 'emulated', connections: 32, requests: [{ method: 'GET', path: '/healthz', headers: {} }] },
    { name: 'validate, cache hit', server: 'emulated', connections: 32, requests: many(HIT_LINES.length, (i) => validateHitRequest(credentials.key, i)) },
    { name: 'autocomplete, cache hit', server: 'emulated', connections: 32, requests: many(HIT_PREFIXES.length, (i) => autocompleteHitRequest(credentials.key, i)) },
    {
      name: 'widget autocomplete, cache hit',
      server: 'emulated',
      connections: 32,
      // Token i with origin i: each pair stays under its 120/minute limit for the run.
      requests: credentials.widgets.map((w, i) => ({
        method: 'POST',
        path: '/v1/widget/autocomplete',
        ...json({ authorization: `Bearer ${w.token}`, origin: w.origin }, HIT_PREFIXES[i % HIT_PREFIXES.length]),
      })),
    },
    { name: 'GET /v1/usage', server: 'emulated', connections: 32, requests: [{ method: 'GET', path: '/v1/usage', headers: auth }] },
    uncachedValidate('validate, uncached (3 providers)', 8, 0),
    // One at a time: our own time per call without queueing behind other calls on 2 cores.
    uncachedValidate('validate, uncached (3 providers), 1 in flight', 1, 1_000_000),
  ];
  if (sample.length > 0) {
    paths.push(
      {
        name: 'local autocomplete, uncached',
        server: 'local',
        connections: 4,
        unique: true,
        requests: localPrefixes(sample, 60_000).map((query) => ({ method: 'POST', path: '/v1/autocomplete', ...json(auth, { query, country: 'NL' }) })),
      },
      {
        name: 'local validate, uncached',
        server: 'local',
        connections: 4,
        unique: true,
        requests: sample.map((a, i) => ({ method: 'POST', path: '/v1/validate', ...json(auth, localItem(a, i)) })),
      },
      {
        // Issue 22: one at a time, our own time per call without queueing.
        name: 'local validate, uncached, 1 in flight',
        server: 'local',
        connections: 1,
        unique: true,
        // From the end of the sample (the other paths take theirs from its start), in the other form.
        requests: [...sample].reverse().map((a, i) => ({ method: 'POST', path: '/v1/validate', ...json(auth, localItem(a, i)) })),
      },
      {
        // Issue 19: batches of 100 distinct uncached items, two in flight.
        name: 'local validate/batch of 100, uncached',
        server: 'local',
        connections: 2,
        unique: true,
        itemsPerRequest: 100,
        requests: Array.from({ length: Math.floor(sample.length / 100) }, (_, b) => ({
          method: 'POST' as const,
          path: '/v1/validate/batch',
          ...json(auth, { items: sample.slice(b * 100, b * 100 + 100).map((a, i) => localItem(a, i + 1)) }),
        })),
      },
    );
  }
  return paths;
}
