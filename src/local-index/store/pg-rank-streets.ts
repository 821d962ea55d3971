import { tokens } from '../text.js';
import { HALF_KM, NEAR_BOOST } from '../search/near.js';

/*
 * `rankStreets` (search/streets.ts, scoring in search/score.ts) as SQL, for `addressd_local_search`:
 * a keystroke whose street name is in more towns than autocomplete ranks (`Hauptstraße 1`, no town)
 * gets the number's addresses on the top streets in the same statement as the streets. The ids it
 * picks are part of the key the rows wait under (prefetchKey.numbers), so a ranking that differs
 * from the JavaScript one only costs the statement it would have saved, never an answer.
 *
 * Mirrored exactly: each term's best word in the street's pool (its name's words, then its town's,
 * first best word wins), a word matching a reading whole (1) or as a prefix (0.9 + 0.1 × the
 * share of the word typed), × 0.85 through a typo; the mean over all terms, summed in term order
 * (float8, as JavaScript's doubles); × (0.8 + 0.2 × coverage), × 0.5 when no name word is covered;
 * then the street's size, its name's length (UTF-16 units, as `String.length`), the search's order.
 *
 * Coverage is the share of the name's written (`tokens(street)`) or expanded (`tokens(normalizeStreet)`)
 * words that are covered. The stored `street_words` is both, deduplicated: a street all of whose
 * words are covered has coverage 1, one with none 0. Between the two (`Alte Hauptstraße` for
 * `Hauptstraße`), the expanded words are those of the street's key (`skey`: country|expanded|town),
 * and the written ones are folded here character by character with a table made by `tokens` itself;
 * the two must give `street_words` back, else (a character the table lacks, another key) the
 * function does not rank and the caller asks for the addresses as before. (Both are the import's:
 * a street imported before the abbreviation tables changed may rank otherwise in JavaScript, which
 * again only costs the statement.)
 */

/**
 * Characters the fold table covers: printable ASCII, Latin-1 and Latin Extended A/B, combining
 * marks, Latin Extended Additional, general punctuation (`’` in `Rue de l’Église`, dashes).
 */
const RANGES: [number, number][] = [
  [0x20, 0x7e],
  [0xa0, 0x24f],
  [0x300, 0x36f],
  [0x1e00, 0x1eff],
  [0x2000, 0x206f],
];

/**
 * Each character as `tokens` sees it inside a word: `tokens('a' + c + 'b')` joined by spaces, less
 * the `a` and `b`: a letter's folded form (`ß` → `ss`, `É` → `e`), `''` for what it drops (an
 * apostrophe, a combining mark), `' '` for a separator. Case, folds and decomposition act on each
 * character alone in these ranges, so a name folds as its characters do.
 */
function foldTable(): Record<string, string> {
  const table: Record<string, string> = {};
  for (const [from, to] of RANGES) {
    for (let code = from; code <= to; code++) {
      const c = String.fromCharCode(code);
      const folded = tokens(`a${c}b`).join(' ');
      // A character whose fold reached beyond itself (none in these ranges) would stay out: its names are not ranked.
      if (folded.startsWith('a') && folded.endsWith('b')) table[c] = folded.slice(1, -1);
    }
  }
  return table;
}

/**
 * `String.length` of a text: its characters, plus one for each outside the Basic Multilingual Plane
 * (two UTF-16 units; UTF-8 spends four bytes on those alone: a text less than three bytes longer than
 * its characters has none).
 */
const utf16Length = (x: string) =>
  `(length(${x}) + CASE WHEN octet_length(${x}) - length(${x}) >= 3 THEN length(regexp_replace(${x}, '[^\\U00010000-\\U0010FFFF]', '', 'g')) ELSE 0 END)`;

/** The written words of a street name (`tokens`), or NULL when it has a character the table lacks. */
export function writtenWords(street: string): string {
  const fold = `'${JSON.stringify(foldTable()).replace(/'/g, "''")}'::jsonb`;
  return `(SELECT CASE WHEN bool_and(t.fold ? z.ch) THEN array_remove(string_to_array(string_agg(t.fold ->> z.ch, '' ORDER BY z.o), ' '), '') END
           FROM (SELECT ${fold} AS fold) t, regexp_split_to_table(${street}, '') WITH ORDINALITY AS z (ch, o))`;
}

