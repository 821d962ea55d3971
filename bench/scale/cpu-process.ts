import { readFileSync } from 'node:fs';
import { openLocalIndex } from '../../src/local-index/index.js';
import { FREQUENCIES, type Frequency } from './country.js';
import type { Generated } from './generate.js';

/**
 * CPU time (this process: user + system, the mean over a class) and wall time (p50, p99) of one
 * in-process geocode of `street number, postcode town` (and, as `noTown`, of `street number, postcode`), per street-name frequency: what a bulk list pays per row on top of the database's own
 * work (SQLite runs in this process, so there it is all of it). Wall time is no use on a shared
 * machine; CPU time is, roughly.
 * argv: <samples.json> <dataDir> [databaseUrl]
 */
const [samplesPath, dataDir, databaseUrl] = process.argv.slice(2) as [string, string, string?];
const generated = JSON.parse(readFileSync(samplesPath, 'utf8')) as Generated;
const index = await openLocalIndex({ dataDir, ...(databaseUrl ? { databaseUrl } : {}) });
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
type Figures = Record<Frequency, { p50: number; p99: number; mean: number }>;
type Sample = Generated['samples']['rare'][number];
const withTown = (a: Sample) => ({ query: `${a.street} ${a.number}, ${a.postcode} ${a.city}`, country: 'DE' });
const withoutTown = (a: Sample) => ({ query: `${a.street} ${a.number}, ${a.postcode}`, country: 'DE' });
for (const a of FREQUENCIES.flatMap((f) => generated.samples[f]).slice(0, 100)) await index.geocode({ query: `${a.city} ${a.street}`, country: 'DE' });
async function measure(query: (a: Sample) => { query: string; country: string }): Promise<Figures> {
  const out = {} as Figures;
  for (const f of FREQUENCIES) {
    // CPU over the whole class (reading it per call costs as much as a call); wall time per call.
    const ms: number[] = [];
    const started = cpu();
    for (const a of generated.samples[f]) {
      const t = performance.now();
      await index.geocode(query(a));
      ms.push(performance.now() - t);
    }
    const mean = (cpu() - started) / Math.max(1, ms.length);
    ms.sort((x, y) => x - y);
    const at = (p: number) => ms[Math.min(ms.length - 1, Math.floor(p * ms.length))] ?? 0;
    out[f] = { p50: at(0.5), p99: at(0.99), mean };
  }
  return out;
}
const out = { ...(await measure(withTown)), noTown: await measure(withoutTown) };
await index.close();
process.stdout.write(`${JSON.stringify(out)}\n`);
