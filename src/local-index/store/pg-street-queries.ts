import { NEAR_SCAN, nearestStreetsSql, numberedColumns, sqlLimit, streetColumns } from './queries.js';
import { NUMBERED_PER_STREET } from './store.js';

/*
 * The PostgreSQL street searches narrowed by a postcode (`?` placeholders, numbered by the store).
 * Their matches are ordered by `+s.id`, an expression no index yields. Ordered by the bare `s.id`
 * with a LIMIT, PostgreSQL merge-joined the few addresses of the postcode with the streets walked
 * in id order, filtering each street by the words, betting on matches spread evenly: for a name in
 * thousands of towns at 30M addresses (`Bergstraße 4, 30108`) it read 736,000 streets, 150-320 ms,
 * where the postcode index names a dozen addresses in 0.4 ms. The matches are few; sorting them is nothing.
 */

/**
 * Streets of the words with an address of that number in that postcode, each with its addresses of
 * that number. Args: hnKey, pcKey, hnKey, tsquery[, country, country].
 *
 * The tsquery is read through a sub-select (an init plan), so no plan sees its value: it only
 * filters the few streets the (postcode, number) index names. Seen as a constant, it made every
 * custom plan cheaper than the generic one (the generic plan costs the match at a default
 * selectivity), so PostgreSQL never kept the generic plan of this named statement and planned it
 * on every run: 0.3-0.8 ms of planning for 0.07-0.1 ms of running (300k addresses, each a
 * validate's whole statement once its words are cached). With it the generic plan is kept after
 * the first five runs (the same index drives it).
 */
export function narrowedStreetsSql(withCountry: boolean, limit: number): string {
  return `SELECT ${streetColumns}, ${numberedColumns} FROM local_addresses p JOIN local_streets s ON s.id = p.street_id AND s.country = p.country
          CROSS JOIN LATERAL (SELECT * FROM local_addresses a WHERE a.street_id = s.id AND a.country = s.country AND a.hn_key = ? ORDER BY a.id LIMIT ${NUMBERED_PER_STREET}) a
          WHERE p.pc_key = ? AND p.hn_key = ? AND s.tsv @@ (SELECT CAST(? AS tsquery)) AND s.n > 0${withCountry ? ' AND p.country = ? AND s.country = ?' : ''}
          ORDER BY +s.id, a.id LIMIT ${sqlLimit(limit * NUMBERED_PER_STREET)}`;
}

/** The streets of the words in that postcode. Args: pcKey, tsquery[, country, country]. */
export function postcodeStreetsSql(withCountry: boolean, limit: number): string {
  return `SELECT ${streetColumns} FROM local_street_postcodes sp JOIN local_streets s ON s.id = sp.street_id AND s.country = sp.country
          WHERE sp.pc_key = ? AND s.tsv @@ CAST(? AS tsquery) AND s.n > 0${withCountry ? ' AND sp.country = ? AND s.country = ?' : ''}
          ORDER BY +s.id LIMIT ${sqlLimit(limit)}`;
}

/**
 * Several street searches in one statement (`findStreetsEach`): one branch per search, each planned
 * for its own tsquery and cut at its own LIMIT; the branch number and each row's position within its
 * branch (row_number over the branch as it came) order the result, so every list is exactly what the
 * search returns alone, whatever order the Append runs its branches in. Args per branch: tsquery[, country].
 */
export function streetsEachSql(branches: number[], withCountry: boolean, limit: number, near = false): string {
  return `${branches
    .map((v) => `(SELECT ${v} AS v, row_number() OVER () AS k, m.* FROM (${wordStreetsSql(withCountry, limit, near)}) m)`)
    .join(' UNION ALL ')} ORDER BY v, k`;
}

/**
 * The streets of the words (the wide match). Args: tsquery[, country]. Run unnamed, so planned for
 * its own tsquery every time: the right plan depends on how many streets it matches (a town's word:
 * the GIN index; `h:*` or a name in thousands of towns: read streets until the LIMIT is met). A
 * named statement goes generic after five runs, and the generic plan built the bitmap of all 55,000
 * `h:*` streets: 130 ms at 270k streets. The country as a plain equality (not `? IS NULL OR …`), so
 * the plan reads its partition only. `near`: the `limit` nearest of at most NEAR_SCAN matches
 * (args after the country: `nearArgs`).
 */
export function wordStreetsSql(withCountry: boolean, limit: number, near = false): string {
  const match = `SELECT ${streetColumns} FROM local_streets s
          WHERE s.tsv @@ CAST(? AS tsquery) AND s.n > 0${withCountry ? ' AND s.country = ?' : ''} LIMIT ${sqlLimit(near ? NEAR_SCAN : limit)}`;
  return near ? nearestStreetsSql(match, limit) : match;
}

/**
 * The wide match with each matched street's addresses of one number, in one round trip (the street
 * match stays materialized, planned as it is alone). Args: tsquery[, country], hnKey.
 */
export function numberedStreetsSql(withCountry: boolean, limit: number, near = false): string {
  return `WITH m AS MATERIALIZED (${wordStreetsSql(withCountry, limit, near)})
          SELECT m.*, ${numberedColumns} FROM m
          LEFT JOIN LATERAL (SELECT * FROM local_addresses a WHERE a.street_id = m.id AND a.country = m.country AND a.hn_key = ? ORDER BY a.id LIMIT ${NUMBERED_PER_STREET}) a ON true`;
}
