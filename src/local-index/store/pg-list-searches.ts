import { narrowedOfList, SET_BASED } from './pg-list-narrowed.js';
import { PREFETCH_ARG_TYPES } from './pg-prefetch.js';

/**
 * A list's expected searches (`lookUpAll`: up to 250 calls of `addressd_local_search` in one
 * statement) as ONE jsonb parameter, the calls made by a LATERAL over its elements. Written as a
 * UNION ALL of one call per search with nine parameters each, the statement's text and parameters
 * grew with the chunk, and PostgreSQL spent 5 ms parsing and 20 ms planning every chunk's statement
 * (a quarter of the server's time on a 40,000-row list) for 46 ms of running it; this text is the
 * same for every chunk and plans as one function scan.
 */

/** The searches' arguments (prefetchArgs, in PREFETCH_ARG_TYPES order) as the jsonb array the SQL below reads. */
export function listSearchesArgument(searches: unknown[][]): string {
  // jsonb-typed arguments travel as JSON text (prefetchArgs): embedded as values, not strings.
  const jsonb = PREFETCH_ARG_TYPES.map((t) => t === 'jsonb');
  return JSON.stringify(searches.map((args) => args.map((v, i) => (jsonb[i] && typeof v === 'string' ? (JSON.parse(v) as unknown) : v))));
}

/** One argument of the function read from the element `e.a` (a JSON null is SQL NULL, as a bound NULL is). */
function argument(i: number, type: string): string {
  if (type === 'jsonb') return `nullif(e.a->${i}, 'null'::jsonb)`;
  return type === 'text' ? `e.a->>${i}` : `(e.a->>${i})::${type}`;
}

/**
 * Rows `('x', j, part, r)` of every search, `j` its place in the array (0-based), each search's rows
 * in the function's order (a nested loop over the elements, the function scanned for each in turn).
 * `param`: the placeholder of the jsonb array.
 */
export function searchesOfList(param: string): string {
  const args = PREFETCH_ARG_TYPES.map((t, i) => argument(i, t)).join(', ');
  // The narrowed searches of a list's rows set-based (pg-list-narrowed.ts), the others through the function.
  return `SELECT 'x', (e.j - 1)::int, p.part, p.r FROM jsonb_array_elements(${param}) WITH ORDINALITY AS e (a, j) CROSS JOIN LATERAL addressd_local_search(${args}) p WHERE NOT ${SET_BASED}
    UNION ALL (${narrowedOfList(param)})`;
}
