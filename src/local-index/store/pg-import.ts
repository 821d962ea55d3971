import type pg from 'pg';
import { COUNTRY_STATE_COLUMNS, nextCountryState } from './country-state.js';
import { copyOpt, copyText, copyThen } from './pg-copy-in.js';
import { attachLoadedAddresses, createLoadingAddresses, INDEX_CHANNEL, literal, partitionPrefix } from './pg-schema.js';
import { streetStatsSql } from './queries.js';
import { refreshPgStreetPostcodes } from './street-postcodes.js';
import { addStreetWords, addWordsInBulk, vocabularyEmpty } from './pg-words.js';
import { identityKey, SeenIdentities } from './seen-identities.js';
import { SAME_COORDINATE, type AddressInput, type BatchOutcome, type CommitRecord, type CountryState, type ImportSession } from './store.js';

/**
 * The staging tables: private to the import's session, gone at its commit or rollback. A batch's
 * rows are one table (one COPY): the first row of a street this import has not sent yet also
 * carries the street's fields, null on the others.
 */
const ROWS = 'pg_temp.local_import_rows';
/** Stored addresses this import found unchanged: they keep their row (no rewrite) and still count as in the file. */
const SEEN = 'pg_temp.local_import_seen';
const ROW_COLUMNS = ['i', 'skey', 'source_id', 'hn', 'hn_key', 'hn_base', 'postcode', 'pc_key', 'lat', 'lng', 'units', 'maybe_stored', 'street', 'city', 'state', 'street_words', 'city_words', 'municipality'];
/** The street fields of a row whose street was sent before. */
const NO_STREET = Array.from({ length: 6 }, () => '\\N').join('\t');
const STAGING = `
  CREATE TEMP TABLE local_import_rows (
    i INTEGER NOT NULL, skey TEXT NOT NULL, source_id TEXT, hn TEXT NOT NULL, hn_key TEXT COLLATE "C" NOT NULL, hn_base INTEGER,
    postcode TEXT, pc_key TEXT COLLATE "C", lat DOUBLE PRECISION NOT NULL, lng DOUBLE PRECISION NOT NULL, units TEXT,
    maybe_stored BOOLEAN NOT NULL, street TEXT, city TEXT, state TEXT, street_words TEXT, city_words TEXT, municipality TEXT
  ) ON COMMIT DROP;
  CREATE TEMP TABLE local_import_seen (id BIGINT PRIMARY KEY) ON COMMIT DROP;`;

/** Whether this import already wrote or saw stored address `a`: a row naming it again is a duplicate. */
const already = (a: string, id: number) => `(${a}.import_id = ${id} OR EXISTS (SELECT 1 FROM ${SEEN} v WHERE v.id = ${a}.id))`;

const changed = (a: string, q: string) => `(${a}.street_id <> ${q}.street_id OR ${a}.hn <> ${q}.hn OR ${a}.postcode IS DISTINCT FROM ${q}.postcode
      OR abs(${a}.lat - ${q}.lat) >= ${SAME_COORDINATE} OR abs(${a}.lng - ${q}.lng) >= ${SAME_COORDINATE} OR ${a}.units IS DISTINCT FROM ${q}.units)`;

/**
 * The stored units of a house (\x1f-joined, see units.ts) with a row's units added: each once,
 * compared without case, in the order first seen, as mergePackedUnits does.
 */
const mergedUnits = (a: string, q: string) => `(SELECT string_agg(u, E'\\x1f' ORDER BY o) FROM (
      SELECT DISTINCT ON (lower(u)) u, o FROM unnest(string_to_array(${a} || E'\\x1f' || ${q}, E'\\x1f')) WITH ORDINALITY AS x (u, o) ORDER BY lower(u), o
    ) d)`;

