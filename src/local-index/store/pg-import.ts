import type pg from 'pg';
import { partitionPrefix } from './pg-schema.js';
import { streetStatsSql } from './queries.js';
import { refreshPgStreetPostcodes } from './street-postcodes.js';
import { SAME_COORDINATE, type AddressInput, type BatchOutcome, type ImportSession } from './store.js';

/**
 * A batch travels as two texts, one line per street / address, fields separated by tabs,
 * an empty field meaning NULL (no field the index stores is legitimately empty, and none
 * holds a tab or line break: whitespace was collapsed when the row was read; any left is
 * made a space here). One text parameter costs a fraction of the nine parameter arrays it
 * replaces, to build in JavaScript and to parse in PostgreSQL.
 */
const BREAKS = /[\t\n\r]/;
const BREAKS_ALL = /[\t\n\r]/g;
const text = (v: string): string => (BREAKS.test(v) ? v.replace(BREAKS_ALL, ' ') : v);
const opt = (v: string | null): string => (v === null ? '' : text(v));

type FieldKind = 'text' | 'nullable' | 'int' | 'float8' | 'key';

/**
 * SQL reading the tab-separated fields of a line, by name: split_part for each (an array per
 * line would be split again for every field read). `key` columns compare bytewise ("C"),
 * as the index columns they are matched against.
 */
function fields(line: string, spec: [string, FieldKind][]): string {
  return spec
    .map(([name, kind], k) => {
      const f = `split_part(${line}, E'\\t', ${k + 1})`;
      const sql = { text: f, nullable: `nullif(${f}, '')`, int: `nullif(${f}, '')::int`, float8: `${f}::float8`, key: `nullif(${f}, '') COLLATE "C"` }[kind];
      return `${sql} AS ${name}`;
    })
    .join(', ');
}

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
 * One batch of one country in one statement (one round trip: the server works through batch N
 * while the reader parses batch N + 1), on that country's partitions by name (`t`), so the
 * import reads, writes and locks nothing of other countries. $1 import id, $2 the new streets,
 * $3 the addresses, $4 the country.
 * New streets are inserted first; their ids come from the insert's RETURNING (this
 * statement cannot see its own inserts in the table), else from the table, for streets an
 * earlier batch or import wrote. Each address is matched to the stored one with its
 * identity (by source id, else by street + number); then the new are inserted, the changed
 * updated, the unchanged marked as seen. Rows this import already wrote come back as
 * duplicates, by position, unless they add a unit to the house (OpenAddresses lists a flat a
 * row): then the unit is added.
 */
