import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openLocalIndex } from '../src/local-index/index.js';
import { SQLITE_INDEX_FILE } from '../src/local-index/store/sqlite-store.js';
import Database from 'better-sqlite3';

const DEFAULT_PG = 'postgres://postgres@127.0.0.1:5432/test';

function flag(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
}

/**
 * An extract of `buildings` addressed buildings (4 nodes and a closed way each) on a grid of
 * 10 × 10 municipalities, written as OPL; `day` > 0 writes the next day's version: 1 % of the
 * buildings moved (their nodes), 0.5 % renumbered, 0.3 % deleted, 0.5 % new.
 */
export async function writeExtract(path: string, buildings: number, day: number): Promise<void> {
  const out = createWriteStream(path);
  const write = async (line: string) => {
    if (!out.write(line)) await once(out, 'drain');
  };
  // Day 0 is untouched (a fate beyond every range below).
  const fate = (b: number) => (day === 0 ? 1 : ((b * 2654435761) % 1000) / 1000);
  const side = Math.ceil(Math.sqrt(buildings));
  const at = (b: number) => ({ lat: 50 + (Math.floor(b / side) / side) * 1.0, lon: 8 + ((b % side) / side) * 1.0 });
  const total = day === 0 ? buildings : Math.round(buildings * 1.005);
  // Municipality boundaries: 100 squares, nodes from 9e9, ways and relations from 9e8.
  const muni: string[] = [];
  const ways: string[] = [];
  for (let m = 0; m < 100; m++) {
    const [r, c] = [Math.floor(m / 10), m % 10];
    const n = 9e9 + m * 4;
    const [s, w] = [50 + r * 0.1 - 0.00005, 8 + c * 0.1 - 0.00005];
    muni.push(`n${n} v1 x${w} y${s} T`, `n${n + 1} v1 x${w + 0.1} y${s} T`, `n${n + 2} v1 x${w + 0.1} y${s + 0.1} T`, `n${n + 3} v1 x${w} y${s + 0.1} T`);
    ways.push(`w${9e8 + m} v1 T Nn${n},n${n + 1},n${n + 2},n${n + 3},n${n}`);
  }
  for (let b = 0; b < total; b++) {
    const f = fate(b);
    if (b < buildings && f >= 0.015 && f < 0.018) continue; // deleted
    const moved = b < buildings && f < 0.01;
    const { lat, lon } = at(b);
    const d = moved ? 0.0003 : 0;
    const v = moved ? 2 : 1;
    const id = 4 * b + 1;
    const corners: [number, number][] = [[lat, lon], [lat, lon + 0.0001], [lat + 0.0001, lon + 0.0001], [lat + 0.0001, lon]];
    for (const [k, [y, x]] of corners.entries()) {
      await write(`n${id + k} v${v} x${(x + d).toFixed(7)} y${y.toFixed(7)} T\n`);
    }
  }
  for (const line of muni) await write(`${line}\n`);
  for (let b = 0; b < total; b++) {
    const f = fate(b);
    if (b < buildings && f >= 0.015 && f < 0.018) continue;
    const renumbered = b < buildings && f >= 0.01 && f < 0.015;
    const id = 4 * b + 1;
    const street = `Weg${Math.floor(b / 40) % 5000}`;
    const hn = `${(b % 40) + 1}${renumbered ? 'a' : ''}`;
    await write(`w${b + 1} v${renumbered ? 2 : 1} Tbuilding=yes,addr:street=${street},addr:housenumber=${hn} Nn${id},n${id + 1},n${id + 2},n${id + 3},n${id}\n`);
  }
  for (const line of ways) await write(`${line}\n`);
  for (let m = 0; m < 100; m++) {
    await write(`r${9e8 + m} v1 Ttype=boundary,boundary=administrative,admin_level=8,name=Gemeinde%20%${m} Mw${9e8 + m}@outer\n`);
  }
  out.end();
  await once(out, 'finish');
}

/** Bytes of the osm_* tables and their indexes in the SQLite index file. */
function sqliteStateBytes(dataDir: string): number {
  const db = new Database(join(dataDir, SQLITE_INDEX_FILE), { readonly: true });
  try {
    return db.prepare("SELECT sum(pgsize) FROM dbstat WHERE name LIKE 'osm%' OR name LIKE 'sqlite_autoindex_osm%'").pluck().get() as number;
  } finally {
    db.close();
  }
}

const ROWS_SQL = (t: string) => `SELECT a.source_id AS source, s.country, s.street, s.city, s.municipality, a.hn, a.postcode, a.lat, a.lng
  FROM ${t}addresses a JOIN ${t}streets s ON s.id = a.street_id ORDER BY a.source_id`;

/** Every address row of an index as comparable text (coordinates to 1e-7: a node's from PBF and from XML agree to that, not to the last bit). */
async function addressRows(where: { dataDir: string; admin?: pg.Client | undefined; schema: string }): Promise<string[]> {
  type Row = Record<string, string | number | null> & { lat: number; lng: number };
  const text = (r: Row) => JSON.stringify({ ...r, lat: r.lat.toFixed(7), lng: r.lng.toFixed(7) });
  if (where.admin) return (await where.admin.query<Row>(ROWS_SQL(`${where.schema}.local_`))).rows.map(text);
  const db = new Database(join(where.dataDir, SQLITE_INDEX_FILE), { readonly: true });
  try {
    return (db.prepare(ROWS_SQL('')).all() as Row[]).map(text);
  } finally {
    db.close();
  }
}