/**
 * Merges one batch of one country, loaded by COPY into the staging table, in one statement,
 * on that country's partitions by name (`t`), so the import reads, writes and locks nothing of
 * other countries. The import id and the country are written into the text: it goes with the
 * batch's COPY and the staging's TRUNCATE as one simple query (one round trip), which takes no
 * parameters.
 * New streets are inserted first; their ids come from the insert's RETURNING (this
 * statement cannot see its own inserts in the table), else from the table, for streets an
 * earlier batch or import wrote. Each address is matched to the stored one with its
 * identity (by source id, else by street + number), unless the import knows none is stored
 * (`maybe_stored` false: SeenIdentities); then the new are inserted, the changed
 * updated, the unchanged noted in the seen table (not rewritten: a rewrite costs a new row
 * version and an entry in each index). Rows naming an address this import already wrote or
 * saw come back as duplicates, by position, unless they add a unit to the house (OpenAddresses
 * lists a flat a row): then the unit is added.
 */
const mergeBatchSql = (t: string, id: number, country: string) => `
  WITH streets AS (
    SELECT skey, street, city, state, street_words, city_words, municipality FROM ${ROWS} WHERE street IS NOT NULL
  ), created AS (
    INSERT INTO ${t}streets (skey, country, street, city, state, street_words, city_words, municipality)
    SELECT skey, ${literal(country)}, street, city, state, street_words, city_words, municipality FROM streets
    ON CONFLICT (skey, country) DO NOTHING
    RETURNING id, skey
  ), completed AS (
    -- A street stored without a state takes the one this file gives.
    UPDATE ${t}streets s SET state = l.state FROM streets l WHERE s.skey = l.skey AND s.state IS NULL AND l.state IS NOT NULL
  ), street_ids AS (
    -- A batch names a few hundred streets: each looked up once by its key, not the whole table.
    SELECT k.skey, coalesce(c.id, s.id) AS id, c.id IS NOT NULL AS created
    FROM (SELECT DISTINCT skey FROM ${ROWS}) k
    LEFT JOIN created c ON c.skey = k.skey
    LEFT JOIN LATERAL (SELECT id FROM ${t}streets s WHERE s.skey = k.skey) s ON c.id IS NULL
  ), q AS (
    SELECT r.i, r.source_id, r.hn, r.hn_key, r.hn_base, r.postcode, r.pc_key, r.lat, r.lng, r.units, r.maybe_stored, s.id AS street_id, s.created
    FROM ${ROWS} r JOIN street_ids s ON s.skey = r.skey
  ), m AS (
    -- LATERAL ... LIMIT 1: one index probe per row, whatever the planner guesses of the batch's size.
    SELECT q.i, a.id, ${already('a', id)} AS already, ${changed('a', 'q')} AS changed, a.units
    FROM q CROSS JOIN LATERAL (
      SELECT * FROM ${t}addresses a WHERE a.source_id = q.source_id LIMIT 1
    ) a WHERE q.source_id IS NOT NULL AND q.maybe_stored
    UNION ALL
    SELECT q.i, a.id, ${already('a', id)} AS already, ${changed('a', 'q')} AS changed, a.units
    FROM q CROSS JOIN LATERAL (
      SELECT * FROM ${t}addresses a WHERE a.street_id = q.street_id AND a.hn_key = q.hn_key AND a.source_id IS NULL ORDER BY a.id LIMIT 1
    ) a WHERE q.source_id IS NULL AND NOT q.created AND q.maybe_stored -- a street this statement created holds no stored address yet
  ), inserted AS (
    INSERT INTO ${t}addresses (country, source_id, street_id, hn, hn_key, hn_base, postcode, pc_key, lat, lng, units, import_id)
    SELECT ${literal(country)}, source_id, street_id, hn, hn_key, hn_base, postcode, pc_key, lat, lng, units, ${id} FROM q
    WHERE NOT EXISTS (SELECT 1 FROM m WHERE m.i = q.i) ORDER BY q.i
    RETURNING 1
  ), updated AS (
    UPDATE ${t}addresses a SET street_id = q.street_id, hn = q.hn, hn_key = q.hn_key, hn_base = q.hn_base,
      postcode = q.postcode, pc_key = q.pc_key, lat = q.lat, lng = q.lng, units = q.units, import_id = ${id}
    FROM m JOIN q ON q.i = m.i
    WHERE a.id = m.id AND NOT m.already AND m.changed
    RETURNING 1
  ), added AS (
    -- A house an earlier batch of this import wrote or saw, named again with units: they are added.
    SELECT m.i, m.id, CASE WHEN m.units IS NULL THEN q.units ELSE ${mergedUnits('m.units', 'q.units')} END AS units
    FROM m JOIN q ON q.i = m.i
    WHERE m.already AND q.units IS NOT NULL AND q.units IS DISTINCT FROM m.units
  ), unit_added AS (
    UPDATE ${t}addresses a SET units = added.units FROM added WHERE a.id = added.id AND added.units IS DISTINCT FROM a.units
    RETURNING a.id
  ), seen AS (
    INSERT INTO ${SEEN} (id) SELECT m.id FROM m WHERE NOT m.already AND NOT m.changed ON CONFLICT DO NOTHING
    RETURNING 1
  )
  SELECT (SELECT count(*) FROM ${ROWS})::int AS rows, (SELECT count(street_id) FROM q)::int AS matched,
    (SELECT count(*) FROM inserted)::int AS imported, (SELECT count(*) FROM updated)::int AS updated,
    (SELECT count(*) FROM seen)::int AS unchanged,
    coalesce((SELECT array_agg(i ORDER BY i) FROM m WHERE m.already
      AND NOT EXISTS (SELECT 1 FROM added JOIN unit_added u ON u.id = added.id WHERE added.i = m.i)), '{}') AS duplicates`;

