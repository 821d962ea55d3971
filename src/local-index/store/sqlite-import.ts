import type Database from 'better-sqlite3';
import { streetStatsSql } from './queries.js';
import { refreshSqliteStreetPostcodes } from './street-postcodes.js';
import { mergePackedUnits } from '../units.js';
import { identityKey, SeenIdentities } from './seen-identities.js';
import { COUNTRY_STATE_COLUMNS, nextCountryState } from './country-state.js';
import { SAME_COORDINATE, type AddressInput, type BatchOutcome, type CommitRecord, type CountryState, type ImportSession } from './store.js';

/** Parameters of one new address. */
const COLUMNS = 11;
/** New addresses per INSERT statement (11 parameters each, far below SQLite's limit of 32,766). */
const INSERT_ROWS = 64;

/** Indexes of the addresses table a first import builds at its end (see `deferred`). */
const DEFERRED = ['addresses_postcode', 'addresses_cell'];

/** A stored address with the same identity as an imported row. */
interface ExistingAddress {
  id: number;
  importId: number;
  streetId: number;
  hn: string;
  postcode: string | null;
  lat: number;
  lng: number;
  units: string | null;
}

const changed = (old: ExistingAddress, r: AddressInput, streetId: number) =>
  old.streetId !== streetId ||
  old.hn !== r.hn ||
  old.postcode !== r.postcode ||
  Math.abs(old.lat - r.lat) >= SAME_COORDINATE ||
  Math.abs(old.lng - r.lng) >= SAME_COORDINATE ||
  old.units !== (r.units ?? null);


/**
 * One import as one SQLite write transaction: readers (the server) keep seeing the old
 * index through WAL until it commits, and a failure rolls everything back.
 */
