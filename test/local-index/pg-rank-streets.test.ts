import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writtenWords } from '../../src/local-index/store/pg-rank-streets.js';
import { tokens } from '../../src/local-index/text.js';
import { POSTGRES_URL } from '../support/backends.js';

/**
 * The PostgreSQL search function ranks the streets of a name in many towns as JavaScript does
 * (pg-rank-streets.ts); for a street only partly named by the words, that needs the name's written
 * words, which it folds in SQL with a table made by `tokens`. Those words must be `tokens`' own, or
 * the ranking differs and the keystroke costs a second statement.
 */
const CHARS = [
  [0x20, 0x7e],
  [0xa0, 0x24f],
  [0x300, 0x36f],
  [0x1e00, 0x1eff],
  [0x2000, 0x206f],
].flatMap(([from, to]) => Array.from({ length: to! - from! + 1 }, (_, i) => String.fromCharCode(from! + i)));

/** Names of 1-14 characters drawn from the table's ranges (a fixed sequence: the same names every run). */
function names(count: number): string[] {
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  return Array.from({ length: count }, () => Array.from({ length: 1 + Math.floor(next() * 14) }, () => CHARS[Math.floor(next() * CHARS.length)]!).join(''));
}

describe('street names folded in SQL as tokens() folds them', () => {
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  beforeAll(() => client.connect());
  afterAll(() => client.end());

  const fold = async (list: string[]) =>
    (await client.query<{ w: string[] | null }>(`SELECT ${writtenWords('n.x')} AS w FROM unnest($1::text[]) WITH ORDINALITY AS n (x, o) ORDER BY n.o`, [list])).rows.map((r) => r.w);

  it('gives the words tokens() gives, for real names and for 3,000 names of any characters the table covers', async () => {
    const real = ["Hauptstraße an d'Ölmühle", 'Rue de l’Église', 'Straße des 17. Juni', 'Ǆemal Bijedića', 'İstiklal Caddesi', 'Ünterer Weg 3½', 'Sankt-Peter—Gasse'];
    const list = [...real, ...names(3000)];
    expect(await fold(list)).toEqual(list.map((name) => tokens(name)));
  });

  it('tells where a name has a character the table lacks (the ranking then leaves the numbers to the second statement)', async () => {
    expect(await fold(['Ringstraße Ωμέγα', '中山路', 'Tab\there'])).toEqual([null, null, null]);
  });
});
