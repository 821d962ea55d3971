import { LRUCache } from 'lru-cache';
import pg from 'pg';
import { createPgPool, type PoolErrorHandler } from '../../store/db/pg-pool.js';
import { isTypoOf, mayHaveTypo } from '../fuzzy.js';
import { beginPgImport } from './pg-import.js';
import { applyPgSchema, ensurePartitions, ident } from './pg-schema.js';
import { addressesByPostcodeQuery, addressesOnStreetsQuery, numberedColumns, postcodeExistsQuery, sqlLimit, streetColumns, type Query } from './queries.js';
import { toAddressHit, toStreetHit, tsQuery, withNumbers, type AddressRow, type NumberedRow, type StreetRow } from './rows.js';
import { PostcodeCache } from './postcode-cache.js';
import { NUMBERED_PER_STREET, PREFIX_END, type IndexStore, type WordQuery, type WordResolution } from './store.js';

/** `?` placeholders (shared SQL) → `$1, $2, …`. */
function numbered(sql: string): string {
  let i = 0;
  return sql.replace(/\?/g, () => `$${++i}`);
}

/**
 * Session settings travel in the URL's `options` (which node-postgres lets override its
 * config): the test schema when given, else whatever search_path the URL already sets, and
 * low trigram thresholds, since short words with one typo share few trigrams (candidates
 * are verified in JS anyway), and no JIT: every search query runs in well under a
 * millisecond, and compiling one whose estimate crosses the JIT threshold takes tens.
 */
export function withSessionOptions(databaseUrl: string, schema: string | undefined): string {
  const url = new URL(databaseUrl);
  const options = [
    url.searchParams.get('options') ?? '',
    '-c pg_trgm.similarity_threshold=0.2 -c pg_trgm.word_similarity_threshold=0.4 -c jit=off',
    schema ? `-c search_path=${ident(schema).replace(/ /g, '\\ ')},public` : '',
  ];
  url.searchParams.set('options', options.filter(Boolean).join(' '));
  return url.toString();
}

/**
 * The PostgreSQL index: tsvector + GIN over streets, pg_trgm over the vocabulary for
 * typo candidates (then checked with the same edit-distance rule as SQLite).
 */
export interface PgStoreOptions {
  schema?: string | undefined;
  /** Connection errors the pool absorbed (a backend terminated): logged by the service. */
  onError?: PoolErrorHandler | undefined;
  /** How long a search waits for a connection before it fails (the provider reports an error). */
  connectTimeoutMs?: number | undefined;
  /**
   * Where searches read (a streaming replica); imports and the schema stay on `databaseUrl`,
   * the primary. The version is read there too, so caches follow what the replica shows.
   */
  readUrl?: string | undefined;
}

