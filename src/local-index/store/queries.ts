import type { GeoPoint } from '../../contract/address.js';
import { PREFIX_END, type HouseNumberFilter, type PostcodeFilter } from './store.js';

/**
 * Address look-ups as SQL both backends run (`?` placeholders; the PostgreSQL store
 * numbers them). `t` is the table prefix: none in SQLite's own file, `local_` in PostgreSQL.
 */
export interface Query {
  sql: string;
  args: unknown[];
}

export const streetColumns = 's.id, s.country, s.street, s.city, s.municipality, s.state, s.postcode, s.n, s.lat, s.lng, s.street_words, s.city_words';
const addressColumns = `${streetColumns}, a.hn, a.hn_key, a.postcode AS a_postcode, a.lat AS a_lat, a.lng AS a_lng, a.units AS a_units`;

/**
 * Address joined to its street. PostgreSQL's addresses carry their street's country, the
 * partition key (`t` is its table prefix): equal in the join, a country given for the street
 * is the addresses' too, and the plan reads that country's partitions only.
 */
const streetJoin = (t: string) => `${t}addresses a JOIN ${t}streets s ON s.id = a.street_id${t ? ' AND a.country = s.country' : ''}`;

/** An address beside its street's columns, as `NumberedRow` reads it. */
export const numberedColumns = 'a.id AS a_id, a.hn, a.hn_key, a.postcode AS a_postcode, a.lat AS a_lat, a.lng AS a_lng, a.units AS a_units';
/** SQLite only: PostgreSQL's queries name the country as a plain equality so the plan prunes partitions. */
export const countryFilter = '(CAST(? AS TEXT) IS NULL OR s.country = ?)';

/**
 * A LIMIT written into the SQL rather than bound: SQLite plans a bound LIMIT as an expression it
 * evaluates per run, and with it a one-row street match took twice the CPU (80 against 35 µs).
 * Limits are small constants of the search code, so the statement caches stay small.
 */
export function sqlLimit(limit: number): number {
  if (!Number.isSafeInteger(limit) || limit < 0) throw new RangeError(`bad limit ${limit}`);
  return limit;
}

/**
 * House-number filter; its order puts the exact key first, then 1, 2, 10 rather than 1, 10, 2.
 * An exact number orders by `+a.id`, an expression no index yields: ordered by the bare `a.id`,
 * PostgreSQL may walk the primary key in id order, filtering every address until the LIMIT is met,
 * betting that matches are spread evenly; a postcode's addresses sit together, late in id order,
 * and `07198` with number `5` read 4.5M addresses at 10M (0.8-2 s a keystroke) where the postcode
 * index names its 27 in 0.2 ms. The matches of an exact number are few; sorting them is nothing.
 */
function hnClause(hn: HouseNumberFilter | undefined): { sql: string; args: unknown[]; order: string; orderArgs: unknown[] } {
  // Ties end by id: the order is total, so the same look-up answers the same rows whatever the
  // plan (PostgreSQL answers a look-up run together with the street search from its rows: pg-search-function.ts).
  if (!hn) return { sql: '', args: [], order: 'a.hn_base, a.hn_key, a.id', orderArgs: [] };
  if ('base' in hn) return { sql: ' AND a.hn_base = ?', args: [hn.base], order: 'a.hn_key, a.id', orderArgs: [] };
  if (!hn.prefix) return { sql: ' AND a.hn_key = ?', args: [hn.key], order: '+a.id', orderArgs: [] };
  return {
    sql: ' AND a.hn_key >= ? AND a.hn_key < ?',
    args: [hn.key, hn.key + PREFIX_END],
    order: '(a.hn_key = ?) DESC, a.hn_base, a.hn_key, a.id',
    orderArgs: [hn.key],
  };
}

export function addressesOnStreetsQuery(t: string, streetIds: number[], hn: HouseNumberFilter | undefined, limit: number): Query {
  const q = addressesOnStreetsSql(t, streetIds.map(() => '?').join(', '), hn, limit);
  return { sql: q.sql, args: [...streetIds, ...(t ? streetIds : []), ...q.args] };
}

