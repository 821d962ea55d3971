import type Database from 'better-sqlite3';
import type { AddressInput, ExistingAddress, ImportSession, StreetInput } from './store.js';

/**
 * One import as one SQLite write transaction: readers (the server) keep seeing the old
 * index through WAL until it commits, and a failure rolls everything back.
 */
export function beginSqliteImport(db: Database.Database, onCommit: () => void): ImportSession {
  db.exec('BEGIN IMMEDIATE');
  const importId = (db.prepare("UPDATE meta SET value = value + 1 WHERE key = 'import_seq' RETURNING value").get() as { value: number }).value;
  const upsertStreet = db.prepare(
    `INSERT INTO streets (skey, country, street, city, state, street_words, city_words) VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (skey) DO UPDATE SET state = coalesce(streets.state, excluded.state) RETURNING id`,
  );
  const columns = 'id, import_id AS importId, street_id AS streetId, hn, postcode, lat, lng';
  const bySource = db.prepare(`SELECT ${columns} FROM addresses WHERE source_id = ?`);
  const byAddress = db.prepare(`SELECT ${columns} FROM addresses WHERE street_id = ? AND hn_key = ? AND source_id IS NULL LIMIT 1`);
  const insert = db.prepare(
    'INSERT INTO addresses (source_id, street_id, hn, hn_key, hn_base, postcode, pc_key, lat, lng, import_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const update = db.prepare(
    'UPDATE addresses SET street_id = ?, hn = ?, hn_key = ?, hn_base = ?, postcode = ?, pc_key = ?, lat = ?, lng = ?, import_id = ? WHERE id = ?',
  );
  const touch = db.prepare('UPDATE addresses SET import_id = ? WHERE id = ?');
  let open = true;

  return {
    importId,
    async streetIds(streets: StreetInput[]) {
      return streets.map(
        (s) => (upsertStreet.get(s.key, s.country, s.street, s.city, s.state, s.streetWords, s.cityWords) as { id: number }).id,
      );
    },
    async existing(rows: AddressInput[]) {
      return rows.map(
        (r) => (r.sourceId ? bySource.get(r.sourceId) : byAddress.get(r.streetId, r.hnKey)) as ExistingAddress | undefined,
      );
    },
    async insert(rows: AddressInput[]) {
      for (const r of rows) insert.run(r.sourceId, r.streetId, r.hn, r.hnKey, r.hnBase, r.postcode, r.pcKey, r.lat, r.lng, importId);
    },
    async update(rows: { id: number; row: AddressInput }[]) {
      for (const { id, row: r } of rows) update.run(r.streetId, r.hn, r.hnKey, r.hnBase, r.postcode, r.pcKey, r.lat, r.lng, importId, id);
    },
    async touch(ids: number[]) {
      for (const id of ids) touch.run(importId, id);
    },
    async finish(countries: string[], replace: boolean) {
      let removed = 0;
      const inList = countries.map(() => '?').join(', ');
      if (countries.length > 0) {
        if (replace) {
          removed = db
            .prepare(`DELETE FROM addresses WHERE import_id <> ? AND street_id IN (SELECT id FROM streets WHERE country IN (${inList}))`)
            .run(importId, ...countries).changes;
        }
        // Statistics per street: size (ranking), centre (street-level hits), the postcode when it has only one.
        db.prepare(
          `UPDATE streets SET (n, lat, lng, postcode) = (
             SELECT count(*), avg(a.lat), avg(a.lng), CASE WHEN min(a.postcode) = max(a.postcode) THEN min(a.postcode) END
             FROM addresses a WHERE a.street_id = streets.id)
           WHERE country IN (${inList})`,
        ).run(...countries);
        db.prepare(`DELETE FROM streets WHERE n = 0 AND country IN (${inList})`).run(...countries);
      }
      db.prepare("UPDATE meta SET value = value + 1 WHERE key = 'version'").run();
      db.exec('COMMIT');
      db.pragma('optimize');
      open = false;
      onCommit();
      return removed;
    },
    async abort() {
      if (open && db.inTransaction) db.exec('ROLLBACK');
      open = false;
    },
  };
}
