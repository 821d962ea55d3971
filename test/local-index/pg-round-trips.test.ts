import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { autocomplete, geocode, primeGeocodes } from '../../src/local-index/search/search.js';
import { openPgStore } from '../../src/local-index/store/pg-store.js';
import type { IndexStore } from '../../src/local-index/store/store.js';
import type { AutocompleteInput, GeocodeInput } from '../../src/local-index/types.js';
import { openIndexSandbox, type IndexSandbox } from './support/local-sandbox.js';

/**
 * Issue 30: on PostgreSQL a fresh validate (street, number, postcode and town, or no postcode) and a keystroke
 * (a street being typed, a house number being typed after it) each wait for one statement: the
 * word and postcode look-up carries the street search its reading leads to (and, for a number
 * being typed, the streets' addresses of it). The answers are those of the look-up and searches
 * sent one after the other.
 */
const TOWNS = 40;
const town = (i: number) => `${String.fromCharCode(65 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}dorf`;
const postcode = (i: number) => String(30000 + i * 7);

function csv(): string {
  const rows = Array.from({ length: TOWNS }, (_, i) =>
    ['Amselweg', 'Hauptstraße'].flatMap((street, k) =>
      [1, 2, 3, 12].map((n) => `${(9 + i * 0.01).toFixed(5)},${(51 + k * 0.001 + n * 0.0001).toFixed(5)},${n},${street},,${town(i)},,,${postcode(i)},,`),
    ),
  ).flat();
  // A street of one town, with numbers 1-30 (two towns for Lindenallee).
  const rare = ['Keizerweg', 'Lindenallee', 'Lindenallee'].flatMap((street, k) =>
    Array.from({ length: 30 }, (_, n) => `${(8 + k * 0.01).toFixed(5)},${(50 + n * 0.0001).toFixed(5)},${n + 1},${street},,${town(k)},,,${postcode(k)},,`),
  );
  // Beside the 40 Hauptstraßen (all tied: same words, size and length, so the search's order
  // decides), names that rank otherwise: a larger one first, a shorter spelling of the same words
  // next; larger names with more words, or a longer word, only partly typed, after them all; and a
  // name in letters the PostgreSQL ranking does not fold (it then leaves the numbers to a second statement).
  const ranked: [string, number, number[]][] = [
    ['Hauptstraße', 40, Array.from({ length: 12 }, (_, n) => n + 1)],
    ['Hauptstr.', 41, [1, 2, 3, 12]],
    ['Hauptstr.', 42, [1, 2, 3, 12]],
    ['Alte Hauptstraße', 43, Array.from({ length: 14 }, (_, n) => n + 1)],
    ["Hauptstraße an d'Ölmühle", 44, Array.from({ length: 14 }, (_, n) => n + 1)],
    ['Hauptstraßenring', 46, Array.from({ length: 15 }, (_, n) => n + 1)],
    ...Array.from({ length: 10 }, (_, i): [string, number, number[]] => ['Ringstraße', i, [1, 2, 11]]),
    ['Ringstraße Ωμέγα', 45, [1, 10]],
    // A name of two words in ten towns, some larger.
    ...Array.from({ length: 10 }, (_, i): [string, number, number[]] => ['Neue Gasse', i, Array.from({ length: 2 + (i % 4) * 3 }, (__, n) => n + 1)]),
  ];
  const others = ranked.flatMap(([street, i, numbers]) =>
    numbers.map((n) => `${(9 + i * 0.01).toFixed(5)},${(52 + n * 0.0001).toFixed(5)},${n},${street},,${town(i)},,,${postcode(i)},,`),
  );
  // A large street whose town is named like the Amselwege: found by their name, ranked after them all.
  others.push(...Array.from({ length: 20 }, (_, n) => `9.50000,${(53 + n * 0.0001).toFixed(5)},${n + 1},Lindenstraße,,Amselweg,,,39999,,`));
  return ['LON,LAT,NUMBER,STREET,UNIT,CITY,DISTRICT,REGION,POSTCODE,ID,HASH', ...rows, ...rare, ...others].join('\n');
}

type Call = { geocode: GeocodeInput } | { autocomplete: AutocompleteInput };
const ask = (store: IndexStore, call: Call) => ('geocode' in call ? geocode(store, call.geocode) : autocomplete(store, call.autocomplete));

