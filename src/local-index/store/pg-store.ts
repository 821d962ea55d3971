import { LRUCache } from 'lru-cache';
import pg from 'pg';
import { createPgPool, DEFAULT_CONNECT_TIMEOUT_MS, type PoolErrorHandler } from '../../store/db/pg-pool.js';
import { isTypoOf, mayHaveTypo } from '../fuzzy.js';
import { beginPgImport } from './pg-import.js';
import { COUNTRY_STATE_COLUMNS, toSnapshot } from './country-state.js';
import { applyPgSchema, ensurePartitions, ident, INDEX_CHANNEL } from './pg-schema.js';
import { postcodeAreasQuery, addressesByPostcodeQuery, addressesOnStreetsQuery, nearArgs, numberedColumns, postcodeAbsentQuery, sqlLimit, streetColumns, type Query } from './queries.js';
import { toAddressHit, toStreetHit, tsQuery, withNumbers, type AddressRow, type NumberedRow, type StreetRow } from './rows.js';
import { PostcodeCache } from './postcode-cache.js';
import { pgSampleAddress } from './sample-address.js';
import { pgNearest } from './pg-spatial.js';
import { narrowedStreetsSql, numberedStreetsSql, postcodeStreetsSql, streetsEachSql, wordStreetsSql } from './pg-street-queries.js';
import { PREFETCH_ARG_TYPES, Prefetched, prefetchArgs, prefetchedRows, prefetchKey, searchKeys } from './pg-prefetch.js';
import { listSearchesArgument, searchesOfList } from './pg-list-searches.js';
import { StreetMatches, type MatchRow } from './pg-street-matches.js';
import {
  MAX_COMPLETIONS,
  NUMBERED_PER_STREET,
  PREFIX_END,
  guessedAlternatives,
  guessedAnswers,
  typosWanted,
  type CountryState,
  type IndexSnapshot,
  type IndexStore,
  type LookUpInput,
  type LookUpResult,
  type StreetHit,
  type StreetPrefetch,
  type WordLookUp,
  type WordQuery,
  type WordResolution,
} from './store.js';

/** Look-ups of a list sent in one statement at most (`lookUpAll`): about 40 parameters each. */
const LOOK_UPS_AT_ONCE = 250;

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
 * millisecond, and compiling one whose estimate crosses the JIT threshold takes tens. No
 * parallel workers either: starting one costs 3-5 ms, and a look-up's estimate can be far off
 * (the partitioned parents carry no statistics, so a join of addresses to streets at 10M was
 * estimated at 53,609 rows for 27), which made a 0.3 ms postcode look-up a 5 ms parallel one.
 */
export function withSessionOptions(databaseUrl: string, schema: string | undefined): string {
  const url = new URL(databaseUrl);
  const options = [
    url.searchParams.get('options') ?? '',
    '-c pg_trgm.similarity_threshold=0.2 -c pg_trgm.word_similarity_threshold=0.4 -c jit=off -c max_parallel_workers_per_gather=0',
    schema ? `-c search_path=${ident(schema).replace(/ /g, '\\ ')},public` : '',
  ];
  url.searchParams.set('options', options.filter(Boolean).join(' '));
  return url.toString();
}

/** `list` filled up with `filler` to a multiple of `step` (an empty list stays empty). */
function padTo<T, F>(list: T[], step: number, filler: F): (T | F)[] {
  return [...list, ...Array.from({ length: (step - (list.length % step)) % step }, () => filler)];
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
  /**
   * Called when another process's import commits (LISTEN on the primary): a server passes its
   * refresh here, so its cache keys move on at once. Unset: no listening connection (a one-shot command).
   */
  onChange?: (() => void) | undefined;
}

