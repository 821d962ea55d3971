import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import pg from 'pg';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import type { ValidateResponse } from '../src/contract/validate.js';
import { areaContains, type Area } from '../src/local-index/import/osm-areas.js';
import { readBoundaryAreas, readPlaceLocator } from '../src/local-index/import/osm-boundary-areas.js';
import { SQLITE_INDEX_FILE } from '../src/local-index/store/sqlite-store.js';
import { readUnits } from '../src/local-index/units.js';
import { createLogger } from '../src/lib/logger.js';
import { createServices } from '../src/services.js';

/**
 * Issue 34, measured on a real extract (the Liechtenstein one): imports it through the CLI into
 * a throw-away DATA_DIR (or, with --database-url, a throw-away PostgreSQL schema), counts the
 * areas recorded and the addresses with a town and a postcode, then types every address of the
 * country as `street number, town` into /v1/validate (PROVIDERS=local) and counts those found
 * and valid. The town typed is the file's own: `addr:city` where tagged, else the municipality
 * boundary around the point (not the index's derivation).
 *
 *   npx tsx bench/li-complete.ts <file.osm.pbf> [--country LI] [--database-url postgres://…]
 */
const args = process.argv.slice(2);
const pbf = args.find((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--'));
const opt = (name: string): string | undefined => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
if (!pbf) {
  console.error('usage: tsx bench/li-complete.ts <file.osm.pbf> [--country LI] [--database-url postgres://…]');
  process.exit(2);
}
const country = (opt('country') ?? 'LI').toUpperCase();
const root = fileURLToPath(new URL('..', import.meta.url));
const dataDir = mkdtempSync(join(tmpdir(), 'li-complete-'));
const baseUrl = opt('database-url');
const schema = baseUrl ? `li_complete_${randomBytes(4).toString('hex')}` : undefined;
const databaseUrl = baseUrl && schema ? `${baseUrl}${baseUrl.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}` : undefined;

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: baseUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

type Row = { street: string; hn: string; city: string | null; postcode: string | null; lat: number; lng: number; units: string | null };
const ROWS = (t: string) =>
  `SELECT s.street, a.hn, s.city, a.postcode, a.lat, a.lng, a.units FROM ${t}addresses a JOIN ${t}streets s ON s.id = a.street_id WHERE s.country = $1 ORDER BY a.id`;

async function indexRows(): Promise<Row[]> {
  if (!databaseUrl) {
    const db = new Database(join(dataDir, SQLITE_INDEX_FILE), { readonly: true });
    try {
      return db.prepare(ROWS('').replace('$1', '?')).all(country) as Row[];
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query<Row>(ROWS('local_'), [country])).rows;
  } finally {
    await client.end();
  }
}

/** Our areas against the polygons `osmium export` builds from the file's boundary relations: each sampled on a 101 × 101 grid over its box. */
function compareWithOsmium(built: { relation: number; area: Area<unknown> }[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'li-osmium-'));
  try {
    const boundaries = join(dir, 'boundaries.osm.pbf');
    execFileSync('osmium', ['tags-filter', pbf!, 'r/boundary=administrative,postal_code', '-o', boundaries, '--no-progress'], { stdio: 'pipe' });
    const out = execFileSync('osmium', ['export', boundaries, '-f', 'geojsonseq', '--geometry-types=polygon', '-a', 'type,id', '--no-progress', '-o', '-'], { encoding: 'utf8', maxBuffer: 1 << 28 });
    const theirs = new Map<number, [number, number][][]>();
    for (const line of out.split('\n')) {
      const text = line.replace(/^\x1e/, '').trim();
      if (!text) continue;
      const f = JSON.parse(text) as { properties: Record<string, unknown>; geometry: { coordinates: [number, number][][][] } };
      if (f.properties['@type'] === 'relation') theirs.set(Number(f.properties['@id']), f.geometry.coordinates.flat());
    }
    const inside = (rings: [number, number][][], lat: number, lng: number) => {
      let v = false;
      for (const r of rings) for (let i = 0, j = r.length - 1; i < r.length; j = i++) if (r[i]![1] > lat !== r[j]![1] > lat && lng < ((r[j]![0] - r[i]![0]) * (lat - r[i]![1])) / (r[j]![1] - r[i]![1]) + r[i]![0]) v = !v;
      return v;
    };
    let differ = 0;
    for (const { relation, area } of built) {
      const rings = theirs.get(relation);
      if (!rings) continue;
      for (let i = 0; i <= 100; i++) {
        for (let j = 0; j <= 100; j++) {
          const lat = area.minLat + ((area.maxLat - area.minLat) * i) / 100 + 1e-7;
          const lng = area.minLng + ((area.maxLng - area.minLng) * j) / 100 + 3e-7;
          if (areaContains(area, lat, lng) !== inside(rings, lat, lng)) differ++;
        }
      }
    }
    const ours = new Set(built.map((b) => b.relation));
    const missing = [...theirs.keys()].filter((id) => !ours.has(id));
    return `osmium builds ${theirs.size}, we build ${built.length}; osmium's that we lack: ${missing.map((id) => `r${id}`).join(', ') || 'none'}; sample points placed differently: ${differ}`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (schema) await admin(`CREATE SCHEMA ${schema}`);
try {
  // 1. Import through the CLI, as an operator would.
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent' };
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  else delete env.DATABASE_URL;
  const started = performance.now();
  const cli = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'import', pbf, '--json'], { cwd: root, env, encoding: 'utf8' });
  if (cli.status !== 0) throw new Error(`import failed: ${cli.stderr || cli.stdout}`);
  const summary = JSON.parse(cli.stdout) as { imported: number; rows: number; derived: { city: number; postcode: number }; areasNotClosed: { relation: number; name?: string }[] };
  const stage = new Database(':memory:');
  const { locator } = await readPlaceLocator(pbf, stage);
  const areas = await readBoundaryAreas(pbf, new Database(':memory:'));
  console.log(`${databaseUrl ? 'PostgreSQL' : 'SQLite'}: imported ${summary.imported} of ${summary.rows} rows in ${((performance.now() - started) / 1000).toFixed(1)} s (under load where others run)`);
  console.log(`  boundary areas recorded: ${locator.areas}; not closed: ${summary.areasNotClosed.map((a) => `r${a.relation} ${a.name ?? ''}`.trim()).join(', ') || 'none'}`);
  console.log(`  areas against osmium export: ${compareWithOsmium(areas.built)}`);
  console.log(`  derived at import: a town for ${summary.derived.city}, a postcode for ${summary.derived.postcode}`);

  // 2. Completeness of the index.
  const rows = await indexRows();
  const pct = (n: number, d: number) => `${((100 * n) / Math.max(1, d)).toFixed(1)} %`;
  const withCity = rows.filter((r) => r.city).length;
  const withPostcode = rows.filter((r) => r.postcode).length;
  console.log(`  ${country} addresses: ${rows.length}; with a town ${withCity} (${pct(withCity, rows.length)}), with a postcode ${withPostcode} (${pct(withPostcode, rows.length)})`);

  // 3. Every address typed as `street number, town` (the file's town), each house once.
  const houses = new Map<string, { street: string; hn: string; town: string }>();
  let townless = 0;
  for (const r of rows) {
    const derived = readUnits(r.units).inferred?.includes('city');
    const town = (derived ? undefined : r.city) ?? locator.locate(r.lat, r.lng, country).municipality;
    if (!town) {
      townless++;
      continue;
    }
    houses.set(`${r.street}|${r.hn}|${town}`.toLowerCase(), { street: r.street, hn: r.hn, town });
  }
  const services = await createServices(
    loadConfig({ DATA_DIR: dataDir, PROVIDERS: 'local', LOG_LEVEL: 'silent', PORT: '0', ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) }),
    { logger: createLogger('silent') },
  );
  try {
    const app = buildApp(services);
    const account = await services.accounts.create({ plan: 'scale', extraCredits: 1_000_000 });
    const { key } = await services.secretKeys.create(account.id, 'live');
    const same = (a: string | undefined, b: string) => a?.toLowerCase() === b.toLowerCase();
    let found = 0;
    let valid = 0;
    let complete = 0;
    const misses: string[] = [];
    const notFound: string[] = [];
    const reasons = new Map<string, number>();
    for (const h of houses.values()) {
      const res = await app.request('/v1/validate', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
        body: JSON.stringify({ query: `${h.street} ${h.hn}, ${h.town}`, country }),
      });
      if (res.status !== 200) throw new Error(`/v1/validate: HTTP ${res.status} ${await res.text()}`);
      const v = (await res.json()) as ValidateResponse;
      const hit = same(v.address?.street, h.street) && same(v.address?.houseNumber, h.hn);
      if (hit) found++;
      else if (notFound.length < 10) notFound.push(`${h.street} ${h.hn}, ${h.town} → ${v.verdict} ${v.address?.street ?? '-'} ${v.address?.houseNumber ?? '-'} ${v.address?.city ?? '-'} (houseNumber ${v.components.houseNumber ?? '-'})`);
      if (v.verdict === 'valid') valid++;
      else {
        const why = `${v.verdict}: ${Object.entries(v.components).filter(([, c]) => c !== 'match').map(([k, c]) => `${k} ${c}`).join(', ')}`;
        reasons.set(why, (reasons.get(why) ?? 0) + 1);
        if (misses.length < 10) misses.push(`${h.street} ${h.hn}, ${h.town} → ${v.verdict} ${v.address?.street ?? '-'} ${v.address?.houseNumber ?? '-'} ${v.address?.postcode ?? '-'} ${v.address?.city ?? '-'}`);
      }
      if (v.address?.city && v.address.postcode) complete++;
    }
    const n = houses.size;
    console.log(`\n${country}, ${n} houses typed "street number, town" (PROVIDERS=local)${townless ? `; ${townless} rows with no town to type left out` : ''}:`);
    console.log(`  found (street + number)          ${found}/${n}  ${pct(found, n)}`);
    console.log(`  valid                            ${valid}/${n}  ${pct(valid, n)}`);
    console.log(`  answer with town and postcode    ${complete}/${n}  ${pct(complete, n)}`);
    if (reasons.size) console.log(`\nnot valid, by component verdicts:\n  ${[...reasons].sort((a, b) => b[1] - a[1]).map(([k, c]) => `${c}× ${k}`).join('\n  ')}`);
    if (notFound.length) console.log(`\nnot found:\n  ${notFound.join('\n  ')}`);
    if (misses.length) console.log(`\nfirst not valid:\n  ${misses.join('\n  ')}`);
  } finally {
    await services.close();
  }
} finally {
  rmSync(dataDir, { recursive: true, force: true });
  if (schema) await admin(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
}