/**
 * A street's distance in km from the ranking's position (`p_rank->'near'`), as search/near.ts's
 * kmBetween computes it, step for step; NULL without one. The near order is then that of rankStreets:
 * the score raised by nearness, the nearer, the larger (no name length).
 */
const nearKmSql = `CASE WHEN p_rank ? 'near' THEN (SELECT 2::float8 * 6371::float8 * asin(least(1::float8, sqrt(
      y.sl * y.sl + cos(y.alat * y.rad) * cos(y.blat * y.rad) * (y.sg * y.sg))))
    FROM (SELECT z.*, sin(((z.blat - z.alat) * z.rad) / 2::float8) AS sl, sin(((z.blng - z.alng) * z.rad) / 2::float8) AS sg
          FROM (SELECT (p_rank->'near'->>0)::float8 AS alat, (p_rank->'near'->>1)::float8 AS alng,
                       (e.s->>'lat')::float8 AS blat, (e.s->>'lng')::float8 AS blng, pi() / 180::float8 AS rad) z) y) END`;

/** The share of `forms` (with repeats) in `covered`, 0 for none (`share` in scoreStreet). */
const share = (forms: string, covered: string) =>
  `(CASE WHEN cardinality(${forms}) = 0 THEN 0::float8 ELSE (SELECT count(*) FROM unnest(${forms}) f WHERE f = ANY (${covered}))::float8 / cardinality(${forms}) END)`;

/** The pool of a street's words a term may match, in scoring order: its name's, then (free text) its town's. */
const POOL = "CASE WHEN (p_rank->>'structured')::boolean THEN st.u ELSE st.u || st.c END";

/** Each street's terms' scores summed in term order (`total`) and the words they cover (`covered`). */
function matches(single: boolean): string {
  // One term of one whole word (most keystrokes): it scores its typo factor where the pool has the
  // word, and covers that word.
  if (single) {
    return `agg AS (
    SELECT st.id, CASE WHEN h.hit THEN v.typo ELSE 0::float8 END AS total, CASE WHEN h.hit THEN ARRAY[v.word] ELSE '{}'::text[] END AS covered
    FROM st CROSS JOIN (SELECT a.word, a.typo FROM alt a) v CROSS JOIN LATERAL (SELECT v.word = ANY (${POOL}) AS hit) h),`;
  }
  return `best AS (
    SELECT DISTINCT ON (st.id, a.ti) st.id, a.ti, w.word, m.score FROM st
    CROSS JOIN LATERAL unnest(${POOL}) WITH ORDINALITY AS w (word, pos)
    CROSS JOIN alt a
    CROSS JOIN LATERAL (
      SELECT CASE WHEN a.word = w.word THEN 1::float8
                  WHEN a.prefix AND starts_with(w.word, a.word) THEN 0.9::float8 + 0.1::float8 * (${utf16Length('a.word')}::float8 / ${utf16Length('w.word')}::float8)
                  ELSE 0::float8 END * a.typo AS score) m
    ORDER BY st.id, a.ti, m.score DESC, w.pos),
  agg AS (
    SELECT b.id, sum(b.score ORDER BY b.ti) AS total, coalesce(array_agg(b.word) FILTER (WHERE b.score > 0), '{}') AS covered
    FROM best b GROUP BY b.id),`;
}

/** The coverage of a street some but not all of whose words are covered (see the top of this file). */
const PARTLY_COVERED = `(SELECT CASE WHEN f.e IS NULL OR f.w IS NULL
                               OR ARRAY(SELECT y.x FROM unnest(f.e || f.w) WITH ORDINALITY AS y (x, o) GROUP BY y.x ORDER BY min(y.o)) IS DISTINCT FROM st.u THEN NULL
                             ELSE greatest(${share('f.w', 'g.covered')}, ${share('f.e', 'g.covered')}) END
                 FROM (SELECT (SELECT string_to_array(split_part(t.skey, '|', 2), ' ') FROM local_streets t WHERE t.id = st.id AND t.country = st.country) AS e,
                              ${writtenWords('st.street')} AS w OFFSET 0) f)`;