/**
 * `npm run bench:osm-update -- [--buildings N] [--only sqlite|postgres] [--pg URL]`: an
 * extract of N addressed buildings (default 200 000), the next day's version and the
 * `osmium derive-changes` diff between them; per store: the import, the recording of the
 * update state (its time and disk), and `--update` with the diff.
 */
export async function benchOsmUpdate(args: string[]): Promise<void> {
  const buildings = Number(flag(args, '--buildings') ?? 200_000);
  const only = flag(args, '--only');
  const pgUrl = flag(args, '--pg') ?? DEFAULT_PG;
  const work = mkdtempSync(join(tmpdir(), 'bench-osm-update-'));
  const osmium = (...a: string[]) => execFileSync('osmium', [...a, '--overwrite', '--no-progress'], { stdio: 'pipe' });
  try {
    const t = performance.now();
    await writeExtract(join(work, 'a.opl'), buildings, 0);
    await writeExtract(join(work, 'b.opl'), buildings, 1);
    osmium('sort', join(work, 'a.opl'), '-o', join(work, 'a.osm.pbf'));
    osmium('sort', join(work, 'b.opl'), '-o', join(work, 'b.osm.pbf'));
    osmium('derive-changes', join(work, 'a.osm.pbf'), join(work, 'b.osm.pbf'), '-o', join(work, 'day.osc.gz'));
    const mib = (p: string) => (statSync(p).size / 1024 / 1024).toFixed(1);
    console.log(
      `${buildings.toLocaleString('en')} buildings: extract ${mib(join(work, 'a.osm.pbf'))} MiB, diff ${mib(join(work, 'day.osc.gz'))} MiB, written in ${((performance.now() - t) / 1000).toFixed(1)} s`,
    );
    for (const backend of ['sqlite', 'postgres'].filter((b) => !only || b === only)) {
      const dataDir = join(work, `data-${backend}`);
      const schema = `bench_osm_update_${randomBytes(4).toString('hex')}`;
      const admin = backend === 'postgres' ? new pg.Client({ connectionString: pgUrl }) : undefined;
      await admin?.connect();
      const index = await openLocalIndex({ dataDir, ...(admin ? { databaseUrl: pgUrl, schema } : {}) });
      const size = async () =>
        admin
          ? Number((await admin.query<{ b: string }>(`SELECT sum(pg_total_relation_size(c.oid)) AS b FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relkind = 'r' AND c.relname LIKE $2`, [schema, 'local_osm%'])).rows[0]!.b)
          : sqliteStateBytes(dataDir);
      try {
        let s = performance.now();
        const imported = await index.importFile(join(work, 'a.osm.pbf'), { format: 'osm', country: 'DE' });
        const importS = (performance.now() - s) / 1000;
        s = performance.now();
        await index.recordOsmState(join(work, 'a.osm.pbf'));
        const recordS = (performance.now() - s) / 1000;
        const stateBytes = await size().catch(() => NaN);
        s = performance.now();
        const u = await index.applyOsmChange(join(work, 'day.osc.gz'), { country: 'DE' });
        const updateS = (performance.now() - s) / 1000;
        // The check the tests make, at this size: the updated index equals a fresh import of the new extract.
        const freshDir = join(work, `fresh-${backend}`);
        const freshSchema = `${schema}_fresh`;
        const fresh = await openLocalIndex({ dataDir: freshDir, ...(admin ? { databaseUrl: pgUrl, schema: freshSchema } : {}) });
        await fresh.importFile(join(work, 'b.osm.pbf'), { format: 'osm', country: 'DE' });
        await fresh.close();
        const [got, want] = await Promise.all([addressRows({ dataDir, admin, schema }), addressRows({ dataDir: freshDir, admin, schema: freshSchema })]);
        const wanted = new Set(want);
        const differing = got.filter((r) => !wanted.has(r)).length + Math.abs(want.length - got.length);
        await admin?.query(`DROP SCHEMA IF EXISTS ${freshSchema} CASCADE`);
        console.log(
          `${backend}: import ${imported.imported.toLocaleString('en')} in ${importS.toFixed(1)} s; recording the update state ${recordS.toFixed(1)} s, ${(stateBytes / 1024 / 1024).toFixed(0)} MiB\n` +
            `  --update: ${u.imported} new, ${u.updated} updated, ${u.removed} removed, ${u.unchanged} unchanged in ${updateS.toFixed(1)} s; ` +
            `${differing === 0 ? 'equal to' : `${differing} rows differ from`} a fresh import of the new extract (${want.length.toLocaleString('en')} rows)`,
        );
      } finally {
        await index.close();
        await admin?.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
        await admin?.end();
      }
    }
    console.log(`load average at the end: ${readFileSync('/proc/loadavg', 'utf8').trim()}`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