/** The country's stored addresses this import neither wrote nor saw: what `--replace` removes. */
const notInImport = (t: string) => `FROM ${t}addresses a WHERE a.import_id <> $1 AND NOT EXISTS (SELECT 1 FROM ${SEEN} v WHERE v.id = a.id)`;

interface WriteResult extends BatchOutcome {
  rows: number;
  matched: number;
}

/** Rows of one batch of one country, with their positions in the batch. */
interface CountryRows {
  rows: AddressInput[];
  at: number[];
}

function byCountry(rows: AddressInput[]): Map<string, CountryRows> {
  const groups = new Map<string, CountryRows>();
  rows.forEach((r, i) => {
    let g = groups.get(r.street.country);
    if (!g) groups.set(r.street.country, (g = { rows: [], at: [] }));
    g.rows.push(r);
    g.at.push(i);
  });
  return groups;
}

/**
 * One import as one PostgreSQL transaction on a dedicated connection: per batch and country, one
 * round trip of a COPY into the staging table (temporary, so private to this session and gone at
 * commit or rollback: a failed import leaves nothing behind), one merge statement, and a TRUNCATE
 * of the staging (the server works through batch N while the reader parses batch N + 1). `ensurePartitions` creates a country's partitions, outside this transaction, before
 * its first rows are written.
 */