const writeBatchSql = (t: string) => `
  WITH street_lines AS (
    SELECT l FROM unnest(string_to_array(nullif($2::text, ''), E'\n')) AS l
  ), created AS (
    INSERT INTO ${t}streets (skey, country, street, city, state, street_words, city_words, municipality)
    SELECT ${fields('l', [['skey', 'text'], ['country', 'text'], ['street', 'text'], ['city', 'nullable'], ['state', 'nullable'], ['street_words', 'text'], ['city_words', 'text'], ['municipality', 'nullable']])} FROM street_lines
    ON CONFLICT (skey, country) DO NOTHING
    RETURNING id, skey
  ), completed AS (
    -- A street stored without a state takes the one this file gives.
    UPDATE ${t}streets s SET state = nullif(split_part(l, E'\t', 5), '')
    FROM street_lines WHERE s.skey = split_part(l, E'\t', 1) AND s.state IS NULL AND split_part(l, E'\t', 5) <> ''
  ), rows AS (
    SELECT (n - 1)::int AS i, ${fields('l', [['skey', 'text'], ['source_id', 'nullable'], ['hn', 'text'], ['hn_key', 'key'], ['hn_base', 'int'], ['postcode', 'nullable'], ['pc_key', 'key'], ['lat', 'float8'], ['lng', 'float8'], ['units', 'nullable']])}
    FROM unnest(string_to_array($3::text, E'\n')) WITH ORDINALITY AS t (l, n)
  ), street_ids AS (
    -- A batch names a few hundred streets: each looked up once by its key, not the whole table.
    SELECT k.skey, coalesce(c.id, s.id) AS id, c.id IS NOT NULL AS created
    FROM (SELECT DISTINCT skey FROM rows) k
    LEFT JOIN created c ON c.skey = k.skey
    LEFT JOIN LATERAL (SELECT id FROM ${t}streets s WHERE s.skey = k.skey) s ON c.id IS NULL
  ), q AS (
    SELECT rows.*, s.id AS street_id, s.created FROM rows JOIN street_ids s ON s.skey = rows.skey
  ), m AS (
    -- LATERAL ... LIMIT 1: one index probe per row, whatever the planner guesses of the batch's size.
    SELECT q.i, a.id, a.import_id, ${changed('a', 'q')} AS changed, a.units
    FROM q CROSS JOIN LATERAL (
      SELECT * FROM ${t}addresses a WHERE a.source_id = q.source_id LIMIT 1
    ) a WHERE q.source_id IS NOT NULL
    UNION ALL
    SELECT q.i, a.id, a.import_id, ${changed('a', 'q')} AS changed, a.units
    FROM q CROSS JOIN LATERAL (
      SELECT * FROM ${t}addresses a WHERE a.street_id = q.street_id AND a.hn_key = q.hn_key AND a.source_id IS NULL ORDER BY a.id LIMIT 1
    ) a WHERE q.source_id IS NULL AND NOT q.created -- a street this statement created holds no stored address yet
  ), inserted AS (
    INSERT INTO ${t}addresses (country, source_id, street_id, hn, hn_key, hn_base, postcode, pc_key, lat, lng, units, import_id)
    SELECT $4::text, source_id, street_id, hn, hn_key, hn_base, postcode, pc_key, lat, lng, units, $1::bigint FROM q
    WHERE NOT EXISTS (SELECT 1 FROM m WHERE m.i = q.i) ORDER BY q.i
    RETURNING 1
  ), updated AS (
    UPDATE ${t}addresses a SET street_id = q.street_id, hn = q.hn, hn_key = q.hn_key, hn_base = q.hn_base,
      postcode = q.postcode, pc_key = q.pc_key, lat = q.lat, lng = q.lng, units = q.units, import_id = $1::bigint
    FROM m JOIN q ON q.i = m.i
    WHERE a.id = m.id AND m.import_id <> $1::bigint AND m.changed
    RETURNING 1
  ), added AS (
    -- A house an earlier batch of this import wrote, named again with units: they are added.
    SELECT m.i, m.id, CASE WHEN m.units IS NULL THEN q.units ELSE ${mergedUnits('m.units', 'q.units')} END AS units
    FROM m JOIN q ON q.i = m.i
    WHERE m.import_id = $1::bigint AND q.units IS NOT NULL AND q.units IS DISTINCT FROM m.units
  ), unit_added AS (
    UPDATE ${t}addresses a SET units = added.units FROM added WHERE a.id = added.id AND added.units IS DISTINCT FROM a.units
    RETURNING a.id
  ), seen AS (
    UPDATE ${t}addresses a SET import_id = $1::bigint FROM m WHERE a.id = m.id AND m.import_id <> $1::bigint AND NOT m.changed
    RETURNING 1
  )
  SELECT (SELECT count(*) FROM rows)::int AS rows, (SELECT count(street_id) FROM q)::int AS matched,
    (SELECT count(*) FROM inserted)::int AS imported, (SELECT count(*) FROM updated)::int AS updated,
    (SELECT count(*) FROM seen)::int AS unchanged,
    coalesce((SELECT array_agg(i ORDER BY i) FROM m WHERE m.import_id = $1::bigint
      AND NOT EXISTS (SELECT 1 FROM added JOIN unit_added u ON u.id = added.id WHERE added.i = m.i)), '{}') AS duplicates`;

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
 * One import as one PostgreSQL transaction on a dedicated connection, one statement per batch
 * and country. `ensurePartitions` creates a country's partitions, outside this transaction,
 * before its first rows are written.
 */
