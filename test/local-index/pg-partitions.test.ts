import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openImportProbe, startImportChild, type ImportChild, type ImportProbe } from '../../bench/import-child.js';
import { openLocalIndex } from '../../src/local-index/index.js';
import { openPgStore } from '../../src/local-index/store/pg-store.js';
import { addressesByPostcodeQuery, postcodeExistsQuery, type Query } from '../../src/local-index/store/queries.js';
import type { AddressInput } from '../../src/local-index/store/store.js';
import { openIndexSandbox, type IndexSandbox } from './support/local-sandbox.js';

/** Pronounceable distinct street names (`Babweg`, `Bacweg`, …): word `k` of an endless list. */
function streetName(k: number): string {
  const c = 'bcdfghjklmnprstvwz';
  const v = 'aeiou';
  let word = '';
  for (let n = k + 1; n > 0; n = Math.floor(n / (c.length * v.length))) word += c[n % c.length]! + v[Math.floor(n / c.length) % v.length]!;
  return `${word[0]!.toUpperCase()}${word.slice(1)}weg`;
}

/** `streets` × `numbers` addresses of one country in one town, and `marker` 1-10. */
function countryCsv(country: string, city: string, marker: string, streets: number, numbers: number, postcode: number): string {
  const lines = ['street,house_number,postcode,city,country,lat,lng'];
  for (let s = 0; s < streets; s++) {
    for (let n = 1; n <= numbers; n++) lines.push(`${streetName(s)},${n},${postcode + s},${city},${country},${(47 + s / 10000).toFixed(5)},${(9 + n / 10000).toFixed(5)}`);
  }
  for (let n = 1; n <= 10; n++) lines.push(`${marker},${n},${postcode - 1},${city},${country},47.50000,${(10 + n / 10000).toFixed(5)}`);
  return lines.join('\n') + '\n';
}

/** `?` placeholders → `$1, $2, …`, as the PostgreSQL store numbers them. */
const numbered = (sql: string) => {
  let i = 0;
  return sql.replace(/\?/g, () => `$${++i}`);
};

/**
 * Issue 22 item 5: on PostgreSQL, streets and addresses are partitioned by country, so a
 * country's re-import writes and locks only its own partitions, and a query naming a
 * country reads only that country's.
 */
