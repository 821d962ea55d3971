import { createHash } from 'node:crypto';
import { numbersStatements, postcodeNumbersStatements } from './pg-function-numbers.js';
import { rankedStreetIdsSql, SINGLE_WORD_SQL } from './pg-rank-streets.js';
import { narrowedStreetsSql } from './pg-street-queries.js';
import { MAX_COMPLETIONS } from './store.js';

/**
 * `addressd_local_search`: the street search a query's reading is expected to lead to, run in the
 * same statement as the reading's word and postcode look-up (`lookUp`), so a fresh query waits for
 * one round trip instead of two or three (issue 30). The caller guesses the plan before knowing
 * which words exist; the function keeps of each term the readings that do exist (as the plan
 * will), searches a prefix of few completions as their OR (as `bounded` does), writes each
 * search's tsquery exactly as `tsQuery(bounded(terms))` does, and runs the search SQL the store
 * would send with those tsqueries in place of `__tsq<i>__`. The store keeps the rows under the tsqueries the function
 * reports: a later search with the very same arguments is answered from them; any other (the guess
 * was wrong: a typo, a number that is a street word) goes to the database as before.
 *
 * The word searches run through EXECUTE, planned for their own values every time (a one-shot plan),
 * so the generic-plan trap of the street match (docs/sizing.md: `h:*` as a generic plan read every
 * match, 130 ms) cannot happen; the narrowed search keeps its plan, as the named statement does;
 * the calling statement itself is named and trivial to plan. The function's own static statements
 * (reading the terms, the narrowed search, the ranking, the numbers on a few street ids) run on
 * generic plans (`plan_cache_mode`, for the function's run only, one-shot EXECUTEs unaffected):
 * each is driven by a key whatever the values, and left to choose, PostgreSQL re-planned some on
 * every call (their custom plans looked cheaper): 0.3 ms of a warm keystroke's 1.1 ms in the function.
 *
 * Arguments: the terms (`[[[word, prefix, bound], …], …]`: `bound`, whether the store will know a
 * prefix's completions, so search it as their OR when they are few), whether a word is being
 * typed (the search is then its exact form first, then as typed: `forms` in search/streets.ts),
 * the search SQL (null:
 * the narrowed search by number and postcode, static SQL of the function, with the three values
 * after it), the house numbers to fetch on the matched streets when they are at most `max_streets`
 * (pg-function-numbers.ts: the kind of filter, its values, the limit; none when more streets than
 * its `rankUpTo` were found), and the ranking
 * (StreetRanking as jsonb, or null): with it, more than `max_streets` streets are ranked as
 * `rankStreets` ranks them (pg-rank-streets.ts) and the numbers fetched on the top `max_streets`.
 * Rows: `q` (the tsqueries, in order), `s` (the search's rows), `i` (the street ids the `a` rows
 * are of), `a` (the addresses of the numbers), each as jsonb.
 */

/**
 * SQL both the function and the list's set-based search (pg-list-narrowed.ts) read terms with, kept
 * in one place so they cannot drift: a reading's words (`rd`: its word, whether a prefix; a prefix's
 * completions, at most MAX_COMPLETIONS + 1), and a term as the OR of its readings (`k`), a prefix of
 * few completions as their OR, as `tsQuery(bounded(terms))` writes it.
 */
export const READING_WORDS = `SELECT array_agg(x.word ORDER BY x.word) AS words FROM (
        (SELECT w.word FROM local_words w WHERE rd.prefix AND w.word >= rd.word AND w.word < rd.word || chr(1114111) ORDER BY w.word LIMIT ${MAX_COMPLETIONS + 1})
        UNION ALL
        (SELECT w.word FROM local_words w WHERE NOT rd.prefix AND w.word = rd.word)) x`;
export const TYPED_TERM = `'(' || string_agg(CASE
        WHEN k.prefix AND k.bound AND cardinality(k.words) <= ${MAX_COMPLETIONS} THEN (SELECT string_agg('''' || replace(replace(u.w, '''', ''), '\\', '') || '''', ' | ' ORDER BY u.o) FROM unnest(k.words) WITH ORDINALITY AS u (w, o))
        ELSE '''' || replace(replace(k.word, '''', ''), '\\', '') || '''' || CASE WHEN k.prefix THEN ':*' ELSE '' END END, ' | ' ORDER BY k.ai) || ')'`;