export async function beginPgImport(
  client: pg.PoolClient,
  release: () => void,
  ensurePartitions: (countries: string[]) => Promise<void>,
): Promise<ImportSession> {
  await client.query('BEGIN');
  // The batch statement's cost estimate passes JIT's threshold, and compiling it took longer
  // than running it (about 40 of 120 ms per batch).
  await client.query('SET LOCAL jit = off');
  const seq = await client.query<{ value: string }>("UPDATE local_meta SET value = value + 1 WHERE key = 'import_seq' RETURNING value");
  const importId = Number(seq.rows[0]!.value);
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
  // Streets already sent in this import (bounded: a street sent again is found by its key).
  const sent = new Set<string>();
  const partitioned = new Set<string>();

  const writeCountry = async (country: string, rows: AddressInput[]): Promise<BatchOutcome> => {
    const streets: string[] = [];
    const addresses = rows.map((r) => {
      const s = r.street;
      if (!sent.has(s.key)) {
        sent.add(s.key);
        streets.push(`${text(s.key)}\t${s.country}\t${text(s.street)}\t${opt(s.city)}\t${opt(s.state)}\t${s.streetWords}\t${s.cityWords}\t${opt(s.municipality)}`);
      }
      // Keys, countries, tokens and numbers hold no tab or break by construction; the rest is checked.
      return `${text(s.key)}\t${opt(r.sourceId)}\t${text(r.hn)}\t${r.hnKey}\t${r.hnBase ?? ''}\t${opt(r.postcode)}\t${opt(r.pcKey)}\t${r.lat}\t${r.lng}\t${opt(r.units ?? null)}`;
    });
    const sql = writeBatchSql(partitionPrefix(country));
    const res = await client.query<WriteResult>(sql, [importId, streets.join('\n'), addresses.join('\n'), country]);
    const { rows: n, matched, ...outcome } = res.rows[0]!;
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
        await ensurePartitions(fresh);
        for (const c of fresh) partitioned.add(c);
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
      return total;
    },
    async remove(sourceIds: string[]) {
      // An OSM update names no country for a deleted element: its id is looked up in every partition.
      const res = await client.query<{ country: string; n: number }>(
        `WITH gone AS (DELETE FROM local_addresses WHERE source_id = ANY($1::text[]) RETURNING country)
         SELECT country, count(*)::int AS n FROM gone GROUP BY country`,
        [sourceIds],
      );
      return { removed: res.rows.reduce((sum, r) => sum + r.n, 0), countries: res.rows.map((r) => r.country) };
    },
    async finish(countries: string[], replace: boolean) {
      let removed = 0;
      const vanished = new Set<string>();
      // Each country's upkeep runs on its own partitions (a country this import only removed from,
      // or wrote no row of, has them already, or gets empty ones).
      await ensurePartitions(countries.filter((c) => !partitioned.has(c)));
      for (const country of countries) {
        const t = partitionPrefix(country);
        if (replace) {
          const res = await client.query(`DELETE FROM ${t}addresses WHERE import_id <> $1`, [importId]);
          removed += res.rowCount ?? 0;
        }
        await client.query(streetStatsSql(t, '$1'), [country]);
        await refreshPgStreetPostcodes(client, t);
        // A street left without addresses goes; its words may go with it (below).
        const gone = await client.query<{ w: string }>(
          `WITH gone AS (DELETE FROM ${t}streets WHERE n = 0 RETURNING street_words || ' ' || city_words AS words)
           SELECT DISTINCT w FROM gone, unnest(string_to_array(words, ' ')) AS w WHERE w <> ''`,
        );
        for (const r of gone.rows) vanished.add(r.w);
        // The vocabulary for typo candidates: every token of every street and city.
        await client.query(
          `INSERT INTO local_words (word)
           SELECT DISTINCT w FROM ${t}streets, unnest(string_to_array(street_words || ' ' || city_words, ' ')) AS w
           WHERE w <> '' ON CONFLICT DO NOTHING`,
        );
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
      await client.query('ANALYZE local_words');
      await client.query("UPDATE local_meta SET value = value + 1 WHERE key = 'version'");
      await end('COMMIT');
      return removed;
    },
    async abort() {
      await end('ROLLBACK');
    },
  };
}