export function beginSqliteImport(db: Database.Database, onCommit: () => void): ImportSession {
  db.exec('BEGIN IMMEDIATE');
  const importId = (db.prepare("UPDATE meta SET value = value + 1 WHERE key = 'import_seq' RETURNING value").get() as { value: number }).value;
  const upsertStreet = db.prepare(
    `INSERT INTO streets (skey, country, street, city, municipality, state, street_words, city_words) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (skey) DO UPDATE SET state = coalesce(streets.state, excluded.state) RETURNING id`,
  );
  const columns = 'id, import_id AS importId, street_id AS streetId, hn, postcode, lat, lng, units';
  const bySource = db.prepare(`SELECT ${columns} FROM addresses WHERE source_id = ?`);
  const byAddress = db.prepare(`SELECT ${columns} FROM addresses WHERE street_id = ? AND hn_key = ? AND source_id IS NULL LIMIT 1`);
  // New rows go in several to a statement: one call into SQLite instead of one per row. Rows of
  // one write() cannot match each other (the caller dropped repeated identities), so the look-ups
  // can all run before the inserts.
  const insertSql = (n: number) =>
    `INSERT INTO addresses (source_id, street_id, hn, hn_key, hn_base, postcode, pc_key, lat, lng, units, import_id) VALUES ${Array.from({ length: n }, () => '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}`;
  const insert = db.prepare(insertSql(1));
  const insertMany = db.prepare(insertSql(INSERT_ROWS));
  const update = db.prepare(
    'UPDATE addresses SET street_id = ?, hn = ?, hn_key = ?, hn_base = ?, postcode = ?, pc_key = ?, lat = ?, lng = ?, units = ?, import_id = ? WHERE id = ?',
  );
  const setUnits = db.prepare('UPDATE addresses SET units = ? WHERE id = ?');
  const touch = db.prepare('UPDATE addresses SET import_id = ? WHERE id = ?');
  const lastStreet = db.prepare('SELECT coalesce(max(id), 0) FROM streets').pluck();
  // An import repeats the same few thousand streets a million times: their ids are kept (bounded).
  const streetIds = new Map<string, number>();
  const streetIdOf = ({ street: s }: AddressInput): number => {
    let id = streetIds.get(s.key);
    if (id === undefined) {
      if (streetIds.size > 500_000) streetIds.clear();
      id = (upsertStreet.get(s.key, s.country, s.street, s.city, s.municipality, s.state, s.streetWords, s.cityWords) as { id: number }).id;
      streetIds.set(s.key, id);
    }
    return id;
  };
  // A first import (no address stored): a row matches only a row this import wrote, which the filter knows.
  const seen = db.prepare('SELECT NOT EXISTS (SELECT 1 FROM addresses)').pluck().get() === 1 ? new SeenIdentities() : undefined;
  // It also builds the indexes no statement of the import reads (postcode, spatial) at its end, in
  // one sorted pass each, instead of an insert into each per row: 9-10 → 5 CPU s for 1M rows. In
  // the transaction, so a failed import rolls their drop back and readers never miss them.
  const deferred = seen ? (db.prepare(`SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'addresses' AND name IN (${DEFERRED.map(() => '?').join(', ')})`).all(...DEFERRED) as { name: string; sql: string }[]) : [];
  for (const { name } of deferred) db.exec(`DROP INDEX ${name}`);
  let open = true;
  /** Whether this import changed any address: only then do the touched countries' generations move on. */
  let changedAny = false;

  return {
    importId,
    sqlite: db,
    async write(rows: AddressInput[]) {
      const out: BatchOutcome = { imported: 0, updated: 0, unchanged: 0, duplicates: [] };
      const values: unknown[] = [];
      // Streets above this id are created by this call: no stored address hangs off them yet, and
      // the rows of one call cannot match each other, so a row without a source id on one is new
      // without a look-up (most rows of a first import: a file lists a street's numbers together).
      const before = lastStreet.get() as number;
      rows.forEach((r, i) => {
        const streetId = streetIdOf(r);
        let old: ExistingAddress | undefined;
        const key = seen && identityKey(r.sourceId, r.street.key, r.hnKey);
        if (!key || seen.mayHave(key)) {
          old = (r.sourceId ? bySource.get(r.sourceId) : streetId > before ? undefined : byAddress.get(streetId, r.hnKey)) as ExistingAddress | undefined;
        }
        if (key) seen.add(key);
        const units = r.units ?? null;
        if (!old) {
          values.push(r.sourceId, streetId, r.hn, r.hnKey, r.hnBase, r.postcode, r.pcKey, r.lat, r.lng, units, importId);
          if (values.length === INSERT_ROWS * COLUMNS) insertMany.run(values.splice(0));
          out.imported++;
        } else if (old.importId === importId) {
          // A row of a house an earlier batch wrote that names another of its units adds the unit; else it repeats the house.
          const merged = mergePackedUnits(old.units, units);
          if (merged !== old.units) setUnits.run(merged, old.id);
          else out.duplicates.push(i);
        } else if (changed(old, r, streetId)) {
          update.run(streetId, r.hn, r.hnKey, r.hnBase, r.postcode, r.pcKey, r.lat, r.lng, units, importId, old.id);
          out.updated++;
        } else {
          touch.run(importId, old.id);
          out.unchanged++;
        }
      });
      for (let i = 0; i < values.length; i += COLUMNS) insert.run(values.slice(i, i + COLUMNS));
      if (out.imported + out.updated > 0) changedAny = true;
      return out;
    },
    async remove(sourceIds: string[]) {
      const ids = JSON.stringify(sourceIds);
      const countries = db
        .prepare('SELECT DISTINCT s.country FROM addresses a JOIN streets s ON s.id = a.street_id WHERE a.source_id IN (SELECT value FROM json_each(?))')
        .pluck()
        .all(ids) as string[];
      const removed = db.prepare('DELETE FROM addresses WHERE source_id IN (SELECT value FROM json_each(?))').run(ids).changes;
      if (removed > 0) changedAny = true;
      return { removed, countries };
    },
    async finish(countries: string[], replace: boolean, record?: CommitRecord, beforeCommit?: () => Promise<void>) {
      let removed = 0;
      let notInFile = 0;
      for (const { sql } of deferred.splice(0)) db.exec(sql);
      const inList = countries.map(() => '?').join(', ');
      if (countries.length > 0) {
        const older = `FROM addresses WHERE import_id <> ? AND street_id IN (SELECT id FROM streets WHERE country IN (${inList}))`;
        // A first import leaves no older address: no scan of every row to find none.
        if (replace && !seen) removed = db.prepare(`DELETE ${older}`).run(importId, ...countries).changes;
        else if (record?.kind === 'import' && !seen) notInFile = db.prepare(`SELECT count(*) ${older}`).pluck().get(importId, ...countries) as number;
        if (removed > 0) changedAny = true;
        db.prepare(streetStatsSql('', inList)).run(...countries);
        refreshSqliteStreetPostcodes(db, inList, countries);
        db.prepare(`DELETE FROM streets WHERE n = 0 AND country IN (${inList})`).run(...countries);
      }
      // Merges the full-text index's segments into one, in the same transaction: an import leaves
      // dozens, and every search then probes each of them per word (half the cost of a street match).
      db.exec("INSERT INTO streets_fts (streets_fts) VALUES ('optimize')");
      const version = db.prepare("UPDATE meta SET value = value + 1 WHERE key = 'version' RETURNING value").pluck().get() as number;
      const stateOf = db.prepare(`SELECT ${COUNTRY_STATE_COLUMNS} FROM country_state WHERE country = ?`);
      const putState = db.prepare(
        `INSERT OR REPLACE INTO country_state (country, generation, covered, source, imported_at, change_file, change_at)
         VALUES (@country, @generation, @covered, @source, @importedAt, @changeFile, @changeAt)`,
      );
      for (const country of countries) {
        const old = stateOf.get(country) as (Omit<CountryState, 'covered'> & { covered: number }) | undefined;
        const next = nextCountryState(country, old && { ...old, covered: old.covered === 1 }, record, changedAny, version);
        putState.run({ ...next, covered: next.covered ? 1 : 0 });
      }
      if (record?.kind === 'import' && record.withdrawsUpdates && db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'osm_meta'").get()) {
        db.prepare("DELETE FROM osm_meta WHERE key = 'recorded'").run();
      }
      await beforeCommit?.();
      db.exec('COMMIT');
      db.pragma('optimize');
      open = false;
      onCommit();
      return { removed, notInFile };
    },
    async abort() {
      if (open && db.inTransaction) db.exec('ROLLBACK');
      open = false;
    },
  };
}
