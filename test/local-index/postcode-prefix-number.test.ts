import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalHit } from '../../src/local-index/index.js';
import { addressesByPostcodeQuery, postcodeExistsQuery } from '../../src/local-index/store/queries.js';
import { SQLITE_INDEX_FILE } from '../../src/local-index/store/sqlite-store.js';
import { STORAGE_BACKENDS } from '../support/backends.js';
import { openIndexSandbox, type IndexSandbox } from './support/local-sandbox.js';

/**
 * Autocomplete of `street number, postcode-being-typed` (`Straat3weg 4, 1013 A`): the postcode
 * prefix with the house number is looked up among the addresses. Many numbers per street in one
 * country is the shape under which SQLite's planner, given the country, drove that look-up from
 * every street of the country (a full pass over a country's streets per keystroke).
 */
const TOWNS = 2;
const STREETS = 5;
const NUMBERS = 60;
const postcode = (t: number, s: number, n: number) => `${1000 + t * 10 + s} ${'AB'[n % 2]}${'CD'[s % 2]}`;

function csv(): string {
  const rows = ['LON,LAT,NUMBER,STREET,UNIT,CITY,DISTRICT,REGION,POSTCODE,ID,HASH'];
  for (let t = 0; t < TOWNS; t += 1) {
    for (let s = 0; s < STREETS; s += 1) {
      for (let n = 1; n <= NUMBERS; n += 1) {
        rows.push(`${(5 + t * 0.1).toFixed(5)},${(52 + s * 0.001 + n * 0.00001).toFixed(5)},${n},Straat${s}weg,,Town${t},,,${postcode(t, s, n)},,`);
      }
    }
  }
  return rows.join('\n');
}

const where = (h: LocalHit) => `${h.components.street} ${h.components.houseNumber} ${h.components.postcode} ${h.components.city}`;

describe.each(STORAGE_BACKENDS)('autocomplete of a number with a postcode being typed (%s)', (backend) => {
  let box: IndexSandbox;

  beforeAll(async () => {
    box = await openIndexSandbox(backend);
    await box.index.importFile(box.file('nl.csv', csv()), { format: 'openaddresses', country: 'NL' });
  });
  afterAll(async () => {
    await box?.close();
  });

  it('offers the address in the postcode typed so far first, then the number on the namesake streets', async () => {
    const hits = await box.index.autocomplete({ query: 'Straat3weg 4, 1013 A', country: 'NL', limit: 5 });
    expect(where(hits[0]!)).toBe('Straat3weg 4 1013 AD Town1');
    expect(hits.map(where)).toContain('Straat3weg 4 1003 AD Town0');
    const wrongPostcode = await box.index.autocomplete({ query: 'Straat3weg 5, 1013 A', country: 'NL', limit: 5 });
    expect(wrongPostcode.map(where)).toEqual(expect.arrayContaining(['Straat3weg 5 1013 BD Town1', 'Straat3weg 5 1003 BD Town0']));
  });

  it.runIf(backend === 'sqlite')('SQLite looks a postcode prefix (and whether one exists) up by the postcode index, not from every street of the country', () => {
    const db = new Database(join(box.sandbox.dataDir, SQLITE_INDEX_FILE), { readonly: true });
    try {
      for (const hn of [{ key: '4', prefix: false }, { key: '1', prefix: true }]) {
        const q = addressesByPostcodeQuery('', { key: '1013A', prefix: true }, hn, 'NL', 20);
        const plan = (db.prepare(`EXPLAIN QUERY PLAN ${q.sql}`).all(...q.args) as { detail: string }[]).map((r) => r.detail);
        expect(plan[0]).toMatch(/^SEARCH a USING (COVERING )?INDEX addresses_postcode/);
        expect(plan.join('\n')).not.toMatch(/streets_country/);
      }
      // Whether a typed number could be a postcode being typed (`Straat3weg 57b`): checked on the
      // postcode range too. From the country's streets, a prefix no postcode has read every
      // address of the country (1.4 s per keystroke at 10M addresses).
      for (const [key, prefix] of [['57b', true], ['1013AC', false]] as const) {
        const q = postcodeExistsQuery('', key, prefix, 'NL');
        const plan = (db.prepare(`EXPLAIN QUERY PLAN ${q.sql}`).all(...q.args) as { detail: string }[]).map((r) => r.detail);
        expect(plan[0]).toMatch(/^SEARCH a USING (COVERING )?INDEX addresses_postcode/);
        expect(plan.join('\n')).not.toMatch(/streets_country/);
      }
      const exists = (key: string, prefix: boolean) => {
        const q = postcodeExistsQuery('', key, prefix, 'NL');
        return db.prepare(q.sql).all(...q.args).length > 0;
      };
      expect([exists('1013', true), exists('57b', true), exists('1013BD', false), exists('1013', false)]).toEqual([true, false, true, false]);
    } finally {
      db.close();
    }
  });
});
