import { Agent, request } from 'node:http';
import { rng } from '../local-generate.js';
import { FREQUENCIES, type Frequency } from './country.js';
import type { Generated, ScaleAddress } from './generate.js';

export interface Latency {
  n: number;
  p50: number;
  p99: number;
  max: number;
  /** Share of answers naming the right address (validate: street, number and town; autocomplete: in the top 3 once complete). */
  right: number;
}

export interface QueryFigures {
  validate: Record<Frequency, Latency>;
  autocomplete: Record<Frequency, Latency>;
  /**
   * Validate `street number, postcode` with no town: a name in thousands of towns is then told
   * apart by the postcode alone (the store's postcode narrowing); absent in records from before it.
   */
  noTown?: Record<Frequency, Latency>;
  /** Every validate of `validate` in one distribution (the goal's "validate p99"); absent in older records. */
  validateAll?: Latency;
  /**
   * Autocomplete of `street number` as typed before the postcode and town, every class in one
   * distribution (the goal's "autocomplete p99 (street number)"); right when a top-5 suggestion
   * has that street and number. Absent in older records.
   */
  streetNumber?: Latency;
  /** Validate of addresses the file gave no town: the municipality came from the boundaries (OSM only). */
  municipality?: { n: number; right: number };
}

const agent = new Agent({ keepAlive: true, maxSockets: 1 });

export function post(url: string, key: string, path: string, body: unknown): Promise<{ status: number; json: unknown }> {
  return new Promise((resolve, reject) => {
    const payload = JSON.stringify(body);
    const req = request(`${url}${path}`, { method: 'POST', agent, headers: { 'content-type': 'application/json', authorization: `Bearer ${key}`, 'content-length': Buffer.byteLength(payload) } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, json: text ? JSON.parse(text) : undefined }));
    });
    req.on('error', reject);
    req.end(payload);
  });
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
const same = (a: unknown, b: string) => typeof a === 'string' && a.toLowerCase() === b.toLowerCase();

interface Shown {
  street?: string;
  houseNumber?: string;
  city?: string;
}

interface Timing {
  ms: number;
  right: boolean;
}

function latency(timings: readonly Timing[]): Latency {
  const ms = timings.map((t) => t.ms).sort((a, b) => a - b);
  const right = timings.filter((t) => t.right).length;
  return { n: ms.length, p50: percentile(ms, 50), p99: percentile(ms, 99), max: ms.at(-1) ?? 0, right: right / Math.max(1, ms.length) };
}

/**
 * Times `calls` one after another (one request in flight, as a user typing or a form submitting);
 * each timing is also added to `pool` when given (a distribution over several classes).
 */
export async function timed(calls: (() => Promise<boolean>)[], pool?: Timing[]): Promise<Latency> {
  const timings: Timing[] = [];
  for (const call of calls) {
    const t = performance.now();
    const right = await call();
    timings.push({ ms: performance.now() - t, right });
  }
  pool?.push(...timings);
  return latency(timings);
}

/**
 * The workload, per street-name frequency class: validate `street number, postcode town` (the
 * way a checkout form sends it), the same without the town (`noTown`), and autocomplete a prefix of it cut at a random length past
 * the first three letters; then autocomplete `street number` over all classes (`streetNumber`).
 * Every text is asked once, so no cache answers it.
 */
export async function runQueries(url: string, key: string, generated: Generated, osm: boolean): Promise<QueryFigures> {
  const rand = rng(99);
  const full = (a: ScaleAddress) => `${a.street} ${a.number}, ${a.postcode} ${a.city}`;
  const isRight = (a: ScaleAddress, s: Shown | undefined) => !!s && same(s.street, a.street) && same(s.houseNumber, a.number) && same(s.city, a.city);
  const validateOne = (a: ScaleAddress, query: string) => async () => {
    const res = await post(url, key, '/v1/validate', { query, country: 'DE' });
    if (res.status !== 200) throw new Error(`validate ${query}: HTTP ${res.status} ${JSON.stringify(res.json)}`);
    return isRight(a, (res.json as { address?: Shown }).address);
  };
  // Warm-up: the first requests pay for connections, JIT and first page reads.
  // (texts no measured query repeats: town first).
  const warm = FREQUENCIES.flatMap((f) => generated.samples[f].slice(0, 20));
  await timed(warm.map((a) => async () => (await post(url, key, '/v1/autocomplete', { query: `${a.city} ${a.street}`, country: 'DE' })).status === 200));
  const validate = {} as QueryFigures['validate'];
  const autocomplete = {} as QueryFigures['autocomplete'];
  const noTown = {} as NonNullable<QueryFigures['noTown']>;
  const validatePool: Timing[] = [];
  for (const f of FREQUENCIES) {
    const sample = generated.samples[f];
    validate[f] = await timed(sample.map((a) => validateOne(a, full(a))), validatePool);
    noTown[f] = await timed(sample.map((a) => validateOne(a, `${a.street} ${a.number}, ${a.postcode}`)));
    autocomplete[f] = await timed(
      sample.map((a) => {
        const text = full(a);
        const cut = 3 + Math.floor(rand() * (text.length - 2));
        const query = text.slice(0, cut);
        const complete = cut >= `${a.street} ${a.number}, ${a.postcode}`.length;
        return async () => {
          const res = await post(url, key, '/v1/autocomplete', { query, country: 'DE', limit: 5 });
          if (res.status !== 200) throw new Error(`autocomplete ${query}: HTTP ${res.status} ${JSON.stringify(res.json)}`);
          const hits = (res.json as { suggestions: { components: Shown }[] }).suggestions;
          return !complete || hits.slice(0, 3).some((h) => isRight(a, h.components));
        };
      }),
    );
  }
  // `street number` as a user has typed it before the postcode: each text once (a common name's
  // `Hauptstraße 3` is in many towns; asked again it would come from the cache).
  const typed = new Map<string, ScaleAddress>();
  for (const a of FREQUENCIES.flatMap((f) => generated.samples[f])) if (!typed.has(`${a.street} ${a.number}`)) typed.set(`${a.street} ${a.number}`, a);
  const streetNumber = await timed(
    [...typed].map(([query, a]) => async () => {
      const res = await post(url, key, '/v1/autocomplete', { query, country: 'DE', limit: 5 });
      if (res.status !== 200) throw new Error(`autocomplete ${query}: HTTP ${res.status} ${JSON.stringify(res.json)}`);
      const hits = (res.json as { suggestions: { components: Shown }[] }).suggestions;
      return hits.some((h) => same(h.components.street, a.street) && same(h.components.houseNumber, a.number));
    }),
  );
  const figures: QueryFigures = { validate, autocomplete, noTown, validateAll: latency(validatePool), streetNumber };
  if (!osm) return figures;
  // Addresses without addr:city, asked with their municipality: right only if the boundaries gave it.
  const untagged = FREQUENCIES.flatMap((f) => generated.samples[f]).filter((a) => !a.tagged);
  const m = await timed(untagged.map((a) => validateOne(a, `${a.street} ${a.number}, ${a.city}`)));
  return { ...figures, municipality: { n: m.n, right: m.right } };
}
