import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withSessionOptions } from '../../src/local-index/store/pg-store.js';
import { narrowedStreetsSql, postcodeStreetsSql } from '../../src/local-index/store/pg-street-queries.js';
import { addressesByPostcodeQuery, type Query } from '../../src/local-index/store/queries.js';
import { openIndexSandbox, type IndexSandbox } from './support/local-sandbox.js';

const STREETS = 2000;
const NUMBERS = 10;
const STREETS_PER_POSTCODE = 200;
const town = (s: number) => `Ort${s}`;
const postcode = (s: number) => 10000 + Math.floor(s / STREETS_PER_POSTCODE);

/**
 * `Hauptstraße` in each of 2,000 towns (a name in thousands of towns), in postcode order: the last
 * postcode's streets and addresses are the last imported (the highest ids).
 */
function csv(): string {
  const lines = ['street,house_number,postcode,city,country,lat,lng'];
  for (let s = 0; s < STREETS; s++) {
    for (let n = 1; n <= NUMBERS; n++) lines.push(`Hauptstraße,${n},${postcode(s)},${town(s)},DE,${(50 + s / 10000).toFixed(5)},${(8 + n / 10000).toFixed(5)}`);
  }
  return lines.join('\n') + '\n';
}

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Rows Removed by Filter'?: number;
  'Index Name'?: string;
  'Index Cond'?: string;
  Plans?: PlanNode[];
}

/** Scans of a table in primary-key order that are no look-up of one id: the walk the ORDER BY invited. */
function walks(node: PlanNode): string[] {
  const own = /_(streets|addresses)_pkey$/.test(node['Index Name'] ?? '') && !/\bid = /.test(node['Index Cond'] ?? '') ? [node['Index Name']!] : [];
  return [...own, ...(node.Plans ?? []).flatMap(walks)];
}

/** Rows a plan read from the tables `relation` matches: what its scans returned or filtered out. */
function rowsRead(node: PlanNode, relation: RegExp): number {
  const own = relation.test(node['Relation Name'] ?? '') ? ((node['Actual Rows'] ?? 0) + (node['Rows Removed by Filter'] ?? 0)) * (node['Actual Loops'] ?? 1) : 0;
  return own + (node.Plans ?? []).reduce((sum, child) => sum + rowsRead(child, relation), 0);
}

/**
 * A whole postcode with an exact house number (`Weg1999 5, 10009`): the look-up reads that
 * postcode's addresses of that number. Ordered by a bare `a.id`, PostgreSQL walked the primary key
 * in id order filtering every address, betting on matches spread evenly: a postcode's addresses sit
 * together, and at 10M addresses `07198` with `5` read 4.5M of them (0.8-2 s a keystroke).
 */
describe('PostgreSQL postcode and number look-up (postgres)', () => {
  let box: IndexSandbox;
  let db: pg.Client;
  beforeAll(async () => {
    box = await openIndexSandbox('postgres');
    await box.index.importFile(box.file('de.csv', csv()), { format: 'csv' });
    // The session settings the store's own connections use.
    db = new pg.Client({ connectionString: withSessionOptions(box.sandbox.databaseUrl!, box.sandbox.schema) });
    await db.connect();
  }, 60_000);
  afterAll(async () => {
    await db?.end();
    await box?.close();
  });

  /**
   * The most `relation` rows any plan of `q` reads, custom (values known when planning) or generic;
   * and no plan walks a primary key in id order.
   */
  const mostRead = async (q: Query, relation: RegExp): Promise<number> => {
    let i = 0;
    const sql = q.sql.replace(/\?/g, () => `$${++i}`);
    let most = 0;
    for (const mode of ['force_custom_plan', 'force_generic_plan']) {
      await db.query(`SET plan_cache_mode = ${mode}`);
      const res = await db.query<{ 'QUERY PLAN': { Plan: PlanNode }[] }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`, q.args);
      const plan = res.rows[0]!['QUERY PLAN'][0]!.Plan;
      expect(walks(plan), `${mode}: ${JSON.stringify(plan, ['Node Type', 'Index Name', 'Index Cond', 'Actual Rows', 'Rows Removed by Filter', 'Plans'])}`).toEqual([]);
      most = Math.max(most, rowsRead(plan, relation));
    }
    await db.query('RESET plan_cache_mode');
    return most;
  };
  const last = String(postcode(STREETS - 1));

  it('a postcode with a number reads that postcode’s addresses of that number, not the table in id order', async () => {
    const q = addressesByPostcodeQuery('local_', { key: last, prefix: false }, { key: '5', prefix: false }, 'DE', 20);
    expect(await mostRead(q, /addresses/)).toBeLessThanOrEqual(STREETS_PER_POSTCODE);
    // And the answer is the one asked for: the first 20 of the postcode's number 5, in id order.
    let i = 0;
    const rows = await db.query<{ city: string; hn: string; a_postcode: string }>(q.sql.replace(/\?/g, () => `$${++i}`), q.args);
    expect(rows.rows.map((r) => `${r.city} ${r.hn} ${r.a_postcode}`)).toEqual(
      Array.from({ length: 20 }, (_, k) => `${town(STREETS - STREETS_PER_POSTCODE + k)} 5 ${last}`),
    );
  });

  it('a name in every town, narrowed by postcode (and number), does not walk the streets in id order', async () => {
    // At this size the plan may read all 2,000 streets once (a hash join); what it must not do is
    // walk them in id order, which at 30M read 736,000 of them per keystroke.
    const narrowed = { sql: narrowedStreetsSql(true, 60), args: ['5', last, '5', 'hauptstrasse', 'DE', 'DE'] };
    expect(await mostRead(narrowed, /streets/)).toBeLessThanOrEqual(STREETS);
    const inPostcode = { sql: postcodeStreetsSql(true, 60), args: [last, 'hauptstrasse', 'DE', 'DE'] };
    expect(await mostRead(inPostcode, /streets/)).toBeLessThanOrEqual(STREETS);
  });

  it('validates the address by its postcode and number', async () => {
    const hits = await box.index.geocode({ query: `Hauptstraße 5, ${last} ${town(STREETS - 1)}`, country: 'DE' });
    expect(hits[0]?.components).toMatchObject({ street: 'Hauptstraße', houseNumber: '5', postcode: last, city: town(STREETS - 1) });
  });
});