/** The limit of a narrowed search the function runs (the search's pool of streets). */
export const NARROWED_PREFETCH_LIMIT = 60;

/** narrowedStreetsSql as static SQL of the function, its arguments the function's variables. */
function narrowed(withCountry: boolean): string {
  const names = ['p_hn', 'p_pc', 'p_hn', 'v_tsq', 'p_country', 'p_country'];
  let i = 0;
  return narrowedStreetsSql(withCountry, NARROWED_PREFETCH_LIMIT).replace(/\?/g, () => names[i++]!);
}

const FUNCTION_BODY = `
CREATE OR REPLACE FUNCTION addressd_local_search(p_terms jsonb, p_forms boolean, p_search text, p_hn text, p_pc text, p_country text, p_numbers jsonb, p_max_streets integer, p_rank jsonb)
RETURNS TABLE (part text, r jsonb) LANGUAGE plpgsql VOLATILE SET plan_cache_mode = force_generic_plan AS $fn$
-- __version__
DECLARE
  v_ok boolean;
  v_typed text;
  v_exact text;
  v_queries text[];
  v_sql text := p_search;
  v_rows jsonb[];
  v_found jsonb[] := '{}';
  v_ids bigint[];
  v_tsq text;
  v_alts jsonb;
BEGIN
  -- In one statement: the readings that exist, a prefix with its completions (more than 16: kept
  -- as a prefix), each term as the OR of its readings, the terms ANDed: the search as typed and,
  -- for a word being typed, with that last word whole. A term with no reading that exists means
  -- the guess was wrong: no search.
  WITH rd AS (
    SELECT t.o AS ti, a.o AS ai, a.value->>0 AS word, (a.value->>1)::boolean AS prefix, (a.value->>2)::boolean AS bound
    FROM jsonb_array_elements(p_terms) WITH ORDINALITY AS t (value, o)
    CROSS JOIN LATERAL jsonb_array_elements(t.value) WITH ORDINALITY AS a (value, o)),
  k AS (
    SELECT rd.ti, rd.ai, rd.word, rd.prefix, rd.bound, c.words FROM rd CROSS JOIN LATERAL (
      ${READING_WORDS}) c
    WHERE c.words IS NOT NULL),
  terms AS (
    SELECT k.ti,
      ${TYPED_TERM} AS typed,
      '(' || string_agg('''' || replace(replace(k.word, '''', ''), '\\', '') || '''', ' | ' ORDER BY k.ai) || ')' AS whole
    FROM k GROUP BY k.ti)
  SELECT count(*) = jsonb_array_length(p_terms) AND count(*) > 0,
    string_agg(terms.typed, ' & ' ORDER BY terms.ti),
    string_agg(CASE WHEN terms.ti = jsonb_array_length(p_terms) THEN terms.whole ELSE terms.typed END, ' & ' ORDER BY terms.ti),
    (SELECT jsonb_agg(jsonb_build_array(k.ti, k.word, k.prefix)) FROM k)
  INTO v_ok, v_typed, v_exact, v_alts FROM terms;
  IF NOT v_ok THEN RETURN; END IF;
  v_queries := CASE WHEN p_forms THEN ARRAY[v_exact, v_typed] ELSE ARRAY[v_typed] END;
  FOR i IN 1 .. cardinality(v_queries) LOOP
    v_sql := replace(v_sql, '__tsq' || (i - 1) || '__', quote_literal(v_queries[i]));
  END LOOP;
  RETURN QUERY SELECT 'q'::text, to_jsonb(v_queries);
  IF p_search IS NULL THEN
    -- Narrowed by number and postcode: static SQL, so its plan is kept for the session (it may go
    -- generic: the (postcode, number) index drives it whatever the values, and planning this join
    -- of partitioned tables cost five times running it). Once per form of a word being typed
    -- (a town after the postcode), each form's rows as their own part: s, then s1.
    FOR f IN 1 .. cardinality(v_queries) LOOP
      v_tsq := v_queries[f];
      IF p_country IS NULL THEN
        SELECT array_agg(to_jsonb(x)) INTO v_rows FROM (${narrowed(false)}) x;
      ELSE
        SELECT array_agg(to_jsonb(x)) INTO v_rows FROM (${narrowed(true)}) x;
      END IF;
      RETURN QUERY SELECT CASE WHEN f = 1 THEN 's' ELSE 's' || (f - 1) END, e.value FROM unnest(v_rows) WITH ORDINALITY AS e (value, o) ORDER BY e.o;
      v_found := v_found || coalesce(v_rows, '{}');
    END LOOP;
    -- Autocomplete's next look-ups (numberedOn) of the streets found, all of them when they are
    -- few enough to be the ones it ranks first: their addresses of the number, and the postcode's.
    IF p_numbers IS NULL THEN RETURN; END IF;
    SELECT array_agg(DISTINCT (e.value->>'id')::bigint ORDER BY (e.value->>'id')::bigint) INTO v_ids FROM unnest(v_found) AS e (value);
    IF v_ids IS NULL THEN RETURN; END IF;
    IF cardinality(v_ids) <= p_max_streets THEN
      RETURN QUERY SELECT 'i'::text, to_jsonb(v_ids);
      ${numbersStatements()}
    END IF;
    IF (p_numbers->>'postcode')::boolean THEN
      ${postcodeNumbersStatements()}
    END IF;
    RETURN;
  END IF;
  EXECUTE 'SELECT array_agg(to_jsonb(x)) FROM (' || v_sql || ') x' INTO v_rows;
  RETURN QUERY SELECT 's'::text, e.value FROM unnest(v_rows) WITH ORDINALITY AS e (value, o) ORDER BY e.o;
  IF p_numbers IS NULL THEN RETURN; END IF;
  SELECT array_agg(DISTINCT (e.value->>'id')::bigint ORDER BY (e.value->>'id')::bigint) INTO v_ids FROM unnest(v_rows) AS e (value);
  IF v_ids IS NULL THEN RETURN; END IF;
  -- More streets than the caller asks numbers for at all (a fill-up after the streets offered).
  IF cardinality(v_ids) > coalesce((p_numbers->>'rankUpTo')::integer, cardinality(v_ids)) THEN RETURN; END IF;
  IF cardinality(v_ids) > p_max_streets THEN
    -- More streets than the caller ranks (a name in many towns): the top ones, as it ranks them
    -- (the readings that exist are the plan's), or none where that cannot be told here.
    IF p_rank IS NULL THEN RETURN; END IF;
    IF ${SINGLE_WORD_SQL} THEN
      ${rankedStreetIdsSql(true, false)}
      INTO v_ids;
    ELSE
      ${rankedStreetIdsSql(false, false)}
      INTO v_ids;
    END IF;
    IF v_ids IS NULL THEN
      ${rankedStreetIdsSql(false, true)}
      INTO v_ids;
    END IF;
    IF v_ids IS NULL THEN RETURN; END IF;
  END IF;
  RETURN QUERY SELECT 'i'::text, to_jsonb(v_ids);
  ${numbersStatements()}
END
$fn$;`;

/**
 * The function's version: a digest of its text, so any change of the SQL it is built from
 * (narrowedStreetsSql, the columns, MAX_COMPLETIONS) replaces it on an existing index (isCurrent
 * in pg-schema.ts looks for this text in the installed function).
 */
export const PG_SEARCH_FUNCTION_VERSION = `addressd_local_search ${createHash('sha256').update(FUNCTION_BODY).digest('hex').slice(0, 16)}`;
/**
 * An earlier signature's function stays beside it (CREATE OR REPLACE makes an overload): instances
 * of the earlier version still running during a rolling upgrade keep calling theirs.
 */
export const PG_SEARCH_FUNCTION = FUNCTION_BODY.replace('__version__', PG_SEARCH_FUNCTION_VERSION);
