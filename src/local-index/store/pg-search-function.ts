/**
 * `addressd_local_search`: the street search a query's reading is expected to lead to, run in the
 * same statement as the reading's word and postcode look-up (`lookUp`), so a fresh query waits for
 * one round trip instead of two or three (issue 30). The caller guesses the plan before knowing
 * which words exist; the function keeps of each term the readings that do exist (as the plan
 * will), searches a prefix of few completions as their OR (as `bounded` does), writes each search's
 * tsquery exactly as `tsQuery` does, and runs the search SQL the store would send with those
 * tsqueries in place of `__tsq<i>__`. The store keeps the rows under the tsqueries the function
 * reports: a later search with the very same arguments is answered from them; any other (the guess
 * was wrong: a typo, a number that is a street word) goes to the database as before.
 *
 * The searches run through EXECUTE, planned for their own values every time (a one-shot plan), so
 * the generic-plan trap of the street match (docs/sizing.md: `h:*` as a generic plan read every
 * match, 130 ms) cannot happen; the calling statement itself is named and trivial to plan.
 *
 * Arguments: the terms (`[[[word, prefix], …], …]`), whether a word is being typed (the search is
 * then its exact form first, then as typed: `forms` in search/streets.ts), the search SQL, and the
 * house-number SQL (`__ids__` for the matched streets' ids, run when they are at most `max_streets`).
 * Rows: `q` (the tsqueries, in order), `s` (the search's rows), `i` (the street ids the `a` rows
 * are of), `a` (the house-number SQL's rows), each as jsonb.
 */
export const PG_SEARCH_FUNCTION_VERSION = 'addressd_local_search v1';

export const PG_SEARCH_FUNCTION = `
CREATE OR REPLACE FUNCTION addressd_local_search(p_terms jsonb, p_forms boolean, p_search text, p_numbers text, p_max_streets integer)
RETURNS TABLE (part text, r jsonb) LANGUAGE plpgsql VOLATILE AS $fn$
-- ${PG_SEARCH_FUNCTION_VERSION}
DECLARE
  v_end CONSTANT text := chr(1114111);
  v_kept jsonb := '[]';
  v_alts jsonb;
  v_term jsonb;
  v_alt jsonb;
  v_word text;
  v_variants jsonb;
  v_variant jsonb;
  v_completions text[];
  v_ors text[];
  v_ands text[];
  v_queries text[] := '{}';
  v_sql text := p_search;
  v_rows jsonb[];
  v_ids bigint[];
BEGIN
  -- Each term keeps the readings that exist; a term with none means the guess was wrong: no search.
  FOR v_term IN SELECT e.value FROM jsonb_array_elements(p_terms) WITH ORDINALITY AS e (value, o) ORDER BY e.o LOOP
    v_alts := '[]';
    FOR v_alt IN SELECT e.value FROM jsonb_array_elements(v_term) WITH ORDINALITY AS e (value, o) ORDER BY e.o LOOP
      v_word := v_alt->>0;
      IF (v_alt->>1)::boolean THEN
        IF EXISTS (SELECT 1 FROM local_words w WHERE w.word >= v_word AND w.word < v_word || v_end) THEN v_alts := v_alts || jsonb_build_array(v_alt); END IF;
      ELSIF EXISTS (SELECT 1 FROM local_words w WHERE w.word = v_word) THEN
        v_alts := v_alts || jsonb_build_array(v_alt);
      END IF;
    END LOOP;
    IF jsonb_array_length(v_alts) = 0 THEN RETURN; END IF;
    v_kept := v_kept || jsonb_build_array(v_alts);
  END LOOP;
  IF jsonb_array_length(v_kept) = 0 THEN RETURN; END IF;
  IF p_forms THEN
    v_variants := jsonb_build_array(
      (v_kept - (-1)) || jsonb_build_array((SELECT jsonb_agg(jsonb_build_array(e.value->0, false) ORDER BY e.o) FROM jsonb_array_elements(v_kept->-1) WITH ORDINALITY AS e (value, o))),
      v_kept);
  ELSE
    v_variants := jsonb_build_array(v_kept);
  END IF;
  -- Each search's tsquery, as tsQuery(bounded(terms)) writes it.
  FOR v_variant IN SELECT e.value FROM jsonb_array_elements(v_variants) WITH ORDINALITY AS e (value, o) ORDER BY e.o LOOP
    v_ands := '{}';
    FOR v_term IN SELECT e.value FROM jsonb_array_elements(v_variant) WITH ORDINALITY AS e (value, o) ORDER BY e.o LOOP
      v_ors := '{}';
      FOR v_alt IN SELECT e.value FROM jsonb_array_elements(v_term) WITH ORDINALITY AS e (value, o) ORDER BY e.o LOOP
        v_word := v_alt->>0;
        v_completions := NULL;
        IF (v_alt->>1)::boolean THEN
          SELECT array_agg(c.word ORDER BY c.word) INTO v_completions
          FROM (SELECT w.word FROM local_words w WHERE w.word >= v_word AND w.word < v_word || v_end ORDER BY w.word LIMIT 17) c;
        END IF;
        IF v_completions IS NOT NULL AND cardinality(v_completions) <= 16 THEN
          v_ors := v_ors || ARRAY(SELECT '''' || replace(replace(c.word, '''', ''), '\\', '') || '''' FROM unnest(v_completions) WITH ORDINALITY AS c (word, o) ORDER BY c.o);
        ELSE
          v_ors := v_ors || ('''' || replace(replace(v_word, '''', ''), '\\', '') || '''' || CASE WHEN (v_alt->>1)::boolean THEN ':*' ELSE '' END);
        END IF;
      END LOOP;
      v_ands := v_ands || ('(' || array_to_string(v_ors, ' | ') || ')');
    END LOOP;
    v_sql := replace(v_sql, '__tsq' || cardinality(v_queries) || '__', quote_literal(array_to_string(v_ands, ' & ')));
    v_queries := v_queries || array_to_string(v_ands, ' & ');
  END LOOP;
  RETURN QUERY SELECT 'q'::text, to_jsonb(v_queries);
  EXECUTE 'SELECT array_agg(to_jsonb(x)) FROM (' || v_sql || ') x' INTO v_rows;
  RETURN QUERY SELECT 's'::text, e.value FROM unnest(v_rows) WITH ORDINALITY AS e (value, o) ORDER BY e.o;
  IF p_numbers IS NULL THEN RETURN; END IF;
  SELECT array_agg(DISTINCT (e.value->>'id')::bigint ORDER BY (e.value->>'id')::bigint) INTO v_ids FROM unnest(v_rows) AS e (value);
  IF v_ids IS NULL OR cardinality(v_ids) > p_max_streets THEN RETURN; END IF;
  RETURN QUERY SELECT 'i'::text, to_jsonb(v_ids);
  RETURN QUERY EXECUTE 'SELECT ''a''::text, to_jsonb(x) FROM (' || replace(p_numbers, '__ids__', array_to_string(v_ids, ', ')) || ') x';
END
$fn$;`;
