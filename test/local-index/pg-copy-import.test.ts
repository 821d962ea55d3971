import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ImportSummary } from '../../src/local-index/index.js';
import { beginPgImport } from '../../src/local-index/store/pg-import.js';
import { SQLITE_INDEX_FILE } from '../../src/local-index/store/sqlite-store.js';
import type { AddressInput } from '../../src/local-index/store/store.js';
import { openIndexSandbox, type IndexSandbox } from './support/local-sandbox.js';

interface Row {
  street: string;
  number: string;
  postcode: string;
  city: string;
  state: string;
  country: string;
  lat: number;
  lng: number;
  unit?: string;
}

const HEADER = 'street,houseNumber,unit,postcode,city,state,country,lat,lng';
const csv = (rows: Row[]) =>
  [HEADER, ...rows.map((r) => [r.street, r.number, r.unit ?? '', r.postcode, r.city, r.state, r.country, r.lat.toFixed(6), r.lng.toFixed(6)].join(','))].join('\n') + '\n';

/**
 * Two countries, 12,003 rows (two write batches of 10,000): Germany 60 streets × 100 numbers,
 * Austria 30 × 200 and a street with backslashes. Houses 1-5 of the first German street list two flats, the second row of each
 * at the end of the file (in the second batch); the file ends with a repeat of a row of the first batch.
 */
function version1(): Row[] {
  const rows: Row[] = [];
  const street = (country: string, s: number) => (country === 'DE' ? `Lindenweg ${s}` : `Almgasse ${s}`);
  for (const [country, streets, numbers, city, state] of [
    ['DE', 60, 100, 'Musterstadt', 'Bayern'],
    ['AT', 30, 200, 'Bergdorf', 'Tirol'],
  ] as const) {
    for (let s = 0; s < streets; s++) {
      for (let n = 1; n <= numbers; n++) {
        const row: Row = { street: street(country, s), number: String(n), postcode: String(country === 'DE' ? 80000 + s : 6000 + s), city, state, country, lat: 47 + s / 1000, lng: 10 + n / 10000 };
        rows.push(country === 'DE' && s === 0 && n <= 5 ? { ...row, unit: 'Apt 1' } : row);
      }
    }
  }
  // COPY's text format reads a backslash as an escape (`\\N` is NULL): the data's own are kept.
  for (let n = 1; n <= 3; n++) rows.push({ street: 'Am Hang\\Nord', number: String(n), postcode: '6500', city: 'Berg\\dorf', state: 'Tirol', country: 'AT', lat: 47.6, lng: 10 + n / 10000, unit: `Top \\N${n}` });
  for (let n = 1; n <= 5; n++) rows.push({ ...rows[n - 1]!, unit: 'Apt 2' });
  rows.push(rows[150]!);
  return rows;
}

/** Version 1 with German street 2 gone, street 3 moved, Austrian street 0 in another postcode, a new Austrian street. */
function version2(): Row[] {
  const rows = version1()
    .filter((r) => r.street !== 'Lindenweg 2')
    .map((r) => (r.street === 'Lindenweg 3' ? { ...r, lat: r.lat + 0.001 } : r.street === 'Almgasse 0' ? { ...r, postcode: '6999' } : r));
  for (let n = 1; n <= 40; n++) rows.splice(3000, 0, { street: 'Neugasse', number: String(n), postcode: '6100', city: 'Bergdorf', state: 'Tirol', country: 'AT', lat: 47.5, lng: 10 + n / 10000 });
  return rows;
}

/** What an import reports that both stores must agree on. */
const counts = (s: ImportSummary) => ({
  rows: s.rows,
  imported: s.imported,
  updated: s.updated,
  unchanged: s.unchanged,
  removed: s.removed,
  notInFile: s.notInFile,
  skipped: s.skipped,
  problems: s.problems,
});

/** The index's content, ids aside: addresses with their streets, streets with their statistics, streets' postcodes. */
interface Content {
  addresses: string[];
  streets: string[];
  postcodes: string[];
}

const ADDRESSES = (p: string) => `SELECT s.country, s.street, s.city, s.state, a.source_id, a.hn, a.hn_key, a.hn_base, a.postcode, a.pc_key, a.lat, a.lng, a.units
  FROM ${p}addresses a JOIN ${p}streets s ON s.id = a.street_id`;
