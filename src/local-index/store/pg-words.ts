import type pg from 'pg';

/**
 * The vocabulary for typo candidates (`local_words`): every token of every street and city of
 * the streets table `t` (a country's partition), each word once.
 */
export async function addStreetWords(client: pg.PoolClient, t: string): Promise<void> {
  await client.query(
    `INSERT INTO local_words (word)
     SELECT DISTINCT w FROM ${t}streets, unnest(string_to_array(street_words || ' ' || city_words, ' ')) AS w
     WHERE w <> '' ON CONFLICT DO NOTHING`,
  );
}

/** Whether the vocabulary holds no word yet (the first import of an index): then its import goes in bulk (addWordsInBulk). */
export async function vocabularyEmpty(client: pg.PoolClient): Promise<boolean> {
  const res = await client.query<{ empty: boolean }>('SELECT NOT EXISTS (SELECT 1 FROM local_words) AS empty');
  return res.rows[0]!.empty;
}

/**
 * The words of these streets tables into an empty vocabulary, in bulk. Its trigram index is kept
 * with `fastupdate = off` (a look-up never reads a pending list), so each new word is otherwise
 * written into it entry by entry: for the tens of thousands of words of a first import, about
 * 125 µs a word, most of the import's vocabulary step (1.5 s of a 1M-address import's finish,
 * which runs on one core). Here they go through the pending list and are merged into the index
 * at once, as a bulk build would (a quarter of the time), and the setting is put back.
 *
 * Changing the setting locks the index until the import commits: called last before the commit,
 * and only while the vocabulary is empty, when a look-up waiting for it would have found nothing
 * in it. Into a vocabulary that holds words they go in one by one (addStreetWords), never locking
 * out the look-ups of a serving index.
 */
export async function addWordsInBulk(client: pg.PoolClient, tables: string[]): Promise<void> {
  await client.query('ALTER INDEX local_words_trgm SET (fastupdate = on)');
  for (const t of tables) await addStreetWords(client, t);
  await client.query("SELECT gin_clean_pending_list('local_words_trgm')");
  await client.query('ALTER INDEX local_words_trgm SET (fastupdate = off)');
  await client.query('ANALYZE local_words');
}
