import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listSearchesArgument } from '../../src/local-index/store/pg-list-searches.js';
import { narrowedOfList } from '../../src/local-index/store/pg-list-narrowed.js';
import { PREFETCH_ARG_TYPES, prefetchArgs } from '../../src/local-index/store/pg-prefetch.js';
import { NARROWED_PREFETCH_LIMIT } from '../../src/local-index/store/pg-search-function.js';
import { withSessionOptions } from '../../src/local-index/store/pg-store.js';
import type { StreetPrefetch, WordQuery } from '../../src/local-index/store/store.js';
import { openIndexSandbox, type IndexSandbox } from './support/local-sandbox.js';

/**
 * A list's narrowed searches run set-based (pg-list-narrowed.ts) give exactly the rows
 * `addressd_local_search` gives for them: the same tsquery text (the readings that exist, a prefix
 * of few completions as their OR, quotes dropped), the same streets and addresses in the same order,
 * nothing where a term has no reading that exists. The store keeps the rows under the tsquery, so
 * any difference would only cost a round trip, but the answers depend on the rows being the same.
 */
const CSV = [
  'LON,LAT,NUMBER,STREET,UNIT,CITY,DISTRICT,REGION,POSTCODE,ID,HASH',
  ...['Hauptstraße', 'Hauptstr.', 'Amselweg', "Rue de l'Église", 'Alte Hauptstraße'].flatMap((street, s) =>
    [1, 2, 12].flatMap((n) => [0, 1, 2].map((t) => `${9 + t * 0.01},${51 + s * 0.001 + n * 0.0001},${n},${street},,Ort${'abc'[t]},,,${30000 + t},,`)),
  ),
].join('\n');

const w = (word: string, prefix = false): WordQuery => ({ word, prefix });
const search = (terms: WordQuery[][], hnKey: string, inPostcode: string): StreetPrefetch => ({
  terms,
  search: { kind: 'narrowed', hnKey, inPostcode, forms: false },
  country: 'DE',
  limit: NARROWED_PREFETCH_LIMIT,
});

const SEARCHES: StreetPrefetch[] = [
  search([[w('hauptstrasse')], [w('orta')]], '1', '30000'),
  search([[w('hauptstrasse'), w('hauptstr')], [w('ortb')]], '12', '30001'),
  search([[w('haupt', true)]], '2', '30002'),
  search([[w('hauptstrase')], [w('ortc')]], '2', '30002'),
  search([[w('amselweg')], [w('orta'), w('ortb')]], '12', '30001'),
  search([[w('rue')], [w("l'eglise"), w('eglise')]], '1', '30000'),
  search([[w('amselweg')]], '99', '30000'),
  search([[w('alte')], [w('hauptstrasse')]], '2', '30001'),
];

describe('a list\'s narrowed searches, set-based', () => {
  let box: IndexSandbox;
  let client: pg.Client;

  beforeAll(async () => {
    box = await openIndexSandbox('postgres');
    await box.index.importFile(box.file('de.csv', CSV), { format: 'openaddresses', country: 'DE' });
    client = new pg.Client({ connectionString: withSessionOptions(box.sandbox.databaseUrl!, box.sandbox.schema) });
    await client.connect();
  });
  afterAll(async () => {
    await client?.end();
    await box?.close();
  });

  it('give the rows addressd_local_search gives, search by search', async () => {
    const args = SEARCHES.map((p) => prefetchArgs(p, (prefix) => prefix === 'haupt')!);
    const param = listSearchesArgument(args);
    const set = await client.query<{ j: number; part: string; r: unknown }>(`SELECT z.* FROM (${narrowedOfList('$1::jsonb')}) z (kind, j, part, r)`, [param]);
    for (const [j, values] of args.entries()) {
      const at = values.map((_, i) => `$${i + 1}::${PREFETCH_ARG_TYPES[i]}`).join(', ');
      const alone = await client.query<{ part: string; r: unknown }>(`SELECT p.part, p.r FROM addressd_local_search(${at}) p`, values);
      const mine = set.rows.filter((r) => r.j === j).map(({ part, r }) => ({ part, r }));
      expect(mine, `search ${j}: ${JSON.stringify(values[0])}`).toEqual(alone.rows);
    }
    // Found something where the function did, nothing where it did not (a typo, a number not there).
    expect(set.rows.filter((r) => r.part === 's').length).toBeGreaterThan(4);
    expect(set.rows.some((r) => r.j === 3)).toBe(false);
  });
});