export async function beginPgImport(
  client: pg.PoolClient,
  release: () => void,
  ensurePartitions: (countries: string[], deferAddresses?: boolean) => Promise<void>,
): Promise<ImportSession> {
  await client.query('BEGIN');
  // The batch statement's cost estimate passes JIT's threshold, and compiling it took longer
  // than running it (about 40 of 120 ms per batch).
  await client.query('SET LOCAL jit = off');
  const seq = await client.query<{ value: string }>("UPDATE local_meta SET value = value + 1 WHERE key = 'import_seq' RETURNING value");
  const importId = Number(seq.rows[0]!.value);
  // Each batch is loaded by COPY into these, then merged into its country's partitions.
  await client.query(STAGING);
  let open = true;
  const end = async (sql: 'COMMIT' | 'ROLLBACK') => {
    if (!open) return;
    open = false;
    try {
      await client.query(sql);
    } finally {
      release();
    }
  };
  /** Whether this import changed any address: only then do the touched countries' generations move on. */
  let changed = false;
  // Streets already sent in this import (bounded: a street sent again is found by its key).
  const sent = new Set<string>();
  const partitioned = new Set<string>();
  // Countries this import loads into an addresses table of their own (a first import: pg-schema.ts's createLoadingAddresses), attached at the end.
  const loading = new Set<string>();
  /** The identities written into those countries' tables: a row the filter has not seen is stored nowhere yet. */
  let seen: SeenIdentities | undefined;

  const writeCountry = async (country: string, rows: AddressInput[]): Promise<BatchOutcome> => {
    const fresh = loading.has(country);
    const lines = rows.map((r, i) => {
      const s = r.street;
      let street = NO_STREET;
      if (!sent.has(s.key)) {
        sent.add(s.key);
        street = `${copyText(s.street)}\t${copyOpt(s.city)}\t${copyOpt(s.state)}\t${copyText(s.streetWords)}\t${copyText(s.cityWords)}\t${copyOpt(s.municipality)}`;
      }
      // A country this import loads into a table of its own holds only rows of this import (SeenIdentities).
      let maybe = 't';
      if (fresh) {
        seen ??= new SeenIdentities();
        const key = identityKey(r.sourceId, s.key, r.hnKey);
        if (!seen.mayHave(key)) maybe = 'f';
        seen.add(key);
      }
      return `${i}\t${copyText(s.key)}\t${copyOpt(r.sourceId)}\t${copyText(r.hn)}\t${copyText(r.hnKey)}\t${r.hnBase ?? '\\N'}\t${copyOpt(r.postcode)}\t${copyOpt(r.pcKey)}\t${r.lat}\t${r.lng}\t${copyOpt(r.units)}\t${maybe}\t${street}`;
    });
    const [merged] = await copyThen<WriteResult>(client, ROWS, ROW_COLUMNS, lines, `${mergeBatchSql(partitionPrefix(country), importId, country)};\nTRUNCATE ${ROWS}`);
    const { rows: n, matched, ...outcome } = merged!;
    // Every street is sent with its first row; a row without one would be lost silently.
    if (matched !== n) throw new Error(`import: ${n - matched} of ${n} rows found no street`);
    return outcome;
  };

  return {
    importId,
    async write(rows: AddressInput[]) {
      const total: BatchOutcome = { imported: 0, updated: 0, unchanged: 0, duplicates: [] };
      if (rows.length === 0) return total;
      if (sent.size > 500_000) sent.clear();
      const groups = byCountry(rows);
      const fresh = [...groups.keys()].filter((c) => !partitioned.has(c));
      if (fresh.length > 0) {
        await ensurePartitions(fresh, true);
        for (const c of fresh) {
          partitioned.add(c);
          const exists = await client.query<{ present: boolean }>('SELECT to_regclass($1) IS NOT NULL AS present', [`${partitionPrefix(c)}addresses`]);
          if (exists.rows[0]!.present) continue;
          await createLoadingAddresses(client, c);
          loading.add(c);
        }
      }
      // Identities never span countries (each is unique within its country), so the groups are independent.
      for (const [country, g] of groups) {
        const out = await writeCountry(country, g.rows);
        total.imported += out.imported;
        total.updated += out.updated;
        total.unchanged += out.unchanged;
        total.duplicates.push(...out.duplicates.map((i) => g.at[i]!));
      }
      total.duplicates.sort((a, b) => a - b);
      if (total.imported + total.updated > 0) changed = true;
      return total;
    },
    async remove(sourceIds: string[]) {
      // An OSM update names no country for a deleted element: its id is looked up in every partition.
      // A country this import loads for the first time is not a partition yet: its table is read by name.
      const tables = ['local_addresses', ...[...loading].map((c) => `${partitionPrefix(c)}addresses`)];
      const res = await client.query<{ country: string; n: number }>(
        `WITH ${tables.map((t, i) => `gone${i} AS (DELETE FROM ${t} WHERE source_id = ANY($1::text[]) RETURNING country)`).join(', ')}
         SELECT country, count(*)::int AS n FROM (${tables.map((_, i) => `SELECT country FROM gone${i}`).join(' UNION ALL ')}) gone GROUP BY country`,
        [sourceIds],
      );
      const removed = res.rows.reduce((sum, r) => sum + r.n, 0);
      if (removed > 0) changed = true;
      return { removed, countries: res.rows.map((r) => r.country) };
    },
    async finish(countries: string[], replace: boolean, record?: CommitRecord, beforeCommit?: () => Promise<void>) {
      let removed = 0;
      let notInFile = 0;
      const vanished = new Set<string>();
      // An empty vocabulary (the index's first import) is filled in bulk, last before the commit (pg-words.ts).
      const bulkWords = await vocabularyEmpty(client);
      // Each country's upkeep runs on its own partitions (a country this import only removed from,
      // or wrote no row of, has them already, or gets empty ones).
      await ensurePartitions(countries.filter((c) => !partitioned.has(c)));
      // Every table loaded on its own joins the index, with the indexes the load went without.
      for (const country of loading) await attachLoadedAddresses(client, country);
      // A country loaded into a table of its own holds only this import's addresses: none to remove or count.
      const loaded = new Set(loading);
      loading.clear();
      for (const country of countries) {
        const t = partitionPrefix(country);
        const older = !loaded.has(country);
        if (older && replace) {
          const res = await client.query(`DELETE ${notInImport(t)}`, [importId]);
          removed += res.rowCount ?? 0;
        } else if (older && record?.kind === 'import') {
          const res = await client.query<{ n: string }>(`SELECT count(*) AS n ${notInImport(t)}`, [importId]);
          notInFile += Number(res.rows[0]!.n);
        }
        await client.query(streetStatsSql(t, '$1'), [country]);
        await refreshPgStreetPostcodes(client, t);
        // A street left without addresses goes; its words may go with it (below).
        const gone = await client.query<{ w: string }>(
          `WITH gone AS (DELETE FROM ${t}streets WHERE n = 0 RETURNING street_words || ' ' || city_words AS words)
           SELECT DISTINCT w FROM gone, unnest(string_to_array(words, ' ')) AS w WHERE w <> ''`,
        );
        for (const r of gone.rows) vanished.add(r.w);
        if (!bulkWords) await addStreetWords(client, t);
        // Fresh statistics, or the planner guesses sequential scans over the new rows. The
        // partitions only: ANALYZE of a parent samples, and re-analyzes, every country's.
        await client.query(`ANALYZE ${t}streets, ${t}addresses`);
      }
      if (vanished.size > 0) {
        // A deleted street's word leaves the vocabulary unless a street of any country still has it:
        // one GIN probe per word (rebuilding the vocabulary read every country's streets). The word
        // becomes a one-lexeme tsquery, quoted, backslashes and quotes doubled.
        await client.query(
          `DELETE FROM local_words w WHERE w.word = ANY($1::text[]) AND NOT EXISTS (
             SELECT 1 FROM local_streets s
             WHERE s.tsv @@ (E'\\'' || replace(replace(w.word, E'\\\\', E'\\\\\\\\'), E'\\'', E'\\'\\'') || E'\\'')::tsquery)`,
          [[...vanished]],
        );
      }
      if (!bulkWords) await client.query('ANALYZE local_words');
      if (removed > 0) changed = true;
      const bumped = await client.query<{ value: string }>("UPDATE local_meta SET value = value + 1 WHERE key = 'version' RETURNING value");
      const version = Number(bumped.rows[0]!.value);
      for (const country of countries) {
        const old = await client.query<CountryState>(`SELECT ${COUNTRY_STATE_COLUMNS} FROM local_country_state WHERE country = $1`, [country]);
        const prev = old.rows[0] && { ...old.rows[0], generation: Number(old.rows[0].generation) };
        const n = nextCountryState(country, prev, record, changed, version);
        await client.query(
          `INSERT INTO local_country_state (country, generation, covered, source, imported_at, change_file, change_at) VALUES ($1, $2, $3, $4, $5, $6, $7)
           ON CONFLICT (country) DO UPDATE SET generation = excluded.generation, covered = excluded.covered, source = excluded.source,
             imported_at = excluded.imported_at, change_file = excluded.change_file, change_at = excluded.change_at`,
          [n.country, n.generation, n.covered, n.source, n.importedAt, n.changeFile, n.changeAt],
        );
      }
      if (record?.kind === 'import' && record.withdrawsUpdates) {
        const state = await client.query<{ present: boolean }>("SELECT to_regclass('local_osm_meta') IS NOT NULL AS present");
        if (state.rows[0]!.present) await client.query("DELETE FROM local_osm_meta WHERE key = 'recorded'");
      }
      await beforeCommit?.();
      if (bulkWords) await addWordsInBulk(client, countries.map(partitionPrefix));
      // Delivered at commit to every server listening (pg-store.ts): their cache keys move on at once.
      await client.query('SELECT pg_notify($1, $2)', [INDEX_CHANNEL, String(version)]);
      await end('COMMIT');
      return { removed, notInFile };
    },
    async abort() {
      await end('ROLLBACK');
    },
  };
}