export async function openPgStore(databaseUrl: string, options: PgStoreOptions = {}): Promise<IndexStore> {
  const { schema } = options;
  // A query fans out to up to four parallel look-ups; opening a connection costs more than a
  // whole search, so connections are opened up front and kept (allowExitOnIdle: no hang at exit).
  // Kept connections get terminated by restarts and failovers: createPgPool's listeners drop them
  // instead of letting an unhandled `error` event end the process.
  const poolFor = (url: string) =>
    createPgPool(
      {
        connectionString: withSessionOptions(url, schema),
        max: 8,
        idleTimeoutMillis: 0,
        allowExitOnIdle: true,
        ...(options.connectTimeoutMs !== undefined ? { connectionTimeoutMillis: options.connectTimeoutMs } : {}),
      },
      options.onError,
    );
  const primary = poolFor(databaseUrl);
  const pool = options.readUrl && options.readUrl !== databaseUrl ? poolFor(options.readUrl) : primary;
  const setup = await primary.connect();
  try {
    await applyPgSchema(setup, schema);
  } finally {
    setup.release();
  }
  const warm = await Promise.all(Array.from({ length: 4 }, () => pool.connect()));
  for (const client of warm) client.release();
  // Named statements: each connection parses and plans a search query once, not on every
  // keystroke (planning took longer than running: 0.3-0.6 ms against 0.1-0.2 ms). The texts
  // are few and fixed by this code (IN lists run to at most a few dozen street ids).
  const names = new Map<string, string>();
  const run = <T extends pg.QueryResultRow>(text: string, values: unknown[]) => {
    let name = names.get(text);
    if (!name) names.set(text, (name = `local_${names.size}`));
    return pool.query<T>({ name, text, values });
  };
  const all = async <T extends pg.QueryResultRow>(q: Query) => (await run<T>(numbered(q.sql), q.args)).rows;
  // Word and postcode look-ups repeat keystroke after keystroke; they only change with an import.
  // The index polls version() every few seconds, which clears them after another process imported.
  const words = new LRUCache<string, WordResolution>({ max: 50_000 });
  const postcodes = new PostcodeCache();
  let seenVersion = -1;
  const invalidate = () => {
    words.clear();
    postcodes.clear();
  };
  const postcodeExists = (key: string, prefix: boolean, country: string | undefined) =>
    postcodes.exists(key, prefix, country, async () => (await all(postcodeExistsQuery('local_', key, prefix, country))).length > 0);

  /** Exact or prefix existence in one query; typo candidates (pg_trgm) in a second one, only for the misses. */
  const lookUpWords = async (words: WordQuery[]): Promise<WordResolution[]> => {
    const known = await run<{ i: number }>(
      `SELECT q.i FROM unnest($1::text[], $2::bool[]) WITH ORDINALITY AS q (word, prefix, i)
       WHERE (NOT q.prefix AND EXISTS (SELECT 1 FROM local_words w WHERE w.word = q.word))
          OR (q.prefix AND EXISTS (SELECT 1 FROM local_words w WHERE w.word >= q.word AND w.word < q.word || $3))`,
      [words.map((w) => w.word), words.map((w) => w.prefix), PREFIX_END],
    );
    const found = new Set(known.rows.map((r) => Number(r.i) - 1));
    const missing = words.map((w, i) => ({ ...w, i })).filter((w) => !found.has(w.i) && mayHaveTypo(w.word));
    const fuzzy = new Map<number, string[]>();
    if (missing.length > 0) {
      const res = await run<{ i: number; word: string }>(
        `SELECT q.i, c.word FROM unnest($1::text[], $2::bool[], $3::int[]) AS q (word, prefix, i),
         LATERAL (
           (SELECT w.word FROM local_words w WHERE NOT q.prefix AND w.word OPERATOR(public.%) q.word
            ORDER BY public.similarity(w.word, q.word) DESC LIMIT 40)
           UNION ALL
           (SELECT w.word FROM local_words w WHERE q.prefix AND q.word OPERATOR(public.<%) w.word
            ORDER BY public.word_similarity(q.word, w.word) DESC LIMIT 40)
         ) c`,
        [missing.map((w) => w.word), missing.map((w) => w.prefix), missing.map((w) => w.i)],
      );
      for (const r of res.rows) {
        const w = words[r.i]!;
        if (isTypoOf(w.word, r.word, w.prefix)) fuzzy.set(r.i, [...(fuzzy.get(r.i) ?? []), r.word].slice(0, 8));
      }
    }
    return words.map((_, i) => ({ known: found.has(i), fuzzy: fuzzy.get(i) ?? [] }));
  };

  return {
    kind: 'postgres',
    async version() {
      const v = Number((await pool.query<{ value: string }>("SELECT value FROM local_meta WHERE key = 'version'")).rows[0]?.value ?? 0);
      if (v !== seenVersion) invalidate();
      seenVersion = v;
      return v;
    },
    async countries() {
      return (await pool.query<{ country: string }>('SELECT DISTINCT country FROM local_streets WHERE n > 0 ORDER BY country')).rows.map((r) => r.country);
    },
    async count() {
      return Number((await pool.query<{ n: string }>('SELECT count(*) AS n FROM local_addresses')).rows[0]!.n);
    },
    async beginImport() {
      const client = await primary.connect();
      try {
        return await beginPgImport(
          client,
          () => {
            client.release();
            invalidate();
          },
          // A connection of its own: the import's transaction must not hold the attach's lock.
          async (countries) => {
            const ddl = await primary.connect();
            try {
              await ensurePartitions(ddl, countries);
            } finally {
              ddl.release();
            }
          },
        );
      } catch (err) {
        client.release();
        throw err;
      }
    },
    async resolveWords(queries: WordQuery[]): Promise<WordResolution[]> {
      const id = (q: WordQuery) => `${q.prefix ? 'p' : 'e'}|${q.word}`;
      const todo = queries.filter((q) => !words.has(id(q)));
      if (todo.length > 0) {
        const fresh = await lookUpWords(todo);
        todo.forEach((q, i) => words.set(id(q), fresh[i]!));
      }
      return queries.map((q) => words.get(id(q)) ?? { known: false, fuzzy: [] });
    },

    async findStreets(terms, country, limit, hnKey, inPostcode) {
      if (terms.length === 0) return [];
      if (hnKey !== undefined && inPostcode !== undefined) {
        // The (postcode, number) index names a few addresses; their streets are checked against the
        // words, each joined with its addresses of that number: one round trip, a handful of rows.
        // Country joins and a plain country equality, so the plan reads that country's partitions only.
        const res = await pool.query<NumberedRow>({
          text: numbered(`SELECT ${streetColumns}, ${numberedColumns} FROM local_addresses p JOIN local_streets s ON s.id = p.street_id AND s.country = p.country
                CROSS JOIN LATERAL (SELECT * FROM local_addresses a WHERE a.street_id = s.id AND a.country = s.country AND a.hn_key = ? ORDER BY a.id LIMIT ${NUMBERED_PER_STREET}) a
                WHERE p.pc_key = ? AND p.hn_key = ? AND s.tsv @@ CAST(? AS tsquery) AND s.n > 0${country === undefined ? '' : ' AND p.country = ? AND s.country = ?'}
                ORDER BY s.id, a.id LIMIT ${sqlLimit(limit * NUMBERED_PER_STREET)}`),
          values: [hnKey, inPostcode, hnKey, tsQuery(terms), ...(country === undefined ? [] : [country, country])],
        });
        return withNumbers(res.rows, NUMBERED_PER_STREET).slice(0, limit);
      }
      // Unnamed, so planned for its own tsquery every time: the right plan depends on how many
      // streets it matches (a town's word: the GIN index; `h:*` or a name in thousands of towns:
      // read streets until the LIMIT is met). A named statement goes generic after five runs,
      // and the generic plan built the bitmap of all 55,000 `h:*` streets: 130 ms at 270k streets.
      // The country as a plain equality (not `? IS NULL OR …`), so the plan reads its partition only.
      const match = `SELECT ${streetColumns} FROM local_streets s
              WHERE s.tsv @@ CAST(? AS tsquery) AND s.n > 0${country === undefined ? '' : ' AND s.country = ?'} LIMIT ${sqlLimit(limit)}`;
      const args = country === undefined ? [tsQuery(terms)] : [tsQuery(terms), country];
      if (hnKey === undefined) return (await pool.query<StreetRow>({ text: numbered(match), values: args })).rows.map(toStreetHit);
      // With the house number: each matched street's addresses of that number in the same round
      // trip (the street match stays materialized, planned as it is alone).
      const res = await pool.query<NumberedRow>({
        text: numbered(`WITH m AS MATERIALIZED (${match})
              SELECT m.*, a.id AS a_id, a.hn, a.hn_key, a.postcode AS a_postcode, a.lat AS a_lat, a.lng AS a_lng FROM m
              LEFT JOIN LATERAL (SELECT * FROM local_addresses a WHERE a.street_id = m.id AND a.country = m.country AND a.hn_key = ? ORDER BY a.id LIMIT ${NUMBERED_PER_STREET}) a ON true`),
        values: [...args, hnKey],
      });
      return withNumbers(res.rows);
    },
    async addressesOnStreets(streetIds, hn, limit) {
      if (streetIds.length === 0) return [];
      return (await all<AddressRow>(addressesOnStreetsQuery('local_', streetIds, hn, limit))).map(toAddressHit);
    },
    async addressesByPostcode(pc, hn, country, limit) {
      return (await all<AddressRow>(addressesByPostcodeQuery('local_', pc, hn, country, limit))).map(toAddressHit);
    },
    async knownPostcodes(keys, country) {
      const hits = await Promise.all(keys.map(async (k) => ((await postcodeExists(k, false, country)) ? k : undefined)));
      return new Set(hits.filter((k): k is string => k !== undefined));
    },
    async hasPostcodePrefix(prefix, country) {
      return postcodeExists(prefix, true, country);
    },
    async close() {
      await Promise.all([pool.end(), pool === primary ? undefined : primary.end()]);
    },
  };
}