const STREETS = (p: string) => `SELECT skey, country, street, city, state, municipality, street_words, city_words, n, postcode, lat, lng FROM ${p}streets`;
const POSTCODES = (p: string) => `SELECT s.skey, sp.pc_key FROM ${p}street_postcodes sp JOIN ${p}streets s ON s.id = sp.street_id`;

function content(rows: { addresses: object[]; streets: object[]; postcodes: object[] }): Content {
  const line = (r: object) =>
    Object.values(r)
      .map((v) => (typeof v === 'number' ? v.toFixed(6) : String(v ?? '')))
      .join('|');
  return { addresses: rows.addresses.map(line).sort(), streets: rows.streets.map(line).sort(), postcodes: rows.postcodes.map(line).sort() };
}

describe('PostgreSQL import through COPY', () => {
  let box: IndexSandbox;
  let reference: IndexSandbox;
  let db: pg.Client;
  beforeEach(async () => {
    box = await openIndexSandbox('postgres');
    reference = await openIndexSandbox('sqlite');
    db = new pg.Client({ connectionString: box.sandbox.databaseUrl });
    await db.connect();
  });
  afterEach(async () => {
    await db.end();
    await box.close();
    await reference.close();
  });

  const pgContent = async () =>
    content({
      addresses: (await db.query({ text: ADDRESSES('local_'), types: { getTypeParser: () => (v: string) => v } })).rows.map(floats),
      streets: (await db.query({ text: STREETS('local_'), types: { getTypeParser: () => (v: string) => v } })).rows.map(floats),
      postcodes: (await db.query(POSTCODES('local_'))).rows,
    });
  const sqliteContent = () => {
    const file = new Database(join(reference.sandbox.dataDir, SQLITE_INDEX_FILE), { readonly: true });
    try {
      return content({
        addresses: file.prepare(ADDRESSES('')).all() as object[],
        streets: file.prepare(STREETS('')).all() as object[],
        postcodes: file.prepare(POSTCODES('')).all() as object[],
      });
    } finally {
      file.close();
    }
  };

  /** Both stores import the same file: the same counts, the same index. */
  const importBoth = async (name: string, rows: Row[], replace: boolean) => {
    const [got, want] = await Promise.all([
      box.index.importFile(box.file(name, csv(rows)), { format: 'csv', replace }),
      reference.index.importFile(reference.file(name, csv(rows)), { format: 'csv', replace }),
    ]);
    expect(counts(got)).toEqual(counts(want));
    expect(await pgContent()).toEqual(sqliteContent());
    return got;
  };

  /** Each Austrian address of a street with the transaction that last wrote its row. */
  const writers = async (street: string) =>
    (await db.query<{ id: string; xmin: string }>('SELECT a.id, a.xmin FROM local_at_addresses a JOIN local_at_streets s ON s.id = a.street_id WHERE s.street = $1 ORDER BY a.id', [street])).rows;

  it('gives the index and the counts the SQLite store gives, over new, updated, unchanged, repeated and removed rows in two countries, and rewrites no unchanged row', async () => {
    const first = await importBoth('v1.csv', version1(), false);
    expect(first).toMatchObject({ rows: 12_009, imported: 12_003, skipped: { duplicate: 1 } });
    const before = await writers('Almgasse 7');

    const second = await importBoth('v2.csv', version2(), false);
    expect(second).toMatchObject({ imported: 40, notInFile: 100, skipped: { duplicate: 1 } });
    expect(second.updated).toBeGreaterThanOrEqual(300);
    // Unchanged rows keep their row version: a re-import costs no rewrite of what did not change.
    expect(await writers('Almgasse 7')).toEqual(before);

    const replaced = await importBoth('v2.csv', version2(), true);
    expect(replaced).toMatchObject({ imported: 0, removed: 100, unchanged: 11_943 - 5 });
    const gone = await box.index.geocode({ components: { street: 'Lindenweg 2', houseNumber: '5', city: 'Musterstadt', country: 'DE' } });
    expect(gone.some((h) => h.components.street === 'Lindenweg 2')).toBe(false);
  }, 60_000);

  it('loads a first import\'s vocabulary in bulk, leaves the trigram index as look-ups expect it, and adds a later import\'s words', async () => {
    const reloptions = async () =>
      (await db.query<{ opts: string[] | null }>("SELECT reloptions AS opts FROM pg_class WHERE relname = 'local_words_trgm' AND relnamespace = current_schema()::regnamespace")).rows[0]!.opts;
    const words = async () => (await db.query<{ word: string }>('SELECT word FROM local_words ORDER BY word')).rows.map((r) => r.word);
    const tokens = async () =>
      (await db.query<{ w: string }>(`SELECT DISTINCT w FROM local_streets, unnest(string_to_array(street_words || ' ' || city_words, ' ')) AS w WHERE w <> '' ORDER BY w`)).rows.map((r) => r.w);
    // Through the trigram index, as typo look-ups read it.
    const similar = async (word: string) => {
      await db.query('BEGIN');
      try {
        await db.query('SET LOCAL enable_seqscan = off');
        return (await db.query<{ word: string }>('SELECT word FROM local_words WHERE word OPERATOR(public.%) $1 ORDER BY word', [word])).rows.map((r) => r.word);
      } finally {
        await db.query('COMMIT');
      }
    };
    await box.index.importFile(box.file('v1.csv', csv(version1())), { format: 'csv' });
    expect(await words()).toEqual(await tokens());
    expect(await words()).toContain('lindenweg');
    expect(await reloptions()).toEqual(['fastupdate=off']);
    expect(await similar('lindenwg')).toContain('lindenweg');

    await box.index.importFile(box.file('v2.csv', csv(version2())), { format: 'csv' });
    expect(await words()).toEqual(await tokens());
    expect(await similar('neugase')).toContain('neugasse');
    expect(await reloptions()).toEqual(['fastupdate=off']);
  }, 60_000);

  it('leaves the old data serving and no staging behind when the merge fails mid-import', async () => {
    await box.index.importFile(box.file('v1.csv', csv(version1())), { format: 'csv' });
    const stored = await pgContent();
    // A row the server refuses, in the second batch: the first batch has been merged by then.
    await db.query(`CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused row'; END $$;
      CREATE TRIGGER refuse BEFORE INSERT ON local_de_addresses FOR EACH ROW WHEN (NEW.hn = '7777') EXECUTE FUNCTION refuse();`);
    const rows = version2();
    rows.splice(11_000, 0, { ...rows[0]!, number: '7777', unit: undefined });
    await expect(box.index.importFile(box.file('v3.csv', csv(rows)), { format: 'csv', replace: true })).rejects.toThrow(/refused row/);
    expect(await pgContent()).toEqual(stored);
    const [hit] = await box.index.geocode({ components: { street: 'Lindenweg 3', houseNumber: '5', city: 'Musterstadt', country: 'DE' } });
    expect(hit).toMatchObject({ components: { street: 'Lindenweg 3', houseNumber: '5' } });
    expect(hit?.location.lat).toBeCloseTo(47.003, 6);

    // The staging tables live and die with the import's transaction, on its own connection.
    const pool = new pg.Pool({ connectionString: box.sandbox.databaseUrl, max: 1 });
    const client = await pool.connect();
    const staging = async () => (await client.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_class WHERE relnamespace = pg_my_temp_schema() AND relkind = 'r' AND relname LIKE 'local\\_import\\_%'")).rows[0]!.n;
    // Germany's partitions exist (imported above).
    const session = await beginPgImport(client, () => undefined, async () => undefined);
    expect(await staging()).toBe(2);
    const refused: AddressInput = {
      sourceId: null,
      street: { key: 'de|lindenweg 0|musterstadt', country: 'DE', street: 'Lindenweg 0', city: 'Musterstadt', municipality: null, state: null, streetWords: 'lindenweg 0', cityWords: 'musterstadt' },
      hn: '7777', hnKey: '7777', hnBase: 7777, postcode: '80000', pcKey: '80000', lat: 47, lng: 10,
    };
    await expect(session.write([refused])).rejects.toThrow(/refused row/);
    await session.abort();
    expect(await staging()).toBe(0);
    // A row COPY itself refuses (the data was sent behind the query): the same, and the connection goes on.
    const again = await beginPgImport(client, () => undefined, async () => undefined);
    await expect(again.write([{ ...refused, hn: '7778', hnKey: '7778', hnBase: 7778.5 }])).rejects.toThrow(/integer/);
    await again.abort();
    expect(await staging()).toBe(0);
    client.release();
    await pool.end();
  }, 60_000);
});

/** Doubles as PostgreSQL sends them (text), as numbers: the same rounding as SQLite's. */
function floats(r: Record<string, string | null>): object {
  return Object.fromEntries(Object.entries(r).map(([k, v]) => [k, ['lat', 'lng'].includes(k) && v !== null ? Number(v) : k === 'n' || k === 'hn_base' ? (v === null ? null : Number(v)) : v]));
}
