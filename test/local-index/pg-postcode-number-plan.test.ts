import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withSessionOptions } from '../../src/local-index/store/pg-store.js';
import { addressesByPostcodeQuery } from '../../src/local-index/store/queries.js';
import { openIndexSandbox, type IndexSandbox } from './support/local-sandbox.js';

const STREETS = 2000;
const NUMBERS = 10;
const STREETS_PER_POSTCODE = 200;
const street = (s: number) => `Weg${s}`;
const postcode = (s: number) => 10000 + Math.floor(s / STREETS_PER_POSTCODE);

/** Streets in postcode order: the last postcode's addresses are the last imported (the highest ids). */
function csv(): string {
  const lines = ['street,house_number,postcode,city,country,lat,lng'];
  for (let s = 0; s < STREETS; s++) {
    for (let n = 1; n <= NUMBERS; n++) lines.push(`${street(s)},${n},${postcode(s)},Musterstadt,DE,${(50 + s / 10000).toFixed(5)},${(8 + n / 10000).toFixed(5)}`);
  }
  return lines.join('\n') + '\n';
}

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Rows Removed by Filter'?: number;
  Plans?: PlanNode[];
}

/** Addresses a plan read: the rows its scans of an addresses partition returned or filtered out. */
function addressesRead(node: PlanNode): number {
  const own = /addresses/.test(node['Relation Name'] ?? '') ? ((node['Actual Rows'] ?? 0) + (node['Rows Removed by Filter'] ?? 0)) * (node['Actual Loops'] ?? 1) : 0;
  return own + (node.Plans ?? []).reduce((sum, child) => sum + addressesRead(child), 0);
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

  it('reads the postcode’s addresses of that number, not the table in id order, whatever the plan', async () => {
    const q = addressesByPostcodeQuery('local_', { key: String(postcode(STREETS - 1)), prefix: false }, { key: '5', prefix: false }, 'DE', 20);
    let i = 0;
    const sql = q.sql.replace(/\?/g, () => `$${++i}`);
    for (const mode of ['force_custom_plan', 'force_generic_plan']) {
      await db.query(`SET plan_cache_mode = ${mode}`);
      const res = await db.query<{ 'QUERY PLAN': { Plan: PlanNode }[] }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`, q.args);
      const plan = res.rows[0]!['QUERY PLAN'][0]!.Plan;
      expect(addressesRead(plan), `${mode}: ${JSON.stringify(plan)}`).toBeLessThanOrEqual(STREETS_PER_POSTCODE);
    }
    await db.query('RESET plan_cache_mode');
    // And the answer is the one asked for: the first 20 of the postcode's number 5, in id order.
    const rows = await db.query<{ street: string; hn: string; a_postcode: string }>(sql, q.args);
    expect(rows.rows.map((r) => `${r.street} ${r.hn} ${r.a_postcode}`)).toEqual(
      Array.from({ length: 20 }, (_, k) => `${street(STREETS - STREETS_PER_POSTCODE + k)} 5 ${postcode(STREETS - 1)}`),
    );
  });

  it('validates the address by its postcode and number', async () => {
    const hits = await box.index.geocode({ query: `${street(STREETS - 1)} 5, ${postcode(STREETS - 1)}`, country: 'DE' });
    expect(hits[0]?.components).toMatchObject({ street: street(STREETS - 1), houseNumber: '5', postcode: String(postcode(STREETS - 1)) });
  });
});