/** The common shapes: one statement each, on a store that has not seen their words. */
const ONE_TRIP: [string, Call][] = [
  ['validate: street, number, postcode, town', { geocode: { components: { street: 'Hauptstraße', houseNumber: '2', postcode: postcode(17), city: town(17) }, country: 'DE' } }],
  ['geocode: street number, postcode town', { geocode: { query: `Amselweg 3, ${postcode(23)} ${town(23)}`, country: 'DE' } }],
  ['validate: street, number, town (no postcode)', { geocode: { components: { street: 'Hauptstraße', houseNumber: '3', city: town(11) }, country: 'DE' } }],
  ['geocode: street number town', { geocode: { query: `Amselweg 12 ${town(29)}`, country: 'DE' } }],
  ['keystroke: street being typed', { autocomplete: { query: 'Keizerw', country: 'DE', limit: 5 } }],
  ['keystroke: street and number being typed', { autocomplete: { query: 'Keizerweg 1', country: 'DE', limit: 5 } }],
  // Fewer streets than offered: the best one's first numbers fill up (ranked in SQL as rankStreets ranks).
  ['keystroke: street of two towns being typed', { autocomplete: { query: 'Lindenal', country: 'DE', limit: 5 } }],
  ['keystroke: street of two towns and number being typed', { autocomplete: { query: 'Lindenallee 2', country: 'DE', limit: 5 } }],
  // More streets of the name than autocomplete ranks (no town typed): the function ranks them as rankStreets does.
  ['keystroke: street of many towns and number being typed', { autocomplete: { query: 'Hauptstraße 1', country: 'DE', limit: 5 } }],
  ['keystroke: street of many towns and a whole number', { autocomplete: { query: 'Hauptstraße 12 ', country: 'DE', limit: 5 } }],
  ['keystroke: another street of many towns (one word, whole) and number being typed', { autocomplete: { query: 'Amselweg 1', country: 'DE', limit: 5 } }],
  ['keystroke: a name of two words in many towns and a number', { autocomplete: { query: 'Neue Gasse 1', country: 'DE', limit: 5 } }],
  ['keystroke: one word of a two-word name in many towns and a number', { autocomplete: { query: 'Gasse 1', country: 'DE', limit: 5 } }],
  ['keystroke: a number, then a street of many towns being typed', { autocomplete: { query: '2 Haupts', country: 'DE', limit: 5 } }],
  // Issue 37: past the number, as a form is typed on: a whole postcode (its addresses of the number
  // come too), a postcode being typed (shorter than the country's postcodes), a town after the postcode.
  ['keystroke: street, number and a whole postcode', { autocomplete: { query: `Keizerweg 2, ${postcode(0)}`, country: 'DE', limit: 5 } }],
  ['keystroke: street, number and a postcode being typed', { autocomplete: { query: `Lindenallee 12, ${postcode(1).slice(0, 3)}`, country: 'DE', limit: 5 } }],
  ['keystroke: street, number, postcode and a town being typed', { autocomplete: { query: `Keizerweg 2, ${postcode(0)} ${town(0).slice(0, 2)}`, country: 'DE', limit: 5 } }],
  ['keystroke: street of many towns, number, postcode and a town being typed', { autocomplete: { query: `Hauptstraße 12, ${postcode(5)} ${town(5).slice(0, 3)}`, country: 'DE', limit: 5 } }],
  // Issue 35: with the customer's position, the streets nearest to it, ranked with it.
  ['keystroke with a position: street being typed', { autocomplete: { query: 'Keizerw', country: 'DE', limit: 5, near: { lat: 50.001, lng: 8.001 } } }],
  ['keystroke with a position: street of many towns and number being typed', { autocomplete: { query: 'Hauptstraße 1', country: 'DE', limit: 5, near: { lat: 51.001, lng: 9.2 } } }],
  ['keystroke with a position: a name of two words in many towns and a number', { autocomplete: { query: 'Neue Gasse 1', country: 'DE', limit: 5, near: { lat: 52, lng: 9.05 } } }],
  ['geocode with a position: street number, no town', { geocode: { query: 'Amselweg 3', country: 'DE', near: { lat: 51, lng: 9.3 } } }],
];

/** Other shapes: whatever they take, the same answers as without the search beside the look-up. */
const OTHERS: Call[] = [
  { autocomplete: { query: 'Hauptstrase 1', country: 'DE', limit: 5 } },
  { autocomplete: { query: 'Hauptstraße 99', country: 'DE', limit: 5 } },
  { autocomplete: { query: 'Hauptst', country: 'DE', limit: 5 } },
  { autocomplete: { query: `Hauptstraße 12, ${postcode(5)}`, country: 'DE', limit: 5 } },
  { autocomplete: { query: 'Keizerweg ', country: 'DE', limit: 5 } },
  { autocomplete: { query: 'Kiezerweg 1', country: 'DE', limit: 5 } },
  { autocomplete: { query: 'Keizerwg', country: 'DE', limit: 5 } },
  { autocomplete: { query: 'Lindenalee', country: 'DE', limit: 5 } },
  { geocode: { query: `Hauptstraße 9, ${postcode(8)}`, country: 'DE' } },
  { geocode: { query: `Hauptstrase 2, ${postcode(8)}`, country: 'DE' } },
  { geocode: { query: `Lindenallee 7, ${postcode(1)}`, country: 'DE' } },
  { geocode: { components: { street: 'Amselweg', houseNumber: '12', postcode: postcode(30), city: 'Nirgendwo' }, country: 'DE' } },
  { geocode: { components: { street: 'Keizerweg', houseNumber: '31', postcode: postcode(0), city: town(0) }, country: 'DE' } },
];