/**
 * The ids (ascending) of the top `p_max_streets` streets of the search's rows `v_rows` (jsonb, in
 * the search's order; a street in two of its branches counts at its first), ranked for the terms'
 * readings that exist `v_alts` (jsonb `[[term, word, prefix], …]`, terms from 1) and `p_rank`
 * (StreetRanking); NULL where a street's coverage is not told. `single`: the terms are one word,
 * whole (see `matches`). `partly`: tell the coverage of partly covered streets (the street table's
 * keys are read, whose partitions cost the statement 0.1 ms to set up even when none is: so a first
 * statement without, a second only where it found such a street).
 */
export function rankedStreetIdsSql(single: boolean, partly: boolean): string {
  return `
  WITH st AS MATERIALIZED (
    SELECT DISTINCT ON (e.id) e.id, e.o, e.s->>'country' AS country, e.s->>'street' AS street, (e.s->>'n')::bigint AS n, ${nearKmSql} AS km,
      string_to_array(e.s->>'street_words', ' ') AS u, string_to_array(e.s->>'city_words', ' ') AS c
    FROM (SELECT (x.value->>'id')::bigint AS id, x.o, x.value AS s FROM unnest(v_rows) WITH ORDINALITY AS x (value, o)) e
    ORDER BY e.id, e.o),
  alt AS MATERIALIZED (
    SELECT (a.value->>0)::int AS ti, a.value->>1 AS word, (a.value->>2)::boolean AS prefix,
      CASE WHEN (p_rank->'fuzzy'->>((a.value->>0)::int - 1))::boolean THEN 0.85::float8 ELSE 1::float8 END AS typo
    FROM jsonb_array_elements(v_alts) AS a (value)
    WHERE (a.value->>0)::int <= jsonb_array_length(p_rank->'fuzzy')),
  ${matches(single)}
  scored AS (
    SELECT st.id, st.o, st.n, st.street, st.km, coalesce(g.total, 0::float8) / (p_rank->>'words')::float8 AS mean,
      CASE WHEN g.covered IS NULL OR NOT st.u && g.covered THEN 0
           WHEN st.u <@ g.covered THEN cardinality(st.u)
           ELSE (SELECT count(*) FROM unnest(st.u) x WHERE x = ANY (g.covered)) END AS named,
      CASE WHEN cardinality(st.u) = 0 OR g.covered IS NULL OR NOT st.u && g.covered THEN 0::float8
           WHEN st.u <@ g.covered THEN 1::float8
           ELSE ${partly ? PARTLY_COVERED : 'NULL::float8'} END AS coverage
    FROM st LEFT JOIN agg g ON g.id = st.id)
  SELECT CASE WHEN bool_and(s.coverage IS NOT NULL) THEN
    ARRAY(SELECT x FROM unnest((array_agg(s.id ORDER BY
      CASE WHEN s.named = 0 THEN s.mean * (0.8::float8 + 0.2::float8 * s.coverage) * 0.5::float8 ELSE s.mean * (0.8::float8 + 0.2::float8 * s.coverage) END
        * CASE WHEN s.km IS NULL THEN 1::float8 ELSE 1::float8 + ${NEAR_BOOST}::float8 * power(0.5::float8, s.km / ${HALF_KM}::float8) END DESC,
      s.km, s.n DESC, CASE WHEN s.km IS NULL THEN ${utf16Length('s.street')} END, s.o))[1:p_max_streets]) x ORDER BY x) END
  FROM scored s`;
}

/** Whether the ranking's terms are one whole word (`single` of rankedStreetIdsSql). */
export const SINGLE_WORD_SQL = `(jsonb_array_length(p_rank->'fuzzy') = 1 AND (SELECT count(*) = 1 AND NOT bool_or((a.value->>2)::boolean)
  FROM jsonb_array_elements(v_alts) AS a (value) WHERE (a.value->>0)::int = 1))`;
