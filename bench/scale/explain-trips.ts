/**
 * Statements per search and their server time on PostgreSQL, with and without the street search
 * riding along with the word look-up (issue 30): every statement a fresh store sends for a
 * sampled validate and keystroke is captured and run again under EXPLAIN ANALYZE (planning +
 * execution time as the server reports them; no wall-clock timing, so it runs on a busy machine).
 *
 *   npx tsx bench/scale/explain-trips.ts [--count 200000] [--sample 20] [--classes]
 *
 * `--classes`: each shape's figures also per name frequency class (rare, common, most common), with
 * the p99 and the maximum, the tail a class's keystrokes wait for.
 *
 * Generates a country-shaped CSV, imports it into a fresh schema of DATABASE_URL (default: the
 * test database), prints median statements and server milliseconds per shape, drops the schema.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openLocalIndex } from '../../src/local-index/index.js';
import { autocomplete, geocode, primeGeocodes } from '../../src/local-index/search/search.js';
import { openPgStore } from '../../src/local-index/store/pg-store.js';
import type { IndexStore } from '../../src/local-index/store/store.js';
import { countryTowns, FREQUENCIES } from './country.js';
import { generateCsv, type ScaleAddress } from './generate.js';

const flag = (name: string) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const count = Number(flag('--count') ?? 200_000);
const sample = Number(flag('--sample') ?? 20);
const url = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const schema = `trips_${process.pid}`;

type Shape = [string, (store: IndexStore, a: ScaleAddress) => Promise<unknown>];
const SHAPES: Shape[] = [
  ['validate (street, number, postcode, town)', (s, a) => geocode(s, { components: { street: a.street, houseNumber: a.number, postcode: a.postcode, city: a.city }, country: 'DE' })],
  ['validate (street, number, town; no postcode)', (s, a) => geocode(s, { components: { street: a.street, houseNumber: a.number, city: a.city }, country: 'DE' })],
  ['geocode text (street number, postcode town)', (s, a) => geocode(s, { query: `${a.street} ${a.number}, ${a.postcode} ${a.city}`, country: 'DE' })],
  ['keystroke (street, number being typed)', (s, a) => autocomplete(s, { query: `${a.street} ${a.number.slice(0, 1)}`, country: 'DE', limit: 5 })],
  ['keystroke (street being typed)', (s, a) => autocomplete(s, { query: a.street.slice(0, Math.max(3, a.street.length - 2)), country: 'DE', limit: 5 })],
];

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const p99 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.99))] ?? 0;
type Figures = { trips: number[]; ms: number[] };
const classFigures = (f: Figures) =>
  `statements median ${median(f.trips)}, p99 ${p99(f.trips)}, max ${Math.max(...f.trips)}; server ms median ${median(f.ms).toFixed(2)}, p99 ${p99(f.ms).toFixed(2)}, max ${Math.max(...f.ms).toFixed(2)}`;

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'explain-trips-'));
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  const schemaUrl = `${url}${url.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  try {
    const generated = await generateCsv(join(dir, 'de.csv'), { count, towns: countryTowns(count), sample });
    const index = await openLocalIndex({ dataDir: dir, databaseUrl: schemaUrl, schema });
    await index.importFile(join(dir, 'de.csv'), { format: 'openaddresses', country: 'DE' });
    await index.close();
    await admin.query(`SET search_path = ${schema}, public`);
    const sent: { text: string; name?: string; values?: unknown[] }[] = [];
    const original = pg.Pool.prototype.query;
    pg.Pool.prototype.query = function (this: pg.Pool, ...args: unknown[]) {
      const [q, v] = args as [string | { text: string; name?: string; values?: unknown[] }, unknown[] | undefined];
      sent.push(typeof q === 'string' ? { text: q, ...(v ? { values: v } : {}) } : q);
      return (original as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof original;
    // Each statement as the store runs it: a named one prepared once in this session and run
    // through its cached plan (after five runs PostgreSQL may switch it to a generic plan, as in
    // production: the last of RUNS runs is reported), an unnamed one planned every time.
    const prepared = new Map<string, string>();
    const RUNS = 6;
    const serverMs = async () => {
      let ms = 0;
      for (const s of sent) {
        const values = s.values ?? [];
        let text = `EXPLAIN (ANALYZE, FORMAT TEXT) ${s.text}`;
        if (s.name) {
          let p = prepared.get(s.text);
          if (!p) {
            prepared.set(s.text, (p = `p${prepared.size}`));
            await admin.query(`PREPARE ${p} AS ${s.text}`);
          }
          // (EXECUTE takes no bound parameters: the values are written as literals.)
          const literal = (v: unknown) => (v === null || v === undefined ? 'NULL' : pg.escapeLiteral(String(v)));
          text = `EXPLAIN (ANALYZE, FORMAT TEXT) EXECUTE ${p}(${values.map(literal).join(', ')})`;
        }
        let last = 0;
        for (let run = 0; run < (s.name ? RUNS : 1); run++) {
          last = 0;
          const res = await admin.query<{ 'QUERY PLAN': string }>(s.name ? text : { text, values });
          for (const r of res.rows) {
            const m = /^(Planning|Execution) Time: ([\d.]+) ms/.exec(r['QUERY PLAN']);
            if (m) last += Number(m[2]);
          }
        }
        ms += last;
      }
      return ms;
    };
    console.log(`${count.toLocaleString('en')} addresses; per shape, median over ${FREQUENCIES.length * sample} sampled addresses of a fresh store`);
    if (process.argv.includes('--print')) {
      const a = generated.samples.common[0]!;
      for (const mode of ['before', 'after'] as const) {
        const store = await openPgStore(schemaUrl, { schema });
        const asked = mode === 'after' ? store : { ...store, lookUp: (i: Parameters<IndexStore['lookUp']>[0]) => store.lookUp({ ...i, prefetch: undefined }) };
        sent.length = 0;
        await SHAPES[0]![1](asked, a);
        console.log(mode, JSON.stringify(sent));
        await store.close();
      }
    }
    for (const [name, run] of SHAPES) {
      const figures = { before: { trips: [] as number[], ms: [] as number[] }, after: { trips: [] as number[], ms: [] as number[] } };
      const byClass = new Map(FREQUENCIES.map((f) => [f, { before: { trips: [] as number[], ms: [] as number[] }, after: { trips: [] as number[], ms: [] as number[] } }]));
      for (const f of FREQUENCIES) {
        for (const a of generated.samples[f]) {
          for (const mode of ['before', 'after'] as const) {
            const store = await openPgStore(schemaUrl, { schema });
            const asked = mode === 'after' ? store : { ...store, lookUp: (i: Parameters<IndexStore['lookUp']>[0]) => store.lookUp({ ...i, prefetch: undefined }) };
            sent.length = 0;
            await run(asked, a);
            figures[mode].trips.push(sent.length);
            byClass.get(f)![mode].trips.push(sent.length);
            const ms = await serverMs();
            byClass.get(f)![mode].ms.push(ms);
            if (ms > 20 && process.argv.includes('--slow')) console.log(`slow ${mode} ${ms.toFixed(1)} ms: ${JSON.stringify(sent).slice(0, 400)} … ${JSON.stringify(sent.map((x) => x.values))}`);
            figures[mode].ms.push(ms);
            await store.close();
          }
        }
      }
      const line = (m: 'before' | 'after') => `${median(figures[m].trips)} statements, ${median(figures[m].ms).toFixed(2)} ms (max ${Math.max(...figures[m].trips)}, ${Math.max(...figures[m].ms).toFixed(2)} ms)`;
      console.log(`${name}: before ${line('before')} → after ${line('after')}`);
      if (process.argv.includes('--classes')) {
        for (const [f, c] of byClass) console.log(`  ${f}: before ${classFigures(c.before)} → after ${classFigures(c.after)}`);
      }
    }
    // A list: the sampled addresses as one chunk of validate rows, row by row, then primed (lookUpAll).
    const rows = FREQUENCIES.flatMap((f) => generated.samples[f]).map((a) => ({ components: { street: a.street, houseNumber: a.number, postcode: a.postcode, city: a.city }, country: 'DE' }));
    for (const primed of [false, true]) {
      const store = await openPgStore(schemaUrl, { schema });
      sent.length = 0;
      if (primed) await primeGeocodes(store, rows);
      for (const row of rows) await geocode(store, row);
      const ms = await serverMs();
      console.log(`list of ${rows.length} validate rows, ${primed ? 'primed' : 'row by row'}: ${sent.length} statements, ${(ms / rows.length).toFixed(3)} server ms a row`);
      await store.close();
    }
  } finally {
    if (process.argv.includes('--keep')) console.log(`kept schema ${schema}`);
    else await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await admin.end();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