/**
 * As addressesOnStreetsQuery, with the street ids written as SQL (`idList`) rather than bound, and
 * the limit too where it is SQL (a variable of the PostgreSQL search function); `args` are the rest.
 * PostgreSQL: the ids name the streets too (`idList` twice), not only their addresses: with the addresses' ids alone, it joined the hundred addresses of a number being typed on eight
 * streets to every street of the country by hashing (a sequential scan of the streets' partition,
 * 1 ms at 200k addresses), where the streets' key finds the eight in 0.05 ms.
 */
export function addressesOnStreetsSql(t: string, idList: string, hn: HouseNumberFilter | undefined, limit: number | { sql: string }): Query {
  const c = hnClause(hn);
  return {
    sql: `SELECT ${addressColumns} FROM ${streetJoin(t)}
          WHERE a.street_id IN (${idList})${t ? ` AND s.id IN (${idList})` : ''}${c.sql} ORDER BY ${c.order} LIMIT ${typeof limit === 'number' ? sqlLimit(limit) : limit.sql}`,
    args: [...c.args, ...c.orderArgs],
  };
}

export function addressesByPostcodeQuery(
  t: string,
  pc: PostcodeFilter,
  hn: HouseNumberFilter | undefined,
  country: string | undefined,
  limit: number | { sql: string },
): Query {
  const c = hnClause(hn);
  const pcSql = pc.prefix ? 'a.pc_key >= ? AND a.pc_key < ?' : 'a.pc_key = ?';
  const pcArgs = pc.prefix ? [pc.key, pc.key + PREFIX_END] : [pc.key];
  const order = hn ? `${c.order}, a.pc_key` : `a.pc_key, ${c.order}`;
  // SQLite (no `t`): the unary `+` keeps the country off the streets' country index. With it and a
  // house number, SQLite drove the search from every street of the country into `addresses_street`
  // (`1012 L` with `4`: 60-100 ms, a third of autocomplete's CPU) instead of the postcode range (0.02 ms).
  const countrySql = country === undefined ? '' : t ? ' AND s.country = ?' : ' AND +s.country = ?';
  return {
    sql: `SELECT ${addressColumns} FROM ${streetJoin(t)}
          WHERE ${pcSql}${c.sql}${countrySql} ORDER BY ${order} LIMIT ${typeof limit === 'number' ? sqlLimit(limit) : limit.sql}`,
    args: [...pcArgs, ...c.args, ...(country === undefined ? [] : [country]), ...c.orderArgs],
  };
}

/**
 * Whether a postcode (or a postcode prefix) exists. `ORDER BY pc_key` keeps the search on
 * the postcode index: with a bare LIMIT 1, PostgreSQL may bet on a sequential scan finding
 * a match early, and read the whole table when there is none (12-27 ms, not 0.1).
 */
export function postcodeExistsQuery(t: string, key: string, prefix: boolean, country: string | undefined): Query {
  const pcSql = prefix ? 'a.pc_key >= ? AND a.pc_key < ?' : 'a.pc_key = ?';
  const pcArgs = prefix ? [key, key + PREFIX_END] : [key];
  if (country === undefined) return { sql: `SELECT 1 AS hit FROM ${t}addresses a WHERE ${pcSql} ORDER BY a.pc_key LIMIT 1`, args: pcArgs };
  // SQLite: `+` keeps the country off the streets' country index, as in addressesByPostcodeQuery.
  // With it SQLite drove the check from every street of the country (`57b`, no such postcode, at
  // 10M addresses: 1.4 s) instead of the postcode range.
  return {
    sql: `SELECT 1 AS hit FROM ${streetJoin(t)} WHERE ${pcSql} AND ${t ? '' : '+'}s.country = ? ORDER BY a.pc_key LIMIT 1`,
    args: [...pcArgs, country],
  };
}

/**
 * Which of these streets have addresses with postcodes, none of them this one: the index then
 * knows the postcode is not the street's. Both look-ups are by index (the postcode's streets, a
 * street's addresses); a street whose addresses carry no postcode is left out (nothing known).
 * PostgreSQL: a country given prunes the look-up to its partitions.
 */
export function postcodeAbsentQuery(t: string, streetIds: number[], pcKey: string, country?: string): Query {
  const sameCountry = (alias: string) => (t ? ` AND ${alias}.country = s.country` : '');
  const countrySql = t && country !== undefined ? ' AND s.country = ?' : '';
  return {
    sql: `SELECT s.id FROM ${t}streets s WHERE s.id IN (${streetIds.map(() => '?').join(', ')})${countrySql}
          AND EXISTS (SELECT 1 FROM ${t}addresses a WHERE a.street_id = s.id${sameCountry('a')} AND a.pc_key IS NOT NULL)
          AND NOT EXISTS (SELECT 1 FROM ${t}street_postcodes sp WHERE sp.pc_key = ? AND sp.street_id = s.id${sameCountry('sp')})`,
    args: [...streetIds, ...(countrySql ? [country] : []), pcKey],
  };
}

