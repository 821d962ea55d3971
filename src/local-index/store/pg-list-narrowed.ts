import { NARROWED_PREFETCH_LIMIT, READING_WORDS, TYPED_TERM } from './pg-search-function.js';
import { narrowedStreetsSql } from './pg-street-queries.js';

/**
 * A list's narrowed searches (a whole number in a known postcode, a country, no word being typed,
 * no numbers after them: what nearly every row of a customer list expects) set-based, in one
 * statement for the chunk, instead of one `addressd_local_search` call each. A call costs the
 * server ~280 µs of CPU a row, most of it starting the executor for each of the function's
 * statements; set-based, the chunk's searches cost ~100 µs a row (117 searches: 11.5-13.5 ms
 * against 32.8 ms, one backend, nothing else running).
 *
 * The rows are the function's, byte for byte (test/local-index/pg-list-narrowed.test.ts): its
 * readings that exist (a term none of whose readings exists means no search), each term written
 * as the function writes it, the narrowed search as narrowedStreetsSql (its tsquery an init plan
 * of the row: planned on the (postcode, number) index whatever the words), `q` then `s` rows.
 */

/** Whether the element `e.a` (prefetchArgs as listSearchesArgument writes it) is such a search. */
export const SET_BASED = `(e.a->>2 IS NULL AND NOT (e.a->>1)::boolean AND jsonb_typeof(e.a->6) = 'null' AND e.a->>5 IS NOT NULL)`;

/** narrowedStreetsSql with the element's number, postcode and country, and the row's tsquery. */
function narrowed(): string {
  const values = ["tq.a->>3", "tq.a->>4", "tq.a->>3", 'tq.typed', "tq.a->>5", "tq.a->>5"];
  let i = 0;
  return narrowedStreetsSql(true, NARROWED_PREFETCH_LIMIT).replace(/\?/g, () => values[i++]!);
}

/**
 * Rows `('x', j, part, r)` of the set-based searches of the jsonb array `param`, `j` the element's
 * place (0-based), each search's `q` row first, then its `s` rows in the search's order.
 */
export function narrowedOfList(param: string): string {
  return `SELECT 'x', (z.j - 1)::int, z.part, z.r FROM (
  WITH e AS MATERIALIZED (SELECT e.a, e.j FROM jsonb_array_elements(${param}) WITH ORDINALITY AS e (a, j) WHERE ${SET_BASED}),
  rd AS (
    SELECT e.j, t.o AS ti, x.o AS ai, x.value->>0 AS word, (x.value->>1)::boolean AS prefix, (x.value->>2)::boolean AS bound
    FROM e CROSS JOIN LATERAL jsonb_array_elements(e.a->0) WITH ORDINALITY AS t (value, o)
    CROSS JOIN LATERAL jsonb_array_elements(t.value) WITH ORDINALITY AS x (value, o)),
  k AS (
    SELECT rd.j, rd.ti, rd.ai, rd.word, rd.prefix, rd.bound, c.words FROM rd CROSS JOIN LATERAL (
      ${READING_WORDS}) c
    WHERE c.words IS NOT NULL),
  terms AS (
    SELECT k.j, k.ti,
      ${TYPED_TERM} AS typed
    FROM k GROUP BY k.j, k.ti),
  tq AS (
    SELECT e.j, e.a, string_agg(terms.typed, ' & ' ORDER BY terms.ti) AS typed
    FROM e JOIN terms ON terms.j = e.j GROUP BY e.j, e.a HAVING count(*) = jsonb_array_length(e.a->0))
  SELECT tq.j, 'q' AS part, jsonb_build_array(tq.typed) AS r, 0::bigint AS o FROM tq
  UNION ALL
  SELECT tq.j, 's', to_jsonb(y) - 'o', y.o FROM tq CROSS JOIN LATERAL (SELECT row_number() OVER () AS o, m.* FROM (${narrowed()}) m) y
) z ORDER BY z.j, z.o`;
}
