import { tokens } from '../text.js';

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
 * function does not rank and the caller asks for the addresses as before.
 */

/** Characters the fold table covers: printable ASCII, Latin-1 and Latin Extended A/B, combining marks, Latin Extended Additional. */
const RANGES: [number, number][] = [
  [0x20, 0x7e],
  [0xa0, 0x24f],
  [0x300, 0x36f],
  [0x1e00, 0x1eff],
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
      // (Never otherwise in these ranges: a character that changed its neighbours would stay out, unfolded.)
      if (folded.startsWith('a') && folded.endsWith('b')) table[c] = folded.slice(1, -1);
    }
  }
  return table;
}

/** `String.length` of a text: its characters, plus one for each outside the Basic Multilingual Plane (two UTF-16 units). */
const utf16Length = (x: string) => `(length(${x}) + regexp_count(${x}, '[\\U00010000-\\U0010FFFF]'))`;

/** The written words of a street name (`tokens`), or NULL when it has a character the table lacks. */
function writtenWords(street: string): string {
  const fold = `'${JSON.stringify(foldTable()).replace(/'/g, "''")}'::jsonb`;
  return `(SELECT CASE WHEN bool_and(t.fold ? z.ch) THEN array_remove(string_to_array(string_agg(t.fold ->> z.ch, '' ORDER BY z.o), ' '), '') END
           FROM (SELECT ${fold} AS fold) t, regexp_split_to_table(${street}, '') WITH ORDINALITY AS z (ch, o))`;
}

/** The share of `forms` (with repeats) in `covered`, 0 for none (`share` in scoreStreet). */
const share = (forms: string, covered: string) =>
  `(CASE WHEN cardinality(${forms}) = 0 THEN 0::float8 ELSE (SELECT count(*) FROM unnest(${forms}) f WHERE f = ANY (${covered}))::float8 / cardinality(${forms}) END)`;

/**
 * The ids (ascending) of the top `p_max_streets` streets of the search's rows `v_rows` (jsonb, in
 * the search's order; a street in two of its branches counts at its first), ranked for the terms'
 * readings that exist `v_alts` (jsonb `[[term, word, prefix], …]`, terms from 1) and `p_rank`
 * (StreetRanking); NULL where a street's coverage cannot be told.
 */
export const RANKED_STREET_IDS_SQL = `
  WITH st AS (
    SELECT DISTINCT ON (e.id) e.id, e.o, e.s FROM (
      SELECT (x.value->>'id')::bigint AS id, x.o, x.value AS s FROM unnest(v_rows) WITH ORDINALITY AS x (value, o)) e
    ORDER BY e.id, e.o),
  alt AS (
    SELECT (a.value->>0)::int AS ti, a.value->>1 AS word, (a.value->>2)::boolean AS prefix, (p_rank->'fuzzy'->>((a.value->>0)::int - 1))::boolean AS fuzzy
    FROM jsonb_array_elements(v_alts) AS a (value)
    WHERE (a.value->>0)::int <= jsonb_array_length(p_rank->'fuzzy')),
  pool AS (
    SELECT st.id, w.word, w.pos FROM st CROSS JOIN LATERAL (
      SELECT x.word, x.o AS pos FROM unnest(string_to_array(st.s->>'street_words', ' ')) WITH ORDINALITY AS x (word, o)
      UNION ALL
      SELECT x.word, 1000000 + x.o FROM unnest(string_to_array(st.s->>'city_words', ' ')) WITH ORDINALITY AS x (word, o)
      WHERE NOT (p_rank->>'structured')::boolean) w),
  best AS (
    SELECT DISTINCT ON (p.id, a.ti) p.id, a.ti, p.word, m.score FROM pool p CROSS JOIN alt a CROSS JOIN LATERAL (
      SELECT CASE WHEN a.word = p.word THEN 1::float8
                  WHEN a.prefix AND starts_with(p.word, a.word) THEN 0.9::float8 + 0.1::float8 * (${utf16Length('a.word')}::float8 / ${utf16Length('p.word')}::float8)
                  ELSE 0::float8 END * CASE WHEN a.fuzzy THEN 0.85::float8 ELSE 1::float8 END AS score) m
    ORDER BY p.id, a.ti, m.score DESC, p.pos),
  cov AS (
    SELECT st.id, st.o, st.s, string_to_array(st.s->>'street_words', ' ') AS u,
      coalesce((SELECT sum(b.score ORDER BY b.ti) FROM best b WHERE b.id = st.id), 0::float8) / (p_rank->>'words')::float8 AS mean,
      ARRAY(SELECT b.word FROM best b WHERE b.id = st.id AND b.score > 0) AS covered
    FROM st),
  scored AS (
    SELECT c.id, c.o, c.s, c.mean,
      (SELECT count(*) FROM unnest(c.u) x WHERE x = ANY (c.covered)) AS named,
      CASE WHEN cardinality(c.u) = 0 OR NOT c.u && c.covered THEN 0::float8
           WHEN c.u <@ c.covered THEN 1::float8
           ELSE (SELECT CASE WHEN f.e IS NULL OR f.w IS NULL
                               OR ARRAY(SELECT y.x FROM unnest(f.e || f.w) WITH ORDINALITY AS y (x, o) GROUP BY y.x ORDER BY min(y.o)) IS DISTINCT FROM c.u THEN NULL
                             ELSE greatest(${share('f.w', 'c.covered')}, ${share('f.e', 'c.covered')}) END
                 FROM (SELECT (SELECT string_to_array(split_part(t.skey, '|', 2), ' ') FROM local_streets t WHERE t.id = c.id AND t.country = c.s->>'country') AS e,
                              ${writtenWords("c.s->>'street'")} AS w OFFSET 0) f) END AS coverage
    FROM cov c),
  ranked AS (
    SELECT s.id, s.o, s.coverage, (s.s->>'n')::bigint AS n, ${utf16Length("(s.s->>'street')")} AS len,
      CASE WHEN s.named = 0 THEN s.mean * (0.8::float8 + 0.2::float8 * s.coverage) * 0.5::float8 ELSE s.mean * (0.8::float8 + 0.2::float8 * s.coverage) END AS score
    FROM scored s)
  SELECT CASE WHEN bool_and(r.coverage IS NOT NULL) THEN
    (SELECT array_agg(t.id ORDER BY t.id) FROM (SELECT q.id FROM ranked q ORDER BY q.score DESC, q.n DESC, q.len, q.o LIMIT p_max_streets) t) END
  FROM ranked r`;