/** A search of a word no index holds, run on each kept connection at open (see openPgStore). */
export const WARM_SEARCH = `SELECT count(*) FROM addressd_local_search('[[["_", false, false]]]'::jsonb, false, NULL, NULL, NULL, NULL, NULL, 8, NULL)`;

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
  // Each kept connection compiles the search function (plpgsql, once per session: ~25 ms) and
  // plans its first statement now, not on the first searches a user waits for. A word no index
  // holds: the function returns at its first statement.
  const warm = await Promise.all(Array.from({ length: 4 }, () => pool.connect()));
  await Promise.all(warm.map((client) => client.query(WARM_SEARCH).catch(() => undefined)));
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
  // The narrowed search's text per (country given, limit): a validate's one statement once its
  // words are cached, built and numbered once rather than on every row.
  const narrowedTexts = new Map<string, string>();
  const narrowedText = (withCountry: boolean, limit: number) => {
    const key = `${withCountry}|${limit}`;
    let text = narrowedTexts.get(key);
    if (text === undefined) narrowedTexts.set(key, (text = numbered(narrowedStreetsSql(withCountry, limit))));
    return text;
  };
  // Word and postcode look-ups repeat keystroke after keystroke; they only change with an import.
  // The index polls version() every few seconds, which clears them after another process imported.
  // A word's typo candidates are cached once looked for (`fuzzy` unset: not looked for, see typosWanted).
  const words = new LRUCache<string, { known: boolean; fuzzy?: string[] }>({ max: 50_000 });
  const postcodes = new PostcodeCache();
  // A prefix's words (at most MAX_COMPLETIONS), or false for more: see `bounded`.
  const completions = new LRUCache<string, string[] | false>({ max: 50_000 });
  // Street searches run together with a look-up (LookUpInput.prefetch), waiting for their search.
  const prefetched = new Prefetched();
  // Wide street matches, kept until an import (pg-street-matches.ts).
  const matches = new StreetMatches();
  let seenVersion = -1;
  const invalidate = () => {
    words.clear();
    postcodes.clear();
    completions.clear();
    prefetched.clear();
    matches.clear();
  };
  let snapshot: IndexSnapshot = toSnapshot(-1, [], []);
  /**
   * The version and the country states in one statement, from where searches read (the replica
   * with LOCAL_INDEX_READ_URL, so a lagging replica never has its old data cached under a new
   * generation). The hot path never waits for it: it runs on open, on each NOTIFY an import's
   * commit sends, and on the index's poll every few seconds (which also catches a replica that
   * had not replayed the commit when the notification came, and a dropped listening connection).
   * A statement per request would cost a round trip on every cache hit.
   */
  const readState = async (): Promise<number> => {
    const res = await pool.query<{ version: string; country: string | null; generation: string | null; covered: boolean | null }>(
      `SELECT m.value AS version, c.country, c.generation, c.covered
       FROM local_meta m LEFT JOIN local_country_state c ON true WHERE m.key = 'version'`,
    );
    const v = Number(res.rows[0]?.version ?? 0);
    if (v !== seenVersion) {
      const held = await pool.query<{ country: string }>('SELECT DISTINCT country FROM local_streets WHERE n > 0 ORDER BY country');
      snapshot = toSnapshot(
        v,
        res.rows.filter((r) => r.country !== null) as { country: string; generation: string; covered: boolean }[],
        held.rows.map((r) => r.country),
      );
      invalidate();
      seenVersion = v;
    }
    return v;
  };
  await readState();
  let listener: pg.Client | undefined;
  /** LISTEN needs the primary: a standby delivers no notifications. */
  const listen = async () => {
    if (!options.onChange || listener) return;
    const client = new pg.Client({
      connectionString: withSessionOptions(databaseUrl, schema),
      connectionTimeoutMillis: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
    });
    listener = client;
    // Dropped (a restart, a failover): the poll keeps the state current and listens again.
    const drop = () => {
      if (listener === client) listener = undefined;
    };
    client.on('end', drop);
    // Reported like the pools' dropped connections (logged and counted by the caller's handler).
    client.on('error', (error) => {
      options.onError?.(error);
      drop();
      void client.end().catch(() => undefined);
    });
    client.on('notification', () => options.onChange?.());
    try {
      await client.connect();
      await client.query(`LISTEN ${INDEX_CHANNEL}`);
    } catch {
      if (listener === client) listener = undefined;
      await client.end().catch(() => undefined);
    }
  };
  await listen();
  /**
   * A prefix as the OR of the words it completes to, when they are few (learnt by lookUp, in the
   * same statement). GIN answers a prefix (`hauptstr:*`) by reading the whole posting list of every
   * completion into a bitmap, with no skipping; an OR of whole words is read with GIN's fast scan,
   * which skips through a long posting list (a name in thousands of towns) to the entries of the
   * rare word beside it (the town's). The vocabulary holds every word of every street, so the
   * meaning is the same.
   */
  const bounded = (terms: WordQuery[][]): WordQuery[][] =>
    terms.map((alts) =>
      alts.flatMap((a) => {
        const words = a.prefix ? completions.get(a.word) : undefined;
        return words && words.length > 0 ? words.map((word) => ({ word, prefix: false })) : [a];
      }),
    );
  const wordId = (q: WordQuery) => `${q.prefix ? 'p' : 'e'}|${q.word}`;

  /**
   * Whether these whole postcodes exist: what a list's row mostly asks once its words are cached
   * (each row brings a new postcode). One scalar parameter per key in a VALUES list, not an array:
   * PostgreSQL estimates an array parameter's unnest at 10 rows in the generic plan and at its true
   * length in a custom one, so with arrays it judged the generic plan dearer and re-planned every
   * run (planning cost more than running); with VALUES both see the same rows and it keeps the generic plan.
   */
  const postcodesExist = async (keys: string[], country: string | undefined): Promise<boolean[]> => {
    const padded = padTo(keys, 4, null);
    const values = padded.map((_, i) => `(${i}, $${i + 1}::text)`).join(', ');
    const countryClause = country === undefined ? '' : ` AND a.country = $${padded.length + 1}`;
    const res = await run<{ i: number }>(
      `SELECT p.i FROM (VALUES ${values}) AS p (i, key)
       WHERE EXISTS (SELECT 1 FROM local_addresses a WHERE a.pc_key = p.key${countryClause})`,
      [...padded, ...(country === undefined ? [] : [country])],
    );
    const found = new Set(res.rows.map((r) => r.i));
    return keys.map((_, i) => found.has(i));
  };

  /**
   * Words and postcode candidates in one statement: each word's existence (exact, or as a prefix),
   * typo candidates (pg_trgm) for the words that do not exist and may be typos (the LATERAL runs
   * only for them), and each postcode candidate's existence. Before, three round trips.
   */
  const lookUpFresh = async (words: WordLookUp[], keys: string[], prefixes: string[], country: string | undefined, prefetches: StreetPrefetch[], named = true) => {
    // A prefix's completions are known after this statement when cached, or looked up by it.
    const bound = (prefix: string) => {
      const cached = completions.get(prefix);
      return cached === undefined ? words.some((w) => w.prefix && w.word === prefix) : cached !== false;
    };
    // Readings that lead to the same search run it once (guessedAlternatives).
    const seen = new Set<string>();
    const searches = prefetches.flatMap((p) => {
      const args = prefetchArgs(p, bound);
      const id = JSON.stringify(args);
      if (!args || seen.has(id)) return [];
      seen.add(id);
      return [{ p, args }];
    });
    if (words.length === 0 && prefixes.length === 0 && searches.length === 0) return { words: [], exists: await postcodesExist(keys, country) };
    // Rows as VALUES of scalar parameters, not unnested arrays (see postcodesExist): the generic
    // plan then sees the rows a custom one does, and the named statement stops being re-planned on
    // every run. One text per count of words and of postcodes: a few dozen per connection at most.
    const args: unknown[] = [PREFIX_END];
    const param = (value: unknown, type: string) => `$${args.push(value)}::${type}`;
    const rows = (list: string[], columns: string) => (list.length > 0 ? `VALUES ${list.join(', ')}` : `SELECT ${columns} WHERE false`);
    // Padded with NULL rows (they match nothing) to a few list sizes: each text is a prepared
    // statement on every connection (~200 kB of plan), so their number stays small.
    // `reading`: a reading whose typo candidates are of use (WordLookUp.typos); `typo`: one that
    // may be a typo. Candidates are looked for only where no reading of the same term exists.
    const wordRows = rows(
      padTo(words, 8, null).map((w, i) =>
        w
          ? `(${param(w.word, 'text')}, ${param(w.prefix, 'bool')}, ${param(w.typos && mayHaveTypo(w.word), 'bool')}, ${param(w.typos, 'bool')}, ${param(w.term, 'int')}, ${i + 1})`
          : '(NULL::text, false, false, false, -1, 0)',
      ),
      'NULL::text, NULL::bool, NULL::bool, NULL::bool, 0, 0',
    );
    // Whole postcodes and prefixes apart (not a CASE over a flag): the generic plan would cost the
    // prefix range's probe for every key, and lose to the custom plans that know which is which.
    const keyRows = rows(padTo(keys, 4, null).map((k, i) => (k === null ? '(NULL::text, 0)' : `(${param(k, 'text')}, ${i + 1})`)), 'NULL::text, 0');
    // A prefix's first address in the key's order, not EXISTS: for EXISTS over a range PostgreSQL
    // chose a bitmap scan, which reads every entry of the range before the first row (a postcode
    // being typed, `02`: 207,000 entries, 10-14 ms at 1M addresses, the slowest keystrokes there
    // were); the ordered scan stops at the first (0.04 ms).
    const prefixRows = rows(
      padTo(prefixes, 2, null).map((k, i) => (k === null ? '(NULL::text, 0)' : `(${param(k, 'text')}, ${keys.length + i + 1})`)),
      'NULL::text, 0',
    );
    const countryClause = country === undefined ? '' : ` AND a.country = ${param(country, 'text')}`;
    // The expected street searches in the same statement (pg-search-function.ts): their rows come as `x`, `i` the search's.
    const withSearch = (sql: string) => {
      if (searches.length === 0) return sql;
      if (!named) return `SELECT l.kind, l.i, l.word, NULL::jsonb AS r FROM (${sql}) l UNION ALL ${searchesOfList(param(listSearchesArgument(searches.map((s) => s.args)), 'jsonb'))}`;
      const calls = searches.map(({ args: values }, j) => {
        const at = values.map((value, i) => param(value, PREFETCH_ARG_TYPES[i]!));
        return `SELECT 'x', ${j}, p.part, p.r FROM addressd_local_search(${at.join(', ')}) p`;
      });
      return `SELECT l.kind, l.i, l.word, NULL::jsonb AS r FROM (${sql}) l UNION ALL ${calls.join(' UNION ALL ')}`;
    };
    // A list's many look-ups at once are a text of their own: unnamed, not kept on every connection.
    const exec = named ? run : <T extends pg.QueryResultRow>(text: string, values: unknown[]) => pool.query<T>({ text, values });
    const res = await exec<{ kind: 'w' | 'f' | 'c' | 'p' | 'x'; i: number; word: string | null; r?: unknown }>(
      withSearch(`WITH q AS MATERIALIZED (
         SELECT q.i, q.word, q.prefix, q.typo, q.reading, q.term,
                CASE WHEN q.prefix THEN EXISTS (SELECT 1 FROM local_words w WHERE w.word >= q.word AND w.word < q.word || $1)
                     ELSE EXISTS (SELECT 1 FROM local_words w WHERE w.word = q.word) END AS known
         FROM (${wordRows}) AS q (word, prefix, typo, reading, term, i))
       SELECT 'w' AS kind, q.i, NULL::text AS word FROM q WHERE q.known
       UNION ALL
       SELECT 'f', q.i, c.word FROM q CROSS JOIN LATERAL (
           (SELECT w.word FROM local_words w WHERE NOT q.prefix AND w.word OPERATOR(public.%) q.word
            ORDER BY public.similarity(w.word, q.word) DESC LIMIT 40)
           UNION ALL
           (SELECT w.word FROM local_words w WHERE q.prefix AND q.word OPERATOR(public.<%) w.word
            ORDER BY public.word_similarity(q.word, w.word) DESC LIMIT 40)
         ) c WHERE NOT q.known AND q.typo AND NOT EXISTS (SELECT 1 FROM q o WHERE o.term = q.term AND o.reading AND o.known)
       UNION ALL
       SELECT 'c', q.i, c.word FROM q CROSS JOIN LATERAL (
           SELECT w.word FROM local_words w WHERE w.word >= q.word AND w.word < q.word || $1 ORDER BY w.word LIMIT ${MAX_COMPLETIONS + 1}
         ) c WHERE q.prefix AND q.known
       UNION ALL
       SELECT 'p', p.i, NULL FROM (${keyRows}) AS p (key, i)
       WHERE EXISTS (SELECT 1 FROM local_addresses a WHERE a.pc_key = p.key${countryClause})
       UNION ALL
       SELECT 'p', p.i, NULL FROM (${prefixRows}) AS p (key, i)
       CROSS JOIN LATERAL (SELECT 1 FROM local_addresses a WHERE a.pc_key >= p.key AND a.pc_key < p.key || $1${countryClause} ORDER BY a.pc_key LIMIT 1) x`),
      args,
    );
    // Each search's rows, grouped in one pass (a list's chunk sends up to LOOK_UPS_AT_ONCE searches).
    const rowsOf = new Map<number, { part: string; r: (typeof res.rows)[number]['r'] }[]>();
    for (const r of res.rows) {
      if (r.kind !== 'x') continue;
      const j = Number(r.i);
      let group = rowsOf.get(j);
      if (!group) rowsOf.set(j, (group = []));
      group.push({ part: r.word!, r: r.r });
    }
    searches.forEach(({ p }, j) => prefetched.put(prefetchedRows(p, rowsOf.get(j) ?? [])));
    const known = new Set<number>();
    const fuzzy = new Map<number, string[]>();
    const postcodes = new Set<number>();
    const completed = new Map<number, string[]>();
    for (const r of res.rows) {
      const i = Number(r.i) - 1;
      if (r.kind === 'x') continue;
      if (r.kind === 'w') known.add(i);
      else if (r.kind === 'p') postcodes.add(i);
      else if (r.kind === 'c') completed.set(i, [...(completed.get(i) ?? []), r.word!]);
      else {
        const w = words[i]!;
        if (isTypoOf(w.word, r.word!, w.prefix)) fuzzy.set(i, [...(fuzzy.get(i) ?? []), r.word!].slice(0, 8));
      }
    }
    for (const [i, list] of completed) completions.set(words[i]!.word, list.length <= MAX_COMPLETIONS && list);
    return {
      words: words.map((_, i): WordResolution => ({ known: known.has(i), fuzzy: fuzzy.get(i) ?? [] })),
      exists: [...keys, ...prefixes].map((_, i) => postcodes.has(i)),
    };
  };

  interface Missing {
    todo: WordLookUp[];
    pcTodo: string[];
    prefixTodo: string[];
  }
  /**
   * What of a look-up the caches do not answer (nothing at all, mostly, while typing). A typed
   * word's readings go together: whether one exists decides whether the others' typo candidates
   * are wanted (typosWanted), in the statement as here.
   */
  const missing = ({ words: queries, postcodes: keys, postcodePrefixes, country }: LookUpInput): Missing => {
    const terms = new Map<number, WordLookUp[]>();
    for (const q of queries) terms.set(q.term, [...(terms.get(q.term) ?? []), q]);
    const todo = [...terms.values()].filter((readings) => {
      const hits = readings.map((q) => words.get(wordId(q)));
      if (hits.some((h) => h === undefined)) return true;
      return typosWanted(readings, (i) => hits[i]!.known).some((wanted, i) => wanted && hits[i]!.fuzzy === undefined);
    }).flat();
    return {
      todo,
      pcTodo: keys.filter((k) => postcodes.get(k, false, country) === undefined),
      prefixTodo: postcodePrefixes.filter((k) => postcodes.get(k, true, country) === undefined),
    };
  };
  /** Keeps a fresh look-up's answers in the caches. */
  const remember = ({ todo, pcTodo, prefixTodo }: Missing, country: string | undefined, fresh: Awaited<ReturnType<typeof lookUpFresh>>) => {
    const looked = typosWanted(todo, (i) => fresh.words[i]!.known);
    todo.forEach((q, i) => {
      const fuzzy = looked[i] ? fresh.words[i]!.fuzzy : words.get(wordId(q))?.fuzzy;
      words.set(wordId(q), { known: fresh.words[i]!.known, ...(fuzzy ? { fuzzy } : {}) });
    });
    pcTodo.forEach((k, i) => postcodes.set(k, false, country, fresh.exists[i]!));
    prefixTodo.forEach((k, i) => postcodes.set(k, true, country, fresh.exists[pcTodo.length + i]!));
  };

  /** A look-up's answers from the caches (all of them there: after `remember`). */
  const cachedAnswers = ({ words: queries, postcodes: keys, postcodePrefixes, country }: LookUpInput): LookUpResult => ({
    words: queries.map((q): WordResolution => {
      const r = words.get(wordId(q));
      return { known: r?.known ?? false, fuzzy: r?.fuzzy ?? [] };
    }),
    postcodes: new Set(keys.filter((k) => postcodes.get(k, false, country))),
    postcodePrefixes: postcodePrefixes.map((k) => postcodes.get(k, true, country) ?? false),
  });

  return {
    kind: 'postgres',
    async version() {
      await listen();
      return readState();
    },
    snapshot: () => snapshot,
    async countryStates() {
      const res = await pool.query<CountryState & { addresses: string; generation: string }>(
        `SELECT ${COUNTRY_STATE_COLUMNS}, (SELECT count(*) FROM local_addresses a WHERE a.country = c.country) AS addresses
         FROM local_country_state c ORDER BY country`,
      );
      return res.rows.map((r) => ({ ...r, generation: Number(r.generation), addresses: Number(r.addresses) }));
    },
    async count() {
      return Number((await pool.query<{ n: string }>('SELECT count(*) AS n FROM local_addresses')).rows[0]!.n);
    },
    sampleAddress: (country) => pgSampleAddress(pool, country),
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
          async (countries, deferAddresses) => {
            const ddl = await primary.connect();
            try {
              await ensurePartitions(ddl, countries, deferAddresses);
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
    async lookUp(input) {
      const { country, prefetch } = input;
      const need = missing(input);
      const fetched = need.todo.length + need.pcTodo.length + need.prefixTodo.length > 0;
      if (fetched) {
        // The expected search rides along with a look-up that goes to the database anyway, planned
        // on the common answers, and on the other likely ones where the numbers leave the postcode open.
        const expected = prefetch ? [guessedAnswers(input), ...guessedAlternatives(input)].flatMap((guess) => prefetch(guess) ?? []) : [];
        remember(need, country, await lookUpFresh(need.todo, need.pcTodo, need.prefixTodo, country, expected));
      }
      const answers = cachedAnswers(input);
      // All cached: a street search with the house numbers of its streets after it (two statements)
      // is sent now as one, for the plan these answers give; not when its match is kept (only the
      // numbers are then asked, alone).
      const expected = fetched ? undefined : prefetch?.(answers);
      if (expected?.numbers && !(expected.search.kind === 'each' && searchKeys(expected, (terms) => tsQuery(bounded(terms))).every((key) => matches.has(key)))) {
        await lookUpFresh([], [], [], country, [expected]);
      }
      return answers;
    },
    async lookUpAll(inputs) {
      // Per country (the look-up names it), at most LOOK_UPS_AT_ONCE inputs a statement (its parameters stay few).
      const byCountry = new Map<string | undefined, LookUpInput[]>();
      for (const input of inputs) {
        const group = byCountry.get(input.country);
        if (group) group.push(input);
        else byCountry.set(input.country, [input]);
      }
      for (const [country, group] of byCountry) {
        for (let at = 0; at < group.length; at += LOOK_UPS_AT_ONCE) {
          const chunk = group.slice(at, at + LOOK_UPS_AT_ONCE);
          const need: Missing = { todo: [], pcTodo: [], prefixTodo: [] };
          const expected: StreetPrefetch[] = [];
          let offset = 0;
          for (const input of chunk) {
            const mine = missing(input);
            // Terms numbered apart, so one input's readings never decide another's typo candidates.
            need.todo.push(...mine.todo.map((q) => ({ ...q, term: q.term + offset })));
            offset += Math.max(0, ...input.words.map((q) => q.term + 1));
            need.pcTodo.push(...mine.pcTodo.filter((k) => !need.pcTodo.includes(k)));
            need.prefixTodo.push(...mine.prefixTodo.filter((k) => !need.prefixTodo.includes(k)));
            const search = input.prefetch?.(guessedAnswers(input));
            if (search) expected.push(search);
          }
          if (need.todo.length + need.pcTodo.length + need.prefixTodo.length + expected.length === 0) continue;
          remember(need, country, await lookUpFresh(need.todo, need.pcTodo, need.prefixTodo, country, expected, false));
          // Rows the guess did not fit (a typo's candidates, a postcode that does not exist): their
          // answers are cached now, so the search each will make is known; those not waiting go in
          // one more statement for the chunk, not a round trip each as the rows run.
          const missed = chunk.flatMap((input) => {
            const search = input.prefetch?.(cachedAnswers(input));
            return search && !searchKeys(search, (terms) => tsQuery(bounded(terms))).every((key) => prefetched.has(key)) ? [search] : [];
          });
          if (missed.length > 0) await lookUpFresh([], [], [], country, missed, false);
        }
      }
    },

    async findStreets(terms, country, limit, hnKey, inPostcode, near) {
      if (terms.length === 0) return [];
      if (hnKey !== undefined && inPostcode !== undefined) {
        // The (postcode, number) index names a few addresses; their streets are checked against the
        // words, each joined with its addresses of that number: one round trip, a handful of rows.
        // Country joins and a plain country equality, so the plan reads that country's partitions only.
        // Named: the plan is the (postcode, number) index whatever the values (the tsquery only
        // filters the few streets it names), and planning this join of partitioned tables on every
        // row cost PostgreSQL 0.46 ms of CPU against 0.08 ms for running it (1M addresses).
        const tsq = tsQuery(bounded(terms));
        const ready = prefetched.take<NumberedRow>(prefetchKey.narrowed(tsq, country, limit, hnKey, inPostcode));
        if (ready) return withNumbers(ready, NUMBERED_PER_STREET).slice(0, limit);
        const res = await run<NumberedRow>(
          narrowedText(country !== undefined, limit),
          [hnKey, inPostcode, hnKey, tsq, ...(country === undefined ? [] : [country, country])],
        );
        return withNumbers(res.rows, NUMBERED_PER_STREET).slice(0, limit);
      }
      // Unnamed, so planned for its own tsquery every time (wordStreetsSql).
      const tsq = tsQuery(bounded(terms));
      const args = [tsq, ...(country === undefined ? [] : [country]), ...(near ? nearArgs(near) : [])];
      if (hnKey === undefined) {
        return (await pool.query<StreetRow>({ text: numbered(wordStreetsSql(country !== undefined, limit, !!near)), values: args })).rows.map(toStreetHit);
      }
      const rows =
        prefetched.take<NumberedRow>(prefetchKey.numbered(tsq, country, limit, hnKey, near)) ??
        (await pool.query<NumberedRow>({ text: numbered(numberedStreetsSql(country !== undefined, limit, !!near)), values: [...args, hnKey] })).rows;
      return withNumbers(rows);
    },
    async findStreetsEach(variants, country, limit, near) {
      if (variants.length === 0) return [];
      const live = variants.filter((terms) => terms.length > 0);
      if (live.length === 0) return variants.map(() => []);
      // One statement, one branch per search (streetsEachSql), each planned for its own tsquery
      // (unnamed, as in findStreets).
      const tsqs = variants.map((terms) => (terms.length === 0 ? '' : tsQuery(bounded(terms))));
      const branches = variants.flatMap((terms, v) => (terms.length === 0 ? [] : [v]));
      const key = prefetchKey.each(tsqs, country, limit, near);
      let rows = matches.get(key);
      if (!rows) {
        rows =
          prefetched.take<MatchRow>(key) ??
          (
            await pool.query<MatchRow>({
              text: numbered(streetsEachSql(branches, country !== undefined, limit, !!near)),
              values: branches.flatMap((v) => [tsqs[v], ...(country === undefined ? [] : [country]), ...(near ? nearArgs(near) : [])]),
            })
          ).rows;
        matches.set(key, rows);
      }
      const out: StreetHit[][] = variants.map(() => []);
      for (const r of rows) out[r.v]!.push(toStreetHit(r));
      return out;
    },
    async findStreetsInPostcode(terms, country, limit, pcKey, hnKey) {
      if (terms.length === 0) return [];
      // The postcode's streets (tens) checked against the words; the country as plain equalities
      // (pruning). Unnamed: planned for its own tsquery and postcode, as the wide match is.
      const match = postcodeStreetsSql(country !== undefined, limit);
      const args = [pcKey, tsQuery(bounded(terms)), ...(country === undefined ? [] : [country, country])];
      if (hnKey === undefined) return (await pool.query<StreetRow>({ text: numbered(match), values: args })).rows.map(toStreetHit);
      const res = await pool.query<NumberedRow>({
        text: numbered(`WITH m AS MATERIALIZED (${match})
              SELECT m.*, ${numberedColumns} FROM m
              LEFT JOIN LATERAL (SELECT * FROM local_addresses a WHERE a.street_id = m.id AND a.country = m.country AND a.hn_key = ? ORDER BY a.id LIMIT ${NUMBERED_PER_STREET}) a ON true
              ORDER BY m.id, a.id`),
        values: [...args, hnKey],
      });
      return withNumbers(res.rows);
    },
    async addressesOnStreets(streetIds, hn, limit) {
      if (streetIds.length === 0) return [];
      const rows = prefetched.take<AddressRow>(prefetchKey.numbers(streetIds, hn), limit) ?? (await all<AddressRow>(addressesOnStreetsQuery('local_', streetIds, hn, limit)));
      return rows.map(toAddressHit);
    },
    async postcodeAreas(pc, country, limit) {
      const rows = await all<{ pc_key: string; postcode: string | null; country: string; city: string | null; state: string | null; lat: number; lng: number; n: number | string }>(
        postcodeAreasQuery('local_', pc, country, limit),
      );
      return rows.map((r) => ({ postcode: r.postcode ?? r.pc_key, country: r.country, city: r.city, state: r.state, lat: Number(r.lat), lng: Number(r.lng), n: Number(r.n) }));
    },
    async streetsNotInPostcode(streetIds, pcKey, country) {
      if (streetIds.length === 0) return [];
      return (await all<{ id: string }>(postcodeAbsentQuery('local_', streetIds, pcKey, country))).map((r) => Number(r.id));
    },
    async addressesByPostcode(pc, hn, country, limit) {
      const rows = prefetched.take<AddressRow>(prefetchKey.byPostcode(pc, hn, country, limit)) ?? (await all<AddressRow>(addressesByPostcodeQuery('local_', pc, hn, country, limit)));
      return rows.map(toAddressHit);
    },
    nearest: (center, radiusM, limit) => pgNearest(async (text, values) => (await run(text, values)).rows, center, radiusM, limit),
    async close() {
      const l = listener;
      listener = undefined;
      await Promise.all([pool.end(), pool === primary ? undefined : primary.end(), l?.end().catch(() => undefined)]);
    },
  };
}
