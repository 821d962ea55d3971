import type Database from 'better-sqlite3';
import type pg from 'pg';

/**
 * Which streets have addresses in which postcode: (postcode key → street id), one row per pair.
 * A name in thousands of towns (Hauptstraße) asked with a postcode but no usable house number
 * (none typed yet, or one that does not exist there) is then narrowed by the index to the few
 * streets of that postcode, instead of fetching `limit` of its namesakes and ranking them.
 *
 * Derived from the addresses at the end of every import, for the countries it touched (after
 * `--replace` removed what it did not see), so it is exact whatever the import changed. An index
 * written before the table existed gets it, filled, when it is opened (SQLite here, PostgreSQL in
 * `applyPgSchema`).
 */

export const SQLITE_STREET_POSTCODES = `
  CREATE TABLE IF NOT EXISTS street_postcodes (
    pc_key TEXT NOT NULL,
    street_id INTEGER NOT NULL,
    PRIMARY KEY (pc_key, street_id)
  ) WITHOUT ROWID`;

/** Creates the table in an index file that lacks it and fills it from the addresses there (once). */
export function applySqliteStreetPostcodes(db: Database.Database): void {
  const exists = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'street_postcodes'").get();
  if (exists) return;
  db.transaction(() => {
    db.exec(SQLITE_STREET_POSTCODES);
    db.exec('INSERT OR IGNORE INTO street_postcodes (pc_key, street_id) SELECT DISTINCT pc_key, street_id FROM addresses WHERE pc_key IS NOT NULL');
  })();
}

/** Re-derives the pairs of these countries' streets (`inList`: their `?` placeholders), inside the import's transaction. */
export function refreshSqliteStreetPostcodes(db: Database.Database, inList: string, countries: string[]): void {
  db.prepare(`DELETE FROM street_postcodes WHERE street_id IN (SELECT id FROM streets WHERE country IN (${inList}))`).run(...countries);
  db.prepare(
    `INSERT OR IGNORE INTO street_postcodes (pc_key, street_id)
     SELECT DISTINCT a.pc_key, a.street_id FROM addresses a JOIN streets s ON s.id = a.street_id
     WHERE s.country IN (${inList}) AND a.pc_key IS NOT NULL`,
  ).run(...countries);
}

/**
 * PostgreSQL: partitioned by country like streets and addresses (`local_<cc>_street_postcodes`),
 * so a country's re-import rewrites only its own pairs. The country leads nothing: queries name
 * it as a plain equality, which prunes to the partition.
 */
export const PG_STREET_POSTCODES = `
  CREATE TABLE IF NOT EXISTS local_street_postcodes (
    country TEXT NOT NULL,
    pc_key TEXT COLLATE "C" NOT NULL,
    street_id BIGINT NOT NULL,
    PRIMARY KEY (pc_key, street_id, country)
  ) PARTITION BY LIST (country);`;

/** Re-derives one country's pairs (`t`: its partition prefix), inside the import's transaction. */
export async function refreshPgStreetPostcodes(client: pg.PoolClient, t: string): Promise<void> {
  await client.query(`DELETE FROM ${t}street_postcodes`);
  await client.query(
    `INSERT INTO ${t}street_postcodes (country, pc_key, street_id)
     SELECT DISTINCT country, pc_key, street_id FROM ${t}addresses WHERE pc_key IS NOT NULL`,
  );
}
