import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import type { AutocompleteResponse } from '../src/contract/autocomplete.js';
import type { ValidateResponse } from '../src/contract/validate.js';
import { readPlaceLocator } from '../src/local-index/import/osm-boundary-areas.js';
import { SQLITE_INDEX_FILE } from '../src/local-index/store/sqlite-store.js';
import { createLogger } from '../src/lib/logger.js';
import { createServices } from '../src/services.js';
import { rng } from './local-generate.js';

/**
 * Issue 15 item 7, measured: imports an OSM extract (the Liechtenstein one) through the CLI
 * into a throw-away DATA_DIR, samples real addresses of one country, and asks /v1/validate
 * (PROVIDERS=local) for each written `street number, municipality`, the municipality being
 * the admin_level-8 boundary around the point (what Nominatim prints), then with a one-letter
 * typo in the street; finally autocompletes every sampled street and counts streets offered twice.
 *
 *   npx tsx bench/li-places.ts <file.osm.pbf> [--country LI] [--sample 200] [--seed 15]
 */
const args = process.argv.slice(2);
const pbf = args.find((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--'));
const opt = (name: string, fallback: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] ? args[i + 1]! : fallback;
};
if (!pbf) {
  console.error('usage: tsx bench/li-places.ts <file.osm.pbf> [--country LI] [--sample 200] [--seed 15]');
  process.exit(2);
}
const country = opt('country', 'LI').toUpperCase();
const sampleSize = Number(opt('sample', '200'));
const rand = rng(Number(opt('seed', '15')));
const root = fileURLToPath(new URL('..', import.meta.url));

const dataDir = mkdtempSync(join(tmpdir(), 'li-places-'));
try {
  // 1. Import through the CLI, as an operator would.
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent' };
  delete env.DATABASE_URL;
  const started = performance.now();
  const cli = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'import', pbf, '--country', country, '--json'], { cwd: root, env, encoding: 'utf8' });
  if (cli.status !== 0) throw new Error(`import failed: ${cli.stderr || cli.stdout}`);
  const summary = JSON.parse(cli.stdout) as { imported: number; rows: number };
  console.log(`imported ${summary.imported} of ${summary.rows} rows in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  // 2. The sample: addresses of the country, each with the municipality around it, unambiguous.
  const stage = new Database(':memory:');
  const { locator: places } = await readPlaceLocator(pbf, stage);
  const index = new Database(join(dataDir, SQLITE_INDEX_FILE), { readonly: true });
  const rows = index
    .prepare('SELECT a.source_id AS id, s.street, a.hn, a.lat, a.lng, s.city FROM addresses a JOIN streets s ON s.id = a.street_id WHERE s.country = ? ORDER BY a.source_id')
    .all(country) as { id: string; street: string; hn: string; lat: number; lng: number; city: string | null }[];
  index.close();
  const byKey = new Map<string, { street: string; hn: string; municipality: string; tagged: boolean }[]>();
  for (const r of rows) {
    const at = places.locate(r.lat, r.lng, undefined);
    if (at.country !== country || !at.municipality) continue;
    const key = `${r.street}|${r.hn}|${at.municipality}`.toLowerCase();
    byKey.set(key, [...(byKey.get(key) ?? []), { street: r.street, hn: r.hn, municipality: at.municipality, tagged: r.city !== null && r.city !== at.municipality }]);
  }
  const pool = [...byKey.values()].filter((v) => v.length === 1).map((v) => v[0]!);
  for (let i = pool.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [pool[i], pool[j]] = [pool[j]!, pool[i]!];
  }
  const sample = pool.slice(0, sampleSize);
  console.log(`sample: ${sample.length} of ${pool.length} unambiguous ${country} addresses inside a municipality (${places.areas} boundary areas)`);

  // 3. The service, only `local`, in this process.
  const services = await createServices(loadConfig({ DATA_DIR: dataDir, PROVIDERS: 'local', LOG_LEVEL: 'silent', PORT: '0' }), { logger: createLogger('silent') });
  const app = buildApp(services);
  const account = await services.accounts.create({ plan: 'starter', extraCredits: 100_000 });
  const { key } = await services.secretKeys.create(account.id, 'live');
  const post = async <T>(path: string, body: unknown): Promise<T> => {
    const res = await app.request(path, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` }, body: JSON.stringify(body) });
    if (res.status !== 200) throw new Error(`${path}: HTTP ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  };
  const same = (a: string | undefined, b: string) => a?.toLowerCase() === b.toLowerCase();

  /** One letter changed, dropped or swapped inside the street name (never its first 2 letters); never the name itself. */
  const typo = (s: string): string => {
    const letters = [...s].map((c, i) => (i >= 2 && i < s.length - 1 && /\p{L}/u.test(c) && /\p{L}/u.test(s[i + 1] ?? '') ? i : -1)).filter((i) => i >= 0);
    for (;;) {
      const i = letters[Math.floor(rand() * letters.length)] ?? 2;
      const kind = Math.floor(rand() * 3);
      const typed =
        kind === 0 ? s.slice(0, i) + s.slice(i + 1) : kind === 1 ? s.slice(0, i) + s[i + 1] + s[i] + s.slice(i + 2) : s.slice(0, i) + (s[i] === 'e' ? 'a' : 'e') + s.slice(i + 1);
      // Swapping a double letter, or dropping one of three, leaves the name as it was.
      if (typed.toLowerCase() !== s.toLowerCase()) return typed;
    }
  };

  let found = 0;
  let valid = 0;
  let cityMatch = 0;
  let corrected = 0;
  const misses: string[] = [];
  const notValid = new Map<string, number>();
  const typoMisses: string[] = [];
  for (const a of sample) {
    const clean = await post<ValidateResponse>('/v1/validate', { query: `${a.street} ${a.hn}, ${a.municipality}`, country });
    if (same(clean.address?.street, a.street) && same(clean.address?.houseNumber, a.hn) && clean.components.houseNumber === 'match') found++;
    else if (misses.length < 8) misses.push(`${a.street} ${a.hn}, ${a.municipality} → ${clean.verdict} ${clean.address?.street ?? '-'} ${clean.address?.houseNumber ?? '-'} (${clean.components.houseNumber})`);
    if (clean.verdict === 'valid') valid++;
    else {
      const why = `${clean.verdict}: ${Object.entries(clean.components).filter(([, v]) => v !== 'match').map(([k, v]) => `${k} ${v}`).join(', ')}`;
      notValid.set(why, (notValid.get(why) ?? 0) + 1);
    }
    if (clean.components.city === 'match') cityMatch++;
    const typed = typo(a.street);
    const fixed = await post<ValidateResponse>('/v1/validate', { query: `${typed} ${a.hn}, ${a.municipality}`, country });
    if (fixed.verdict === 'correctable' && fixed.components.street === 'corrected' && same(fixed.address?.street, a.street) && same(fixed.address?.houseNumber, a.hn)) corrected++;
    else if (typoMisses.length < 8) {
      typoMisses.push(`${typed} ${a.hn}, ${a.municipality} (${a.street}) → ${fixed.verdict} ${fixed.address?.street ?? '-'} ${fixed.address?.houseNumber ?? '-'} (street ${fixed.components.street})`);
    }
  }

  // 4. Autocomplete: a street must not be offered twice (once with its town, once without).
  const streets = [...new Set(sample.map((a) => a.street))];
  let twice = 0;
  const doubles: string[] = [];
  for (const street of streets) {
    const { suggestions } = await post<AutocompleteResponse>('/v1/autocomplete', { query: street, country, limit: 10 });
    const offered = suggestions.filter((s) => !s.components.houseNumber && same(s.components.street, street));
    const towns = offered.map((s) => s.components.city ?? '');
    const repeated = towns.some((t, i) => towns.some((u, j) => j !== i && (t === u || t === '' || u === '')));
    if (repeated) {
      twice++;
      if (doubles.length < 5) doubles.push(`${street}: ${offered.map((s) => s.label).join(' | ')}`);
    }
  }
  await services.close();

  const pct = (n: number, d: number) => `${((100 * n) / Math.max(1, d)).toFixed(1)} %`;
  console.log(`\n${country}, ${sample.length} addresses written "street number, municipality" (PROVIDERS=local):`);
  console.log(`  house found (street + number match)      ${found}/${sample.length}  ${pct(found, sample.length)}`);
  console.log(`  verdict valid                            ${valid}/${sample.length}  ${pct(valid, sample.length)}`);
  console.log(`  city match                               ${cityMatch}/${sample.length}  ${pct(cityMatch, sample.length)}`);
  console.log(`  one-letter street typo corrected         ${corrected}/${sample.length}  ${pct(corrected, sample.length)}`);
  console.log(`  streets autocompleted twice              ${twice}/${streets.length}`);
  if (notValid.size) console.log(`\nnot valid, by component verdicts:\n  ${[...notValid].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${n}× ${k}`).join('\n  ')}`);
  if (misses.length) console.log(`\nhouses not found (first ${misses.length}):\n  ${misses.join('\n  ')}`);
  if (typoMisses.length) console.log(`\ntypos not corrected (first ${typoMisses.length}):\n  ${typoMisses.join('\n  ')}`);
  if (doubles.length) console.log(`\nstreets offered twice (first ${doubles.length}):\n  ${doubles.join('\n  ')}`);
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