describe('local index partitioned by country (postgres)', () => {
  let box: IndexSandbox;
  let db: pg.Client;
  let child: ImportChild | undefined;
  let probe: ImportProbe | undefined;
  beforeEach(async () => {
    box = await openIndexSandbox('postgres');
    await box.index.importFile(box.file('de.csv', countryCsv('DE', 'Musterstadt', 'Lindenweg', 300, 100, 10000)), { format: 'csv' });
    await box.index.importFile(box.file('at.csv', countryCsv('AT', 'Bergdorf', 'Almweg', 20, 20, 5000)), { format: 'csv' });
    db = new pg.Client({ connectionString: box.sandbox.databaseUrl });
    await db.connect();
  }, 60_000);
  afterEach(async () => {
    child?.kill();
    await child?.exited;
    child = undefined;
    await probe?.close();
    probe = undefined;
    await db.end();
    await box.close();
  });

  /** Every row of Austria's partitions with its physical place and the transaction that wrote it. */
  const austriaRows = async () =>
    (
      await db.query<{ t: string }>(`
        SELECT string_agg(ctid::text || ':' || xmin::text || ':' || id, ',' ORDER BY id) AS t FROM local_at_streets
        UNION ALL SELECT string_agg(ctid::text || ':' || xmin::text || ':' || id, ',' ORDER BY id) FROM local_at_addresses`)
    ).rows.map((r) => r.t);

  /** Locks the import's backend (the one writing Germany's addresses) holds on Austria's tables and indexes. */
  const importLocksOnAustria = async (): Promise<string[] | undefined> => {
    const res = await db.query<{ pid: number; mode: string | null }>(`
      SELECT w.pid, l.mode FROM pg_locks w
      LEFT JOIN pg_locks l ON l.pid = w.pid AND l.relation IN (
        SELECT c.oid FROM pg_class c WHERE c.relname LIKE 'local\\_at\\_%' AND c.relnamespace = current_schema()::regnamespace)
      WHERE w.relation = 'local_de_addresses'::regclass AND w.mode = 'RowExclusiveLock' AND w.pid <> pg_backend_pid()`);
    if (res.rows.length === 0) return undefined;
    return res.rows.flatMap((r) => (r.mode ? [r.mode] : []));
  };

  it("re-importing one country leaves another country's rows untouched, and its queries answer throughout", async () => {
    const before = await austriaRows();
    expect(before.every((t) => t.length > 0)).toBe(true);
    const almweg = async () => (await box.index.geocode({ query: 'Almweg 5, Bergdorf', country: 'AT' }))[0]?.components.street;
    expect(await almweg()).toBe('Almweg');

    probe = await openImportProbe(box.sandbox);
    const newDe = box.file('de2.csv', countryCsv('DE', 'Musterstadt', 'Birkenweg', 300, 100, 10000));
    child = startImportChild(box.sandbox.env, [newDe, '--format', 'csv', '--replace', '--json']);
    let finished = false;
    void child.exited.then(() => (finished = true));
    let answered = 0;
    let sampled = 0;
    while (!finished) {
      await new Promise((resolve) => setImmediate(resolve));
      const active = await probe.active();
      const street = await almweg();
      const locks = await importLocksOnAustria();
      if (active && (await probe.active())) {
        expect(street).toBe('Almweg');
        answered++;
        if (locks) {
          // Nothing that would make an Austrian query, or an Austrian import, wait: at most the
          // read lock of the vocabulary's rebuild at the very end.
          expect(locks.filter((m) => m !== 'AccessShareLock')).toEqual([]);
          sampled++;
        }
      }
    }
    const { code, stdout } = await child.exited;
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ unchanged: 30_000, imported: 10, removed: 10 });
    expect(answered).toBeGreaterThan(3);
    expect(sampled).toBeGreaterThan(0);
    // Same rows, same places, written by the same transactions: the re-import wrote nothing of Austria's.
    expect(await austriaRows()).toEqual(before);
    expect(await almweg()).toBe('Almweg');
    // The vocabulary lost the removed street's word, and kept the other country's.
    const words = await db.query<{ word: string }>(`SELECT word FROM local_words WHERE word IN ('lindenweg', 'birkenweg', 'almweg', 'bergdorf') ORDER BY word`);
    expect(words.rows.map((r) => r.word)).toEqual(['almweg', 'bergdorf', 'birkenweg']);
    await box.index.countries();
    expect((await box.index.geocode({ query: 'Birkenweg 5, Musterstadt', country: 'DE' }))[0]?.components.street).toBe('Birkenweg');
  }, 120_000);

  it('creates a new country\'s partitions beside an open import, and a starting instance waits for neither', async () => {
    const store = await openPgStore(box.sandbox.databaseUrl!, { schema: box.sandbox.schema });
    const row = (country: string, street: string, city: string): AddressInput => ({
      sourceId: null,
      street: { key: `${country}|${street}|${city}`, country, street, city, municipality: null, state: null, streetWords: street, cityWords: city },
      hn: '1',
      hnKey: '1',
      hnBase: 1,
      postcode: null,
      pcKey: null,
      lat: 52,
      lng: 5,
    });
    const session = await store.beginImport();
    try {
      // The session holds Germany's partitions; the Dutch streets' is created and attached meanwhile,
      // and the Dutch addresses load into a table of the import's own, attached when it commits.
      expect(await session.write([row('DE', 'teststrasse', 'musterstadt'), row('NL', 'dijkweg', 'dorp')])).toMatchObject({ imported: 2 });
      const partitions = async (parent: string) =>
        (await db.query<{ relname: string }>(
          `SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = $1::regclass ORDER BY 1`,
          [parent],
        )).rows.map((r) => r.relname);
      expect(await partitions('local_streets')).toEqual(['local_at_streets', 'local_de_streets', 'local_nl_streets']);
      expect(await partitions('local_addresses')).toEqual(['local_at_addresses', 'local_de_addresses']);
      // An instance starting now opens without waiting for the import, and answers.
      const starting = await openLocalIndex({ dataDir: box.sandbox.dataDir, databaseUrl: box.sandbox.databaseUrl!, schema: box.sandbox.schema });
      try {
        expect((await starting.geocode({ query: 'Almweg 5, Bergdorf', country: 'AT' }))[0]?.components.street).toBe('Almweg');
        expect((await starting.geocode({ query: 'Lindenweg 5, Musterstadt', country: 'DE' }))[0]?.components.street).toBe('Lindenweg');
      } finally {
        await starting.close();
      }
    } finally {
      await session.abort();
      await store.close();
    }
    // The abandoned import left an empty Dutch streets partition, which serves nothing, and no addresses table.
    expect((await db.query("SELECT to_regclass('local_nl_addresses') AS t")).rows[0]!.t).toBeNull();
    expect(await box.index.countries()).toEqual(['AT', 'DE']);
    expect(await box.index.count()).toBe(30_010 + 410);
  });

  it("gives a country's first import, loaded before its indexes were built, every index of the others, the point index's nearest-first scan among them", async () => {
    // Each index of the parent has its copy on both countries' partitions, attached.
    const indexes = await db.query<{ parent: string; child: string }>(`
      SELECT p.relname AS parent, c.relname AS child FROM pg_inherits i
      JOIN pg_class p ON p.oid = i.inhparent JOIN pg_class c ON c.oid = i.inhrelid
      JOIN pg_index x ON x.indexrelid = c.oid
      WHERE x.indrelid IN ('local_de_addresses'::regclass, 'local_at_addresses'::regclass) ORDER BY 1, 2`);
    const parents = await db.query<{ name: string }>(`SELECT indexrelid::regclass::text AS name FROM pg_index WHERE indrelid = 'local_addresses'::regclass ORDER BY 1`);
    expect(parents.rows.map((r) => r.name)).toContain('local_addresses_point');
    for (const country of ['de', 'at']) {
      expect(indexes.rows.filter((r) => r.child.startsWith(`local_${country}_`)).map((r) => r.parent).sort()).toEqual(parents.rows.map((r) => r.name));
    }
    // No constraint of the load is left behind.
    const checks = await db.query(`SELECT 1 FROM pg_constraint WHERE conrelid = 'local_de_addresses'::regclass AND contype = 'c'`);
    expect(checks.rowCount).toBe(0);
    const plan = await db.query<{ 'QUERY PLAN': string }>(
      'EXPLAIN (COSTS OFF) SELECT id FROM local_addresses a WHERE point(a.lng, a.lat) <@ box(point(8.9, 46.9), point(9.1, 47.1)) ORDER BY point(a.lng, a.lat) <-> point(9.005, 47.001) LIMIT 20',
    );
    const text = plan.rows.map((r) => r['QUERY PLAN']).join('\n');
    expect(text).toMatch(/Index Scan using local_de_addresses_point/);
    expect(text).not.toMatch(/Seq Scan/);
    const [nearest] = await box.index.reverse({ lat: 47.0001, lng: 9.0005, radiusMeters: 100, limit: 1 });
    expect([nearest?.components.street, nearest?.components.houseNumber]).toEqual([streetName(1), '5']);
  });

  it("prunes a query that names a country to that country's partitions, and searches all without one", async () => {
    /** The partitions a plan reads, custom (the values known when planning) and generic (bound at run time). */
    const partitionsRead = async (q: Query) => {
      const read = new Set<string>();
      for (const mode of ['force_custom_plan', 'force_generic_plan']) {
        await db.query(`SET plan_cache_mode = ${mode}`);
        const plan = await db.query<{ 'QUERY PLAN': string }>(`EXPLAIN (COSTS OFF) ${numbered(q.sql)}`, q.args);
        const text = plan.rows.map((r) => r['QUERY PLAN']).join('\n');
        for (const m of text.matchAll(/local_([a-z]{2})_(streets|addresses)/g)) read.add(`${mode === 'force_custom_plan' ? 'custom' : 'generic'} ${m[0]}`);
      }
      await db.query('RESET plan_cache_mode');
      return [...read].sort();
    };
    // The street match as the store runs it with a country.
    const streets: Query = { sql: `SELECT s.id FROM local_streets s WHERE s.tsv @@ CAST(? AS tsquery) AND s.n > 0 AND s.country = ? LIMIT 10`, args: ['almweg', 'AT'] };
    expect(await partitionsRead(streets)).toEqual(['custom local_at_streets', 'generic local_at_streets']);
    const byPostcode = addressesByPostcodeQuery('local_', { key: '4999', prefix: false }, undefined, 'AT', 10);
    expect(await partitionsRead(byPostcode)).toEqual(['custom local_at_addresses', 'custom local_at_streets', 'generic local_at_addresses', 'generic local_at_streets']);
    const exists = postcodeExistsQuery('local_', '4999', false, 'AT');
    expect(await partitionsRead(exists)).toEqual(['custom local_at_addresses', 'custom local_at_streets', 'generic local_at_addresses', 'generic local_at_streets']);
    // Without a country, every country's partition is searched.
    const anywhere = addressesByPostcodeQuery('local_', { key: '4999', prefix: false }, undefined, undefined, 10);
    expect((await partitionsRead(anywhere)).filter((p) => p.startsWith('custom'))).toEqual([
      'custom local_at_addresses',
      'custom local_at_streets',
      'custom local_de_addresses',
      'custom local_de_streets',
    ]);
    expect((await box.index.geocode({ query: 'Almweg 5, Bergdorf' }))[0]?.components).toMatchObject({ street: 'Almweg', houseNumber: '5' });
    expect((await box.index.geocode({ query: 'Lindenweg 5, Musterstadt' }))[0]?.components).toMatchObject({ street: 'Lindenweg', houseNumber: '5' });
    expect((await box.index.autocomplete({ query: 'Almweg 3', limit: 5 }))[0]?.components).toMatchObject({ street: 'Almweg', houseNumber: '3' });
    expect(await box.index.countries()).toEqual(['AT', 'DE']);
  });
});

