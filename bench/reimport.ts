import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openLocalIndex, type LocalIndex } from '../src/local-index/index.js';
import { openImportProbe, startImportChild } from './import-child.js';
import { generateAddresses, type BenchAddress } from './local-generate.js';

const DEFAULT_PG = 'postgres://postgres@127.0.0.1:5432/test';
/** Issue 22: a re-import may cost queries at most this factor of their idle p99. */
const TARGET_FACTOR = 2;

function flag(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
}

const pct = (ms: number[], p: number) => {
  const s = [...ms].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((s.length * p) / 100))] ?? NaN;
};

/** The query mix a form sends: autocomplete on a partly typed street, then the full address to validate. */
function queries(sample: BenchAddress[]): ((index: LocalIndex) => Promise<unknown>)[] {
  return sample.flatMap((a) => [
    (index: LocalIndex) => index.autocomplete({ query: `${a.street} ${a.number}`.slice(0, 10), country: 'NL', limit: 5 }),
    (index: LocalIndex) => index.geocode({ query: `${a.street} ${a.number}, ${a.postcode} ${a.city}`, country: 'NL' }),
  ]);
}

/**
 * `npm run bench:reimport -- [--count N] [--only sqlite|postgres] [--pg URL]`: imports N
 * synthetic addresses (default 1 000 000), times the query mix one at a time while idle, then
 * again while `addressd import --replace` re-imports the same country in a child process, as
 * a nightly re-import does beside the server. Only queries that began and ended inside the
 * import's transaction count as "during". Target: p99 during ≤ 2 × idle p99.
 */
export async function benchReimport(args: string[]): Promise<void> {
  const count = Number(flag(args, '--count') ?? 1_000_000);
  const only = flag(args, '--only');
  const pgUrl = flag(args, '--pg') ?? DEFAULT_PG;
  const work = mkdtempSync(join(tmpdir(), 'bench-reimport-'));
  const csv = join(work, 'addresses.csv');
  try {
    const sample = await generateAddresses(csv, count, 1000);
    const mix = queries(sample);
    for (const backend of ['sqlite', 'postgres'].filter((b) => !only || b === only)) {
      const dataDir = join(work, `data-${backend}`);
      const schema = `bench_reimport_${randomBytes(4).toString('hex')}`;
      const databaseUrl = backend === 'postgres' ? `${pgUrl}${pgUrl.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}` : undefined;
      const admin = backend === 'postgres' ? new pg.Client({ connectionString: pgUrl }) : undefined;
      await admin?.connect();
      await admin?.query(`CREATE SCHEMA ${schema}`);
      const index = await openLocalIndex({ dataDir, ...(databaseUrl ? { databaseUrl } : {}) });
      try {
        const t = performance.now();
        await index.importFile(csv, { format: 'openaddresses', country: 'NL' });
        const importSeconds = (performance.now() - t) / 1000;
        for (const q of mix.slice(0, 200)) await q(index); // warm
        const idle: number[] = [];
        for (const q of mix) {
          const s = performance.now();
          await q(index);
          idle.push(performance.now() - s);
        }
        const probe = await openImportProbe({ dataDir, databaseUrl });
        const env = { DATA_DIR: dataDir, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) };
        const child = startImportChild(env, [csv, '--format', 'openaddresses', '--country', 'NL', '--replace', '--json']);
        let finished = false;
        void child.exited.then(() => (finished = true));
        const during: number[] = [];
        let errors = 0;
        for (let i = 0; !finished; i++) {
          await new Promise((resolve) => setImmediate(resolve));
          const before = await probe.active();
          const s = performance.now();
          const ok = await mix[i % mix.length]!(index).then(
            () => true,
            () => false,
          );
          const ms = performance.now() - s;
          if (!ok) errors++;
          if (before && (await probe.active())) during.push(ms);
        }
        await probe.close();
        const done = await child.exited;
        if (done.code !== 0) throw new Error(`re-import failed: ${done.stderr}`);
        const reimport = JSON.parse(done.stdout) as { durationMs: number; unchanged: number };
        const factor = pct(during, 99) / pct(idle, 99);
        console.log(
          `${backend}: ${count.toLocaleString('en')} addresses imported in ${importSeconds.toFixed(1)} s; re-import (--replace, ${reimport.unchanged.toLocaleString('en')} unchanged) in ${(reimport.durationMs / 1000).toFixed(1)} s\n` +
            `  idle   ×${idle.length}: p50 ${pct(idle, 50).toFixed(2)} ms, p99 ${pct(idle, 99).toFixed(2)} ms\n` +
            `  during ×${during.length}: p50 ${pct(during, 50).toFixed(2)} ms, p99 ${pct(during, 99).toFixed(2)} ms = ${factor.toFixed(2)} × idle [${factor <= TARGET_FACTOR ? 'ok' : 'MISS'}], ${errors} errors`,
        );
      } finally {
        await index.close();
        await admin?.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
        await admin?.end();
      }
    }
    console.log(`load average at the end: ${(await import('node:fs')).readFileSync('/proc/loadavg', 'utf8').trim()}`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
