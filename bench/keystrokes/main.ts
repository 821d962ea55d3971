import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { corpusAddresses, writeImportCsv } from '../accuracy/corpus.js';
import { rng } from '../local-generate.js';
import { headCommit, saveRecord } from '../record-file.js';
import { generateCsv } from '../scale/generate.js';
import { extractTargets } from './extracts.js';
import { openService } from './service.js';
import { nearBy, numberKept, summarize, typeAddress, type Summary, type Target, type Typed } from './typing.js';

function flag(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
}

/** The checkout's commit; none for a copy outside git (a run of an older tree for its before figures). */
function commit(): string | null {
  try {
    return headCommit();
  } catch {
    return null;
  }
}

const pct = (x: number) => `${(x * 100).toFixed(1)} %`;

function line(name: string, s: Summary): string {
  return `  ${name.padEnd(34)} ${String(s.addresses).padStart(4)} addresses: offered in the top 5 after ${pct(s.share5)} of the characters (never: ${s.never5}), at rank 1 after ${pct(s.share1)} (no service sooner than ${pct(s.floor)}: a character of the number and of the street); top 5 once street and number are typed: ${s.streetAndNumber} of ${s.addresses}`;
}

async function typeAll(ask: Parameters<typeof typeAddress>[0], targets: Target[], near?: (t: Target) => Parameters<typeof typeAddress>[2]): Promise<Typed[]> {
  const out: Typed[] = [];
  for (const t of targets) out.push(await typeAddress(ask, t, near?.(t)));
  return out;
}

/** Some of the list, the same ones every run (a seeded shuffle). */
function sampleOf<T>(list: T[], n: number, seed: number): T[] {
  const rand = rng(seed);
  const xs = [...list];
  for (let i = xs.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [xs[i], xs[j]] = [xs[j]!, xs[i]!];
  }
  return xs.slice(0, n);
}

/**
 * `npm run bench:keystrokes -- [--store sqlite|postgres] [--corpus N] [--pbf a.osm.pbf,b.osm.pbf]
 *   [--pbf-sample 100] [--addresses 200000]
 *   [--towns 1200] [--sample 20] [--skip corpus|scale] [--seed 35] [--save FILE]`
 * Types addresses one character at a time through `POST /v1/autocomplete` (limit 5) and reports
 * the share of characters typed before each is offered in the top 5 and at rank 1 (issue 35):
 * on the accuracy corpus (an index of its many countries; `--corpus` addresses of it, all by
 * default; `--pbf` imports OpenStreetMap extracts beside it and, on SQLite, types `--pbf-sample`
 * of their addresses too), with both orders of street and number typed whole (`no typed number
 * lost`); and on
 * the bench:scale country (`--addresses`, by default 200,000 over the 2M country's 1,200
 * municipalities, so a common street name is in as many towns; `--addresses 2000000` for the
 * country itself), `--sample` addresses per street-name frequency, without and with `near` (a
 * point 1-3 km from each address). Quality, not speed: figures hold under any load.
 */
export async function benchKeystrokes(args: string[]): Promise<void> {
  const store = (flag(args, '--store') ?? 'sqlite') as 'sqlite' | 'postgres';
  const skip = new Set((flag(args, '--skip') ?? '').split(','));
  const seed = Number(flag(args, '--seed') ?? 35);
  const record: Record<string, unknown> = { at: new Date().toISOString(), commit: commit(), store, loadavg: loadavg() };
  const work = mkdtempSync(join(tmpdir(), 'bench-keystrokes-'));
  try {
    if (!skip.has('corpus')) {
      const all = corpusAddresses();
      const n = Number(flag(args, '--corpus') ?? all.length);
      const pbfs = (flag(args, '--pbf') ?? '').split(',').filter(Boolean);
      const targets: Target[] = sampleOf(all, n, seed);
      const service = await openService(store, async (index, dataDir) => {
        const csv = join(dataDir, 'corpus.csv');
        writeImportCsv(csv, all);
        await index.importFile(csv, { format: 'csv' });
        for (const pbf of pbfs) await index.importFile(pbf, { format: 'osm' });
        if (pbfs.length > 0 && store === 'sqlite') targets.push(...sampleOf(extractTargets(dataDir), Number(flag(args, '--pbf-sample') ?? 100), seed + 2));
      });
      try {
        const typed = summarize(await typeAll(service.ask, targets));
        let kept = 0;
        for (const t of targets) if (await numberKept(service.ask, t)) kept++;
        const countries = new Set(all.map((a) => a.country)).size;
        const extracts = pbfs.length > 0 ? ` and ${pbfs.length} OSM extract(s), ${targets.length - n} of their addresses typed too` : '';
        console.log(`accuracy corpus (${store}, ${all.length} addresses of ${countries} countries in the index${extracts}):`);
        console.log(line('as the country writes it', typed));
        console.log(`  no typed number lost: number first and number last, typed whole, both in the top 5 for ${kept} of ${targets.length} (${pct(kept / targets.length)})`);
        record.corpus = { ...typed, numberKept: kept };
      } finally {
        await service.close();
      }
    }
    if (!skip.has('scale')) {
      const count = Number(flag(args, '--addresses') ?? 200_000);
      const towns = Number(flag(args, '--towns') ?? 1200);
      const sample = Number(flag(args, '--sample') ?? 20);
      const file = join(work, 'country.csv');
      const generated = await generateCsv(file, { count, towns, sample });
      const targets: Target[] = Object.values(generated.samples)
        .flat()
        .map((a) => ({ street: a.street, houseNumber: a.number, postcode: a.postcode, city: a.city, country: 'DE', lat: a.lat, lng: a.lng }));
      const service = await openService(store, async (index) => {
        await index.importFile(file, { format: 'openaddresses', country: 'DE' });
      });
      try {
        const rand = rng(seed + 1);
        const near = new Map(targets.map((t) => [t, nearBy(t, rand)]));
        const without = summarize(await typeAll(service.ask, targets));
        const withNear = summarize(await typeAll(service.ask, targets, (t) => near.get(t)));
        console.log(`bench:scale country (${store}, ${count.toLocaleString('en')} addresses, ${towns.toLocaleString('en')} municipalities):`);
        console.log(line('without a position', without));
        console.log(line(`near, 1-3 km away (via the ${service.nearVia})`, withNear));
        record.scale = { addresses: count, towns, without, near: withNear, nearVia: service.nearVia };
      } finally {
        await service.close();
      }
    }
    record.loadavgAfter = loadavg();
    console.log(`load average before / after: ${(record.loadavg as number[])[0]!.toFixed(2)} / ${loadavg()[0]!.toFixed(2)}`);
    saveRecord(flag(args, '--save'), record);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
