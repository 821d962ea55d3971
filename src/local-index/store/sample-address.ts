import type Database from 'better-sqlite3';
import type pg from 'pg';

/** One real address of the index and the highest house number of its street (the homepage's samples). */
export interface SampleAddress {
  country: string;
  street: string;
  houseNumber: string;
  postcode: string;
  city: string;
  /** The street's highest house number: a number above it is one the data does not have. */
  highestNumber: number;
}

/*
 * Among the first streets of the country (by id, so the cost stays bounded on a whole country), the
 * one with the most houses that has a plain house number with a postcode and a town: its lowest such
 * house. The same query on both stores, each in its own dialect.
 */
const SQLITE = `
  WITH s AS (SELECT id, street, city, n FROM streets WHERE country = ? AND city IS NOT NULL ORDER BY id LIMIT 200)
  SELECT s.street, s.city, a.hn, a.postcode, (SELECT max(m.hn_base) FROM addresses m WHERE m.street_id = s.id) AS top
  FROM s JOIN addresses a ON a.id = (
    SELECT x.id FROM addresses x
    WHERE x.street_id = s.id AND x.postcode IS NOT NULL AND x.hn = CAST(x.hn_base AS TEXT)
    ORDER BY x.hn_base LIMIT 1
  )
  ORDER BY s.n DESC, s.id LIMIT 1`;

const POSTGRES = `
  WITH s AS (SELECT id, street, city, n FROM local_streets WHERE country = $1 AND city IS NOT NULL ORDER BY id LIMIT 200)
  SELECT s.street, s.city, a.hn, a.postcode,
         (SELECT max(m.hn_base) FROM local_addresses m WHERE m.country = $1 AND m.street_id = s.id) AS top
  FROM s CROSS JOIN LATERAL (
    SELECT x.hn, x.postcode FROM local_addresses x
    WHERE x.country = $1 AND x.street_id = s.id AND x.postcode IS NOT NULL AND x.hn = x.hn_base::text
    ORDER BY x.hn_base LIMIT 1
  ) a
  ORDER BY s.n DESC, s.id LIMIT 1`;

interface Row {
  street: string;
  city: string;
  hn: string;
  postcode: string;
  top: number | string | null;
}

const toSample = (country: string, row: Row | undefined): SampleAddress | undefined =>
  row && { country, street: row.street, houseNumber: row.hn, postcode: row.postcode, city: row.city, highestNumber: Number(row.top ?? row.hn) };

export function sqliteSampleAddress(db: Database.Database, country: string): SampleAddress | undefined {
  return toSample(country, db.prepare(SQLITE).get(country) as Row | undefined);
}

export async function pgSampleAddress(pool: pg.Pool, country: string): Promise<SampleAddress | undefined> {
  return toSample(country, (await pool.query<Row>(POSTGRES, [country])).rows[0]);
}