describe('one round trip per validate and per keystroke on PostgreSQL', () => {
  let box: IndexSandbox;
  const query = vi.spyOn(pg.Pool.prototype, 'query');
  const open = () => openPgStore(box.sandbox.databaseUrl!, { schema: box.sandbox.schema });

  beforeAll(async () => {
    // The index's 2 s version poll would add a statement to whichever window it fell in.
    vi.useFakeTimers({ toFake: ['setInterval'] });
    box = await openIndexSandbox('postgres');
    await box.index.importFile(box.file('de.csv', csv()), { format: 'openaddresses', country: 'DE' });
  });
  afterAll(async () => {
    query.mockRestore();
    await box?.close();
    vi.useRealTimers();
  });

  /**
   * Statements a fresh store sends for `call` (each pool.query is one round trip), and its answer;
   * `warm`: the second time the store is asked (its words cached).
   */
  async function fresh(call: Call, ride = true, warm = false): Promise<{ trips: number; answer: unknown }> {
    const store = await open();
    // Without the search beside the look-up: the look-up and the searches one after the other, as before.
    const asked = ride ? store : { ...store, lookUp: (input: Parameters<IndexStore['lookUp']>[0]) => store.lookUp({ ...input, prefetch: undefined }) };
    try {
      if (warm) await ask(asked, call);
      query.mockClear();
      const answer = await ask(asked, call);
      return { trips: query.mock.calls.length, answer };
    } finally {
      await store.close();
    }
  }

  it.each(ONE_TRIP)('%s: one statement, where the look-up and the searches one after the other took two or three', async (_, call) => {
    const now = await fresh(call);
    const before = await fresh(call, false);
    expect(now.trips).toBe(1);
    expect(before.trips).toBeGreaterThanOrEqual(2);
    expect(now.answer).toEqual(before.answer);
    expect(now.answer).not.toEqual([]);
  });

  it('other shapes (many namesakes, typos, wrong numbers and towns, drill-down) answer row by row as before, never in more statements, fresh or repeated', async () => {
    for (const call of OTHERS) {
      const now = await fresh(call);
      const before = await fresh(call, false);
      expect(now.answer, JSON.stringify(call)).toEqual(before.answer);
      expect(now.trips, JSON.stringify(call)).toBeLessThanOrEqual(before.trips);
      const [nowWarm, beforeWarm] = [await fresh(call, true, true), await fresh(call, false, true)];
      expect(nowWarm.answer, JSON.stringify(call)).toEqual(beforeWarm.answer);
      expect(nowWarm.trips, JSON.stringify(call)).toBeLessThanOrEqual(beforeWarm.trips);
    }
  });

  it('an index whose function is missing or of another version gets it when opened', async () => {
    const admin = new pg.Client({ connectionString: box.sandbox.databaseUrl! });
    await admin.connect();
    try {
      await admin.query(`CREATE OR REPLACE FUNCTION ${box.sandbox.schema}.addressd_local_search(p_terms jsonb, p_forms boolean, p_search text, p_hn text, p_pc text, p_country text, p_numbers text, p_max_streets integer)
        RETURNS TABLE (part text, r jsonb) LANGUAGE sql AS 'SELECT NULL::text, NULL::jsonb WHERE false'`);
    } finally {
      await admin.end();
    }
    const [, call] = ONE_TRIP[0]!;
    const now = await fresh(call);
    expect(now.trips).toBe(1);
    expect(now.answer).toEqual((await fresh(call, false)).answer);
  });

  it('a list: a chunk of exact rows is looked up in one statement, whatever its size, each row then in none, with the same answers', async () => {
    const rows = (n: number): GeocodeInput[] =>
      Array.from({ length: n }, (_, i) => ({
        components: { street: i % 2 ? 'Amselweg' : 'Hauptstraße', houseNumber: String([1, 2, 3, 12][i % 4]), postcode: postcode(i % TOWNS), city: town(i % TOWNS) },
        country: 'DE',
      }));
    for (const n of [10, 40]) {
      const store = await open();
      try {
        query.mockClear();
        await primeGeocodes(store, rows(n));
        expect(query.mock.calls.length, `priming ${n} rows`).toBe(1);
        query.mockClear();
        const answers = [];
        for (const row of rows(n)) answers.push(await geocode(store, row));
        expect(query.mock.calls.length, `${n} rows after priming`).toBe(0);
        const plain = await open();
        try {
          for (const [i, row] of rows(n).entries()) expect(answers[i]).toEqual(await geocode(plain, row));
        } finally {
          await plain.close();
        }
      } finally {
        await store.close();
      }
    }
  });

  it('a list: rows the guess does not fit (typo, wrong number) are searched row by row after the chunk, with the same answers', async () => {
    const rows: GeocodeInput[] = [
      { components: { street: 'Hauptstrase', houseNumber: '2', postcode: postcode(3), city: town(3) }, country: 'DE' },
      { components: { street: 'Amselweg', houseNumber: '99', postcode: postcode(4), city: town(4) }, country: 'DE' },
      { components: { street: 'Amselweg', houseNumber: '1', postcode: postcode(5), city: town(5) }, country: 'DE' },
      { query: `Keizerweg 4, ${postcode(0)} ${town(0)}`, country: 'DE' },
    ];
    const store = await open();
    const plain = await open();
    try {
      await primeGeocodes(store, rows);
      for (const row of rows) expect(await geocode(store, row)).toEqual(await geocode(plain, row));
    } finally {
      await store.close();
      await plain.close();
    }
  });

  it('a list: rows whose first search the guess missed (a typo, a postcode no address has) find it waiting after the chunk\'s second statement, with the same answers', async () => {
    const rows: GeocodeInput[] = [
      { components: { street: 'Hauptstrase', houseNumber: '2', postcode: postcode(3), city: town(3) }, country: 'DE' },
      { query: `Keizerwg 4, ${postcode(0)} ${town(0)}`, country: 'DE' },
      { query: `Amselweg 3, 39998 ${town(6)}`, country: 'DE' },
      { components: { street: 'Amselweg', houseNumber: '1', postcode: postcode(5), city: town(5) }, country: 'DE' },
    ];
    const store = await open();
    const plain = await open();
    try {
      query.mockClear();
      await primeGeocodes(store, rows);
      // The chunk's look-up with the guessed searches, then the searches the rows' answers lead to.
      expect(query.mock.calls.length).toBe(2);
      query.mockClear();
      const answers = [];
      for (const row of rows) answers.push(await geocode(store, row));
      expect(query.mock.calls.length).toBe(0);
      for (const [i, row] of rows.entries()) expect(answers[i]).toEqual(await geocode(plain, row));
      expect(answers.every((a) => a.length > 0)).toBe(true);
    } finally {
      await store.close();
      await plain.close();
    }
  });

  it('a street of many towns, one of them named in letters the ranking in SQL does not fold: the numbers in a second statement, the same answers', async () => {
    const call: Call = { autocomplete: { query: 'Ringstraße 1', country: 'DE', limit: 5 } };
    const [now, before] = [await fresh(call), await fresh(call, false)];
    expect(now.trips).toBe(2);
    expect(before.trips).toBe(3);
    expect(now.answer).toEqual(before.answer);
    expect(now.answer).not.toEqual([]);
  });

  it('a typo in a street of many towns, its words cached: the streets ranked with the typo in SQL too, one statement', async () => {
    const call: Call = { autocomplete: { query: 'Hauptstrase 1', country: 'DE', limit: 5 } };
    const [now, before] = [await fresh(call, true, true), await fresh(call, false, true)];
    expect(now.trips).toBe(1);
    expect(now.answer).toEqual(before.answer);
    expect(now.answer).not.toEqual([]);
  });

  it('keystrokes whose wide street match is kept (the same words typed on, other numbers) send no search, at most the numbers\' statement, with the same answers', async () => {
    const store = await open();
    const typed = ['Hauptstraße 1', 'Hauptstraße 12', 'Hauptstraße 2', 'Hauptstraße 12 ', 'Neue Gasse 1', 'Neue Gasse 2', 'Keizerw', 'Keizerweg 3', 'Keizerweg 30'];
    try {
      for (const text of typed) await autocomplete(store, { query: text, country: 'DE', limit: 5 });
      for (const text of typed) {
        const call: Call = { autocomplete: { query: text, country: 'DE', limit: 5 } };
        query.mockClear();
        const answer = await ask(store, call);
        const sent = query.mock.calls.map(([q]) => (typeof q === 'string' ? q : (q as { text: string }).text));
        expect(sent.length, text).toBeLessThanOrEqual(1);
        expect(sent.filter((q) => q.includes('addressd_local_search')), text).toEqual([]);
        expect(answer, text).toEqual((await fresh(call, false)).answer);
      }
    } finally {
      await store.close();
    }
  });

  it('a repeated keystroke (words cached) still takes one statement', async () => {
    const store = await open();
    try {
      await autocomplete(store, { query: 'Keizerweg 1', country: 'DE', limit: 5 });
      query.mockClear();
      await autocomplete(store, { query: 'Keizerweg 1', country: 'DE', limit: 5 });
      expect(query.mock.calls.length).toBe(1);
    } finally {
      await store.close();
    }
  });
});
