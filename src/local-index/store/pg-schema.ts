import type pg from 'pg';
import { PG_SEARCH_FUNCTION, PG_SEARCH_FUNCTION_VERSION } from './pg-search-function.js';
import { PG_STREET_POSTCODES, refreshPgStreetPostcodes } from './street-postcodes.js';
import { PG_SPATIAL_INDEX } from './pg-spatial.js';

/** Quotes an identifier (schema names come from configuration and tests). */
export function ident(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** Quotes a text literal (DDL takes no parameters: partition bounds are written into it). */
export function literal(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

/**
 * Table-name prefix of one country's partitions: `local_de_` names `local_de_streets` and
 * `local_de_addresses`, so SQL written for a prefix (queries.ts) runs on one partition as it
 * does on the whole index. Codes other than two letters (none is expected) are hex-encoded.
 */
export function partitionPrefix(country: string): string {
  const code = /^[A-Z]{2}$/.test(country) ? country.toLowerCase() : `x${Buffer.from(country).toString('hex').slice(0, 40)}`;
  return `local_${code}_`;
}

/**
 * The parents of the partitioned layout. Ids come from one sequence per table, so a street id
 * names one street across every partition (addresses refer to streets by id alone); unique
 * indexes must contain the partition key, so the keys are (id, country), (skey, country) and
 * (source_id, country): the street key starts with its country anyway, and an element's source
 * id is unique within its country (one file per country; see docs/sizing.md). Storage
 * parameters (streets' fillfactor) belong to the partitions, which a partitioned table cannot have.
 */
const PARTITIONED = `
  CREATE SEQUENCE IF NOT EXISTS local_streets_id_seq;
  CREATE TABLE IF NOT EXISTS local_streets (
    id BIGINT NOT NULL DEFAULT nextval('local_streets_id_seq'),
    skey TEXT NOT NULL,
    country TEXT NOT NULL,
    street TEXT NOT NULL,
    city TEXT,
    municipality TEXT,
    state TEXT,
    street_words TEXT NOT NULL,
    city_words TEXT NOT NULL,
    n INTEGER NOT NULL DEFAULT 0,
    lat DOUBLE PRECISION,
    lng DOUBLE PRECISION,
    postcode TEXT,
    tsv TSVECTOR GENERATED ALWAYS AS (array_to_tsvector(array_remove(string_to_array(street_words || ' ' || city_words, ' '), ''))) STORED,
    PRIMARY KEY (id, country),
    UNIQUE (skey, country)
  ) PARTITION BY LIST (country);
  ALTER SEQUENCE local_streets_id_seq OWNED BY local_streets.id;
  CREATE INDEX IF NOT EXISTS local_streets_tsv ON local_streets USING gin (tsv) WITH (fastupdate = off);
  CREATE SEQUENCE IF NOT EXISTS local_addresses_id_seq;
  CREATE TABLE IF NOT EXISTS local_addresses (
    id BIGINT NOT NULL DEFAULT nextval('local_addresses_id_seq'),
    country TEXT NOT NULL,
    source_id TEXT,
    street_id BIGINT NOT NULL,
    hn TEXT NOT NULL,
    hn_key TEXT COLLATE "C" NOT NULL,
    hn_base INTEGER,
    postcode TEXT,
    pc_key TEXT COLLATE "C",
    lat DOUBLE PRECISION NOT NULL,
    lng DOUBLE PRECISION NOT NULL,
    import_id BIGINT NOT NULL,
    units TEXT,
    PRIMARY KEY (id, country)
  ) PARTITION BY LIST (country);
  ALTER SEQUENCE local_addresses_id_seq OWNED BY local_addresses.id;
  CREATE INDEX IF NOT EXISTS local_addresses_street ON local_addresses (street_id, hn_key);
  CREATE UNIQUE INDEX IF NOT EXISTS local_addresses_source ON local_addresses (source_id, country) WHERE source_id IS NOT NULL;
  CREATE INDEX IF NOT EXISTS local_addresses_postcode ON local_addresses (pc_key, hn_key) WHERE pc_key IS NOT NULL;
  ${PG_STREET_POSTCODES}`;

/**
 * Schema of the PostgreSQL index, tables prefixed `local_`. Streets carry a tsvector built
 * from their index tokens taken literally (array_to_tsvector: no stemming, no stop words),
 * the vocabulary carries a pg_trgm GIN index for typo candidates, and the key columns use
 * the "C" collation so prefix ranges compare bytes, as SQLite does. The GIN indexes skip
 * the pending list (fastupdate off): after a bulk import every search would scan it.
 * Streets leave half of each page free: every import rewrites their statistics, and an
 * update that fits in its page (HOT) skips the GIN index, 2.5 times faster.
 *
 * Streets and addresses are list-partitioned by country (one partition pair per country,
 * created by `ensurePartitions`), so a country's re-import writes and locks only its own
 * partitions and a query that names a country reads only them. An index from before
 * partitioning is copied into this layout here, once, in this transaction.
 */
export async function applyPgSchema(client: pg.PoolClient, schema: string | undefined): Promise<void> {
  await client.query('BEGIN');
  try {
    // Parallel start-ups (tests, instances) would race on CREATE EXTENSION / CREATE TABLE.
    await client.query("SELECT pg_advisory_xact_lock(hashtext('addressd_local_index_schema'))");
    await client.query('CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public');
    if (schema) await client.query(`CREATE SCHEMA IF NOT EXISTS ${ident(schema)}`);
    if (await isCurrent(client)) {
      // No DDL at all: even `CREATE INDEX IF NOT EXISTS` and `ADD COLUMN IF NOT EXISTS` lock the
      // table before they look, and an instance starting during an import would wait for its
      // commit, with every query queued behind that lock.
      await client.query('COMMIT');
      return;
    }
    await client.query(`
      CREATE TABLE IF NOT EXISTS local_meta (key TEXT PRIMARY KEY, value BIGINT NOT NULL);
      INSERT INTO local_meta (key, value) VALUES ('version', 0), ('import_seq', 0) ON CONFLICT DO NOTHING;
      CREATE TABLE IF NOT EXISTS local_words (word TEXT COLLATE "C" PRIMARY KEY);
      CREATE INDEX IF NOT EXISTS local_words_trgm ON local_words USING gin (word public.gin_trgm_ops) WITH (fastupdate = off);
    `);
    const unpartitioned = await tableKind(client, 'local_streets');
    // Looked at before the DDL below creates the table (empty, without partitions).
    const hadStreetPostcodes = (await tableKind(client, 'local_street_postcodes')) !== undefined;
    if (unpartitioned === 'r') await setAsideUnpartitioned(client);
    await client.query(PARTITIONED);
    if (unpartitioned === 'r') await copyUnpartitioned(client);
    // Indexes created before streets knew their municipality gain the column (null until re-imported).
    await client.query('ALTER TABLE local_streets ADD COLUMN IF NOT EXISTS municipality TEXT');
    // Indexes written before addresses knew their units gain the column (null: none known until re-imported).
    await client.query('ALTER TABLE local_addresses ADD COLUMN IF NOT EXISTS units TEXT');
    if (!hadStreetPostcodes) await addStreetPostcodes(client);
    // The reverse look-up's index (pg-spatial.ts): built here, once, for an index from before it.
    await client.query(PG_SPATIAL_INDEX);
    await addCountryStates(client);
    // Replaced as a whole when its version changes (isCurrent compares it).
    await client.query(PG_SEARCH_FUNCTION);
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK');
    throw err;
  }
}

/** The channel an import's commit notifies (payload: the new version); servers LISTEN on the primary (pg-store.ts). */
export const INDEX_CHANNEL = 'addressd_local_index';

/**
 * Country states (store/country-state.ts). An index from before them counts every country it
 * holds as imported for (what coverage meant then), at the current generation.
 */
async function addCountryStates(client: pg.PoolClient): Promise<void> {
  if ((await tableKind(client, 'local_country_state')) !== undefined) return;
  await client.query(`
    CREATE TABLE local_country_state (
      country TEXT PRIMARY KEY, generation BIGINT NOT NULL, covered BOOLEAN NOT NULL DEFAULT false,
      source TEXT, imported_at TEXT, change_file TEXT, change_at TEXT
    );
    INSERT INTO local_country_state (country, generation, covered)
    SELECT DISTINCT country, (SELECT value FROM local_meta WHERE key = 'version'), true FROM local_streets WHERE n > 0`);
}

/** Whether the index is in this version's layout (looked up in the catalog, which takes no table lock). */
async function isCurrent(client: pg.PoolClient): Promise<boolean> {
  const res = await client.query<{ current: boolean }>(
    `
    SELECT coalesce((SELECT c.relkind = 'p' FROM pg_class c WHERE c.relname = 'local_streets' AND c.relnamespace = current_schema()::regnamespace), false)
      AND EXISTS (SELECT 1 FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
                  WHERE c.relname = 'local_streets' AND c.relnamespace = current_schema()::regnamespace AND a.attname = 'municipality' AND NOT a.attisdropped)
      AND EXISTS (SELECT 1 FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
                  WHERE c.relname = 'local_addresses' AND c.relnamespace = current_schema()::regnamespace AND a.attname = 'units' AND NOT a.attisdropped)
      AND EXISTS (SELECT 1 FROM pg_class c WHERE c.relname = 'local_words_trgm' AND c.relnamespace = current_schema()::regnamespace)
      AND EXISTS (SELECT 1 FROM pg_class c WHERE c.relname = 'local_street_postcodes' AND c.relnamespace = current_schema()::regnamespace)
      AND EXISTS (SELECT 1 FROM pg_class c WHERE c.relname = 'local_addresses_point' AND c.relnamespace = current_schema()::regnamespace)
      AND EXISTS (SELECT 1 FROM pg_class c WHERE c.relname = 'local_meta' AND c.relnamespace = current_schema()::regnamespace)
      AND EXISTS (SELECT 1 FROM pg_class c WHERE c.relname = 'local_country_state' AND c.relnamespace = current_schema()::regnamespace)
      AND EXISTS (SELECT 1 FROM pg_proc p WHERE p.proname = 'addressd_local_search' AND p.pronamespace = current_schema()::regnamespace
                  AND strpos(p.prosrc, $1) > 0) AS current`,
    [PG_SEARCH_FUNCTION_VERSION],
  );
  return res.rows[0]!.current;
}

/** `r` (plain table), `p` (partitioned) or undefined, for a table of the schema the index lives in (not one further down search_path). */
async function tableKind(client: pg.PoolClient, table: string): Promise<string | undefined> {
  const res = await client.query<{ relkind: string }>(
    'SELECT relkind FROM pg_class WHERE relname = $1 AND relnamespace = current_schema()::regnamespace',
    [table],
  );
  return res.rows[0]?.relkind;
}

/**
 * Renames the tables of an index written before partitioning out of the way, frees the index
 * names the new layout uses, and keeps the id sequences (ids stay as they were).
 */
async function setAsideUnpartitioned(client: pg.PoolClient): Promise<void> {
  await client.query(`
    ALTER TABLE local_streets ADD COLUMN IF NOT EXISTS municipality TEXT;
    ALTER SEQUENCE local_streets_id_seq OWNED BY NONE;
    ALTER SEQUENCE local_addresses_id_seq OWNED BY NONE;
    ALTER TABLE local_streets ALTER COLUMN id DROP DEFAULT;
    ALTER TABLE local_addresses ALTER COLUMN id DROP DEFAULT;
    DROP INDEX IF EXISTS local_streets_tsv, local_streets_country, local_addresses_street, local_addresses_source, local_addresses_postcode;
    ALTER TABLE local_streets DROP CONSTRAINT IF EXISTS local_streets_skey_key;
    ALTER TABLE local_streets RENAME CONSTRAINT local_streets_pkey TO local_old_streets_pkey;
    ALTER TABLE local_addresses RENAME CONSTRAINT local_addresses_pkey TO local_old_addresses_pkey;
    ALTER TABLE local_streets RENAME TO local_old_streets;
    ALTER TABLE local_addresses RENAME TO local_old_addresses;`);
}

/** Copies the set-aside tables into their countries' partitions, then drops them. */
async function copyUnpartitioned(client: pg.PoolClient): Promise<void> {
  const countries = await client.query<{ country: string }>('SELECT DISTINCT country FROM local_old_streets');
  // Inside this transaction the new parents are still empty and private: creating partitions here locks nothing anyone waits on.
  for (const { country } of countries.rows) await createPartitions(client, country);
  await client.query(`
    INSERT INTO local_streets (id, skey, country, street, city, municipality, state, street_words, city_words, n, lat, lng, postcode)
    SELECT id, skey, country, street, city, municipality, state, street_words, city_words, n, lat, lng, postcode FROM local_old_streets;
    INSERT INTO local_addresses (id, country, source_id, street_id, hn, hn_key, hn_base, postcode, pc_key, lat, lng, import_id)
    SELECT a.id, s.country, a.source_id, a.street_id, a.hn, a.hn_key, a.hn_base, a.postcode, a.pc_key, a.lat, a.lng, a.import_id
    FROM local_old_addresses a JOIN local_old_streets s ON s.id = a.street_id;
    DROP TABLE local_old_addresses, local_old_streets;`);
  for (const { country } of countries.rows) {
    const t = partitionPrefix(country);
    await client.query(`ANALYZE ${t}streets, ${t}addresses`);
  }
}

/**
 * An index from before streets' postcodes (street-postcodes.ts): the table, each country's
 * partition, filled from its addresses. Runs once, in the schema transaction.
 */
async function addStreetPostcodes(client: pg.PoolClient): Promise<void> {
  await client.query(PG_STREET_POSTCODES);
  const countries = await client.query<{ country: string }>('SELECT DISTINCT country FROM local_streets');
  for (const { country } of countries.rows) {
    await createPartitions(client, country);
    const t = partitionPrefix(country);
    await refreshPgStreetPostcodes(client, t);
    await client.query(`ANALYZE ${t}street_postcodes`);
  }
}

/**
 * Creates and attaches one country's partitions, unless they exist. A partition is built
 * as a table of its own, then attached: ATTACH PARTITION locks the parent only against other
 * schema changes (SHARE UPDATE EXCLUSIVE), so queries and an import's open transaction go on;
 * CREATE TABLE … PARTITION OF would take ACCESS EXCLUSIVE and wait for (and block) them all.
 */
async function createPartitions(client: pg.PoolClient, country: string, deferAddresses = false): Promise<void> {
  const t = partitionPrefix(country);
  const attached = await client.query(
    `SELECT 1 FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
     WHERE i.inhparent = 'local_streets'::regclass AND c.relname = $1`,
    [`${t}streets`],
  );
  const bound = `FOR VALUES IN (${literal(country)})`;
  // Checked on its own: partitions of streets and addresses made before this table existed have none.
  const pairs = await client.query(
    `SELECT 1 FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
     WHERE i.inhparent = 'local_street_postcodes'::regclass AND c.relname = $1`,
    [`${t}street_postcodes`],
  );
  if (!pairs.rowCount) {
    await client.query(`
      CREATE TABLE IF NOT EXISTS ${t}street_postcodes (LIKE local_street_postcodes INCLUDING ALL);
      ALTER TABLE local_street_postcodes ATTACH PARTITION ${t}street_postcodes ${bound};`);
  }
  if (!attached.rowCount) {
    await client.query(`
      CREATE TABLE IF NOT EXISTS ${t}streets (LIKE local_streets INCLUDING ALL) WITH (fillfactor = 50);
      ALTER TABLE local_streets ATTACH PARTITION ${t}streets ${bound};`);
  }
  if (deferAddresses || (await client.query('SELECT to_regclass($1) IS NOT NULL AS present', [`${t}addresses`])).rows[0]!.present) return;
  await client.query(`
    CREATE TABLE ${t}addresses (LIKE local_addresses INCLUDING ALL);
    ALTER TABLE local_addresses ATTACH PARTITION ${t}addresses ${bound};`);
}

/**
 * A first import of a country (no addresses partition yet) loads into a table of its own, created
 * in the import's transaction (private until it commits) with only the indexes the load itself
 * reads (the key, street and number, source id: each batch matches its rows against them), and a
 * CHECK that lets the attach skip its scan. The other indexes (the GiST point index of reverse
 * look-ups, postcode and number) are built by `attachLoadedAddresses` over the loaded rows, in
 * bulk: kept up row by row during the load they cost about four times as much.
 */
export async function createLoadingAddresses(client: pg.PoolClient, country: string): Promise<void> {
  const t = partitionPrefix(country);
  await client.query(`
    CREATE TABLE ${t}addresses (LIKE local_addresses INCLUDING DEFAULTS INCLUDING CONSTRAINTS INCLUDING STORAGE,
      CONSTRAINT ${t}addresses_loading CHECK (country = ${literal(country)}));
    ALTER TABLE ${t}addresses ADD PRIMARY KEY (id, country);
    CREATE INDEX ON ${t}addresses (street_id, hn_key);
    CREATE UNIQUE INDEX ON ${t}addresses (source_id, country) WHERE source_id IS NOT NULL;`);
}

/**
 * Attaches a table `createLoadingAddresses` made, in the import's transaction, at its end: the
 * indexes it lacks are built over its rows (ATTACH creates each missing one; those it has are
 * attached as they are). ATTACH locks the parent only against other schema changes (SHARE UPDATE
 * EXCLUSIVE), so queries go on; the new country is served from the commit on.
 */
export async function attachLoadedAddresses(client: pg.PoolClient, country: string): Promise<void> {
  const t = partitionPrefix(country);
  // The GiST build sorts the points (PostgreSQL 14+): in memory for a few million rows.
  await client.query("SET LOCAL maintenance_work_mem = '256MB'");
  await client.query(`
    ALTER TABLE local_addresses ATTACH PARTITION ${t}addresses FOR VALUES IN (${literal(country)});
    ALTER TABLE ${t}addresses DROP CONSTRAINT ${t}addresses_loading;`);
}

/**
 * Makes sure these countries have their partitions, each in a short transaction of its own on
 * `client` (never the import's: its transaction would hold the attach's lock until it commits).
 * An import that fails later leaves an empty partition behind, which serves nothing and is reused.
 */
export async function ensurePartitions(client: pg.PoolClient, countries: Iterable<string>, deferAddresses = false): Promise<void> {
  for (const country of countries) {
    await client.query('BEGIN');
    try {
      // Two imports naming the same new country would race on the same table names.
      await client.query("SELECT pg_advisory_xact_lock(hashtext('addressd_local_index_partitions'))");
      await createPartitions(client, country, deferAddresses);
      await client.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK');
      throw err;
    }
  }
}
