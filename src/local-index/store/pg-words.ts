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

/**
 * The words' trigram index is kept with `fastupdate = off` (a look-up never reads a pending
 * list), so each new word is written into it entry by entry: for the tens of thousands of words
 * of a first import, about 125 µs a word, most of an import's vocabulary step. Into an empty
 * vocabulary (the first import of an index) the words go through the pending list instead and
 * are merged into the index at once, as a bulk build would (a quarter of the time). The switch
 * locks the index until the import commits; while the vocabulary is empty no look-up has
 * anything to read from it, so none waits for more than an empty answer. Returns the undo, or
 * undefined when the vocabulary already holds words (then they go in one by one, never locking
 * out the look-ups a serving index answers).
 */
export async function bulkWordsIfEmpty(client: pg.PoolClient): Promise<(() => Promise<void>) | undefined> {
  const res = await client.query<{ empty: boolean }>('SELECT NOT EXISTS (SELECT 1 FROM local_words) AS empty');
  if (!res.rows[0]!.empty) return undefined;
  await client.query('ALTER INDEX local_words_trgm SET (fastupdate = on)');
  return async () => {
    await client.query("SELECT gin_clean_pending_list('local_words_trgm')");
    await client.query('ALTER INDEX local_words_trgm SET (fastupdate = off)');
  };
}