/** Street statistics after an import: size (ranking), centre (street hits), the postcode when it has only one. */
export function streetStatsSql(t: string, inList: string): string {
  return `UPDATE ${t}streets SET (n, lat, lng, postcode) = (
            SELECT count(*), avg(a.lat), avg(a.lng), CASE WHEN min(a.postcode) = max(a.postcode) THEN min(a.postcode) END
            FROM ${t}addresses a WHERE a.street_id = ${t}streets.id)
          WHERE country IN (${inList})`;
}

/**
 * With a position (issue 35's `near`), a word match is cut to its streets nearest to it, of at
 * most this many matches read: a name in hundreds of towns (`Mühlenweg`) is read whole, so the
 * near town's street is in the pool whatever the index's order; a word typed so far that matches
 * more streets (`m`) reads this many, never the whole match.
 */
export const NEAR_SCAN = 2000;

/**
 * `match` (a street search of `streetColumns`, at most NEAR_SCAN rows) as its `limit` streets
 * nearest to a point, ties by id: equirectangular squared distance of the streets' centres, exact
 * enough to order streets within a country. Args after the match's: `nearArgs(near)`.
 */
export function nearestStreetsSql(match: string, limit: number): string {
  return `SELECT * FROM (${match}) s
          ORDER BY (s.lat - ?) * (s.lat - ?) + (s.lng - ?) * (s.lng - ?) * ?, s.id LIMIT ${sqlLimit(limit)}`;
}

/** The values nearestStreetsSql binds. */
export function nearArgs(near: GeoPoint): number[] {
  const cos = Math.cos((near.lat * Math.PI) / 180);
  return [near.lat, near.lat, near.lng, near.lng, cos * cos];
}

/** Postcode areas read per search at most (a short prefix, `1`, names thousands of streets). */
export const POSTCODE_AREA_SCAN = 2000;

/**
 * The postcodes starting with (or equal to) a key, each with each town it reaches (issue 35's
 * `postcode` suggestions), smallest key first, then the town with most addresses: from
 * `street_postcodes` (a street's postcodes), at most POSTCODE_AREA_SCAN of its rows read in key
 * order; the centre is that of the streets, weighed by their addresses; the written form, that of
 * an address of the postcode (its index). PostgreSQL (`t`): every partition joined on the country.
 */
export function postcodeAreasQuery(t: string, pc: PostcodeFilter, country: string | undefined, limit: number): Query {
  const pcSql = pc.prefix ? 'sp.pc_key >= ? AND sp.pc_key < ?' : 'sp.pc_key = ?';
  const pcArgs = pc.prefix ? [pc.key, pc.key + PREFIX_END] : [pc.key];
  const inner = t && country !== undefined ? ' AND sp.country = ?' : '';
  const outer = country !== undefined ? ' AND s.country = ?' : '';
  return {
    sql: `SELECT sp.pc_key, s.country, s.city, s.state, sum(s.n) AS n, sum(s.lat * s.n) / sum(s.n) AS lat, sum(s.lng * s.n) / sum(s.n) AS lng,
            (SELECT a.postcode FROM ${t}addresses a WHERE a.pc_key = sp.pc_key${t ? ' AND a.country = s.country' : ''} ORDER BY a.pc_key LIMIT 1) AS postcode
          FROM (SELECT sp.* FROM ${t}street_postcodes sp WHERE ${pcSql}${inner} ORDER BY sp.pc_key LIMIT ${sqlLimit(POSTCODE_AREA_SCAN)}) sp
          JOIN ${t}streets s ON s.id = sp.street_id${t ? ' AND s.country = sp.country' : ''}
          WHERE s.n > 0${outer}
          GROUP BY sp.pc_key, s.country, s.city, s.state
          ORDER BY sp.pc_key, sum(s.n) DESC, s.city LIMIT ${sqlLimit(limit)}`,
    args: [...pcArgs, ...(inner ? [country] : []), ...(outer ? [country] : [])],
  };
}