/** The layout every version before partitioning wrote (pg-schema.ts of that time). */
const UNPARTITIONED = `
  CREATE TABLE local_streets (
    id BIGSERIAL PRIMARY KEY,
    skey TEXT NOT NULL UNIQUE,
    country TEXT NOT NULL,
    street TEXT NOT NULL,
    city TEXT,
    state TEXT,
    street_words TEXT NOT NULL,
    city_words TEXT NOT NULL,
    n INTEGER NOT NULL DEFAULT 0,
    lat DOUBLE PRECISION,
    lng DOUBLE PRECISION,
    postcode TEXT,
    tsv TSVECTOR GENERATED ALWAYS AS (array_to_tsvector(array_remove(string_to_array(street_words || ' ' || city_words, ' '), ''))) STORED
  ) WITH (fillfactor = 50);
  CREATE INDEX local_streets_tsv ON local_streets USING gin (tsv) WITH (fastupdate = off);
  CREATE INDEX local_streets_country ON local_streets (country);
  CREATE TABLE local_addresses (
    id BIGSERIAL PRIMARY KEY,
    source_id TEXT,
    street_id BIGINT NOT NULL,
    hn TEXT NOT NULL,
    hn_key TEXT COLLATE "C" NOT NULL,
    hn_base INTEGER,
    postcode TEXT,
    pc_key TEXT COLLATE "C",
    lat DOUBLE PRECISION NOT NULL,
    lng DOUBLE PRECISION NOT NULL,
    import_id BIGINT NOT NULL
  );
  CREATE INDEX local_addresses_street ON local_addresses (street_id, hn_key);
  CREATE UNIQUE INDEX local_addresses_source ON local_addresses (source_id) WHERE source_id IS NOT NULL;
  CREATE INDEX local_addresses_postcode ON local_addresses (pc_key, hn_key) WHERE pc_key IS NOT NULL;`;

