import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import type { ValidateResponse } from '../../src/contract/validate.js';
import { createLogger } from '../../src/lib/logger.js';
import { SQLITE_INDEX_FILE } from '../../src/local-index/store/sqlite-store.js';
import { createServices } from '../../src/services.js';
import { rng } from '../local-generate.js';
import { type CorpusAddress, corpusAddresses, writeImportCsv } from './corpus.js';
import { judge, type Outcome } from './judge.js';
import type { Case } from './kinds.js';

export interface Harness {
  /** The corpus addresses the cases are built from. */
  addresses: CorpusAddress[];
  /** Every address in the index (the corpus plus all of an imported extract), to know what does not exist. */
  universe: CorpusAddress[];
  /** The extract's own addresses (all of them; empty without one). */
  extract: CorpusAddress[];
  run(cases: readonly Case[]): Promise<Outcome[]>;
  /** One /v1/validate call as a user makes it. */
  validate(query: string, country?: string): Promise<ValidateResponse>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  /** An OSM extract to import too; `sample` of its addresses join the corpus. */
  pbf?: { path: string; country: string; sample: number; seed: number };
}

/**
 * The service as a user meets it: the corpus imported into `local` (its only provider) in a
 * throw-away DATA_DIR, and /v1/validate called in-process with a secret key.
 */
export async function openHarness(opts: HarnessOptions = {}): Promise<Harness> {
  const dataDir = mkdtempSync(join(tmpdir(), 'accuracy-'));
  const services = await createServices(loadConfig({ DATA_DIR: dataDir, PROVIDERS: 'local', LOG_LEVEL: 'silent', PORT: '0' }), {
    logger: createLogger('silent'),
  });
  try {
    const index = services.localIndex;
    if (!index) throw new Error('the local provider is not active');
    const extract = opts.pbf ? await importExtract(index, dataDir, opts.pbf) : { sample: [], all: [] };
    const addresses = corpusAddresses(extract.sample);
    const csv = join(dataDir, 'corpus.csv');
    writeImportCsv(csv, addresses);
    await index.importFile(csv, { format: 'csv' });
    const app = buildApp(services);
    const account = await services.accounts.create({ plan: 'scale', extraCredits: 1_000_000 });
    const { key } = await services.secretKeys.create(account.id, 'live');
    const validate = async (query: string, country?: string): Promise<ValidateResponse> => {
      const body = { query, ...(country ? { country } : {}) };
      const res = await app.request('/v1/validate', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
        body: JSON.stringify(body),
      });
      if (res.status !== 200) throw new Error(`/v1/validate ${JSON.stringify(body)}: HTTP ${res.status} ${await res.text()}`);
      return (await res.json()) as ValidateResponse;
    };
    return {
      addresses,
      universe: [...addresses, ...extract.all],
      extract: extract.all,
      validate,
      async run(cases) {
        const out: Outcome[] = [];
        for (const c of cases) out.push(judge(c, await validate(c.query, c.requestCountry)));
        return out;
      },
      async close() {
        await services.close();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    await services.close();
    rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }
}

/** Imports the extract; `all` its addresses (what exists), `sample` some that have a postcode and a town (the municipality where known). */
async function importExtract(
  index: NonNullable<Awaited<ReturnType<typeof createServices>>['localIndex']>,
  dataDir: string,
  pbf: NonNullable<HarnessOptions['pbf']>,
): Promise<{ sample: CorpusAddress[]; all: CorpusAddress[] }> {
  await index.importFile(pbf.path, { format: 'osm', country: pbf.country });
  const db = new Database(join(dataDir, SQLITE_INDEX_FILE), { readonly: true });
  const rows = db
    .prepare(
      `SELECT s.street, a.hn, a.postcode, COALESCE(substr(s.municipality, 1, instr(s.municipality || ';', ';') - 1), s.city) AS city, a.lat, a.lng FROM addresses a JOIN streets s ON s.id = a.street_id
       WHERE s.country = ? ORDER BY a.source_id`,
    )
    .all(pbf.country) as { street: string; hn: string; postcode: string | null; city: string | null; lat: number; lng: number }[];
  db.close();
  const all = rows.map((r) => ({ street: r.street, houseNumber: r.hn, postcode: r.postcode ?? '', city: r.city ?? '', country: pbf.country, lat: r.lat, lng: r.lng, source: 'extract' }));
  // Only addresses whose street and number are unique in the country: the cases name one address.
  const count = new Map<string, number>();
  for (const a of all) count.set(`${a.street}|${a.houseNumber}`, (count.get(`${a.street}|${a.houseNumber}`) ?? 0) + 1);
  const pool = all.filter((a) => a.postcode && a.city && count.get(`${a.street}|${a.houseNumber}`) === 1);
  const rand = rng(pbf.seed);
  for (let i = pool.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [pool[i], pool[j]] = [pool[j]!, pool[i]!];
  }
  return { sample: pool.slice(0, pbf.sample), all };
}