describe('an index written before partitioning (postgres)', () => {
  it('is copied into the partitioned layout when opened, keeps its rows and ids, and re-imports as unchanged', async () => {
    const box = await openIndexSandbox('postgres');
    const db = new pg.Client({ connectionString: box.sandbox.databaseUrl });
    await db.connect();
    try {
      const de = box.file('de.csv', countryCsv('DE', 'Musterstadt', 'Lindenweg', 5, 10, 10000));
      const at = box.file('at.csv', countryCsv('AT', 'Bergdorf', 'Almweg', 5, 10, 5000));
      await box.index.importFile(de, { format: 'csv' });
      await box.index.importFile(at, { format: 'csv' });
      // Rewrite the same rows in the old layout (the words and meta tables did not change).
      await db.query(`
        CREATE TABLE keep_s AS SELECT * FROM local_streets;
        CREATE TABLE keep_a AS SELECT * FROM local_addresses;
        DROP TABLE local_addresses, local_streets;
        ${UNPARTITIONED}
        INSERT INTO local_streets (id, skey, country, street, city, state, street_words, city_words, n, lat, lng, postcode)
        SELECT id, skey, country, street, city, state, street_words, city_words, n, lat, lng, postcode FROM keep_s;
        INSERT INTO local_addresses (id, source_id, street_id, hn, hn_key, hn_base, postcode, pc_key, lat, lng, import_id)
        SELECT id, source_id, street_id, hn, hn_key, hn_base, postcode, pc_key, lat, lng, import_id FROM keep_a;
        SELECT setval('local_streets_id_seq', (SELECT max(id) FROM local_streets));
        SELECT setval('local_addresses_id_seq', (SELECT max(id) FROM local_addresses));
        DROP TABLE keep_s, keep_a;`);
      const ids = async () => (await db.query<{ n: string }>(`SELECT string_agg(a.id || '/' || a.street_id || '/' || a.hn, ',' ORDER BY a.id) AS n FROM local_addresses a`)).rows[0]!.n;
      const old = await ids();

      // The server after an upgrade opens it.
      const reopened = await openLocalIndex({ dataDir: box.sandbox.dataDir, databaseUrl: box.sandbox.databaseUrl!, schema: box.sandbox.schema });
      try {
        const kinds = await db.query<{ relname: string; relkind: string }>(
          `SELECT relname, relkind FROM pg_class WHERE relnamespace = current_schema()::regnamespace AND relname ~ '^local_(..?_)?(streets|addresses)$' ORDER BY relname`,
        );
        expect(kinds.rows).toEqual([
          { relname: 'local_addresses', relkind: 'p' },
          { relname: 'local_at_addresses', relkind: 'r' },
          { relname: 'local_at_streets', relkind: 'r' },
          { relname: 'local_de_addresses', relkind: 'r' },
          { relname: 'local_de_streets', relkind: 'r' },
          { relname: 'local_streets', relkind: 'p' },
        ]);
        expect(await ids()).toBe(old);
        expect(await reopened.count()).toBe(120);
        expect((await reopened.geocode({ query: 'Almweg 5, Bergdorf', country: 'AT' }))[0]?.components).toMatchObject({ street: 'Almweg', houseNumber: '5' });
        expect((await reopened.geocode({ query: 'Lindenweg 5, Musterstadt' }))[0]?.components).toMatchObject({ street: 'Lindenweg', houseNumber: '5' });
        // The rows kept their identities: the same file again changes nothing; new streets take fresh ids.
        expect(await reopened.importFile(de, { format: 'csv', replace: true })).toMatchObject({ imported: 0, updated: 0, unchanged: 60, removed: 0 });
        await reopened.importFile(box.file('nl.csv', countryCsv('NL', 'Dorp', 'Dijkweg', 2, 5, 1000)), { format: 'csv' });
        const dup = await db.query('SELECT id FROM local_streets GROUP BY id HAVING count(*) > 1');
        expect(dup.rowCount).toBe(0);
        expect((await reopened.geocode({ query: 'Dijkweg 5, Dorp', country: 'NL' }))[0]?.components.street).toBe('Dijkweg');
      } finally {
        await reopened.close();
      }
    } finally {
      await db.end();
      await box.close();
    }
  }, 60_000);
});
