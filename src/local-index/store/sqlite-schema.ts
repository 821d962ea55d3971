import type Database from 'better-sqlite3';

/**
 * Schema of the SQLite index file. Streets (street + city) carry the full-text index;
 * addresses hang off them with a house-number key and a postcode key, both B-tree indexed.
 * The FTS table uses external content, kept in sync by triggers on the word columns only,
 * so refreshing street statistics does not rewrite the full-text index.
 */
export function applySqliteSchema(db: Database.Database): void {
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('temp_store = MEMORY');
  db.pragma('cache_size = -65536');
  db.pragma('mmap_size = 268435456');
  db.exec(`
    CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL);
    INSERT OR IGNORE INTO meta (key, value) VALUES ('version', 0), ('import_seq', 0);
    CREATE TABLE IF NOT EXISTS streets (
      id INTEGER PRIMARY KEY,
      skey TEXT NOT NULL UNIQUE,
      country TEXT NOT NULL,
      street TEXT NOT NULL,
      city TEXT,
      municipality TEXT,
      state TEXT,
      street_words TEXT NOT NULL,
      city_words TEXT NOT NULL,
      n INTEGER NOT NULL DEFAULT 0,
      lat REAL,
      lng REAL,
      postcode TEXT
    );
    CREATE INDEX IF NOT EXISTS streets_country ON streets (country);
    CREATE VIRTUAL TABLE IF NOT EXISTS streets_fts USING fts5 (
      street_words, city_words,
      content = 'streets', content_rowid = 'id',
      tokenize = "unicode61 remove_diacritics 2",
      prefix = '1 2 3 4 5'
    );
    CREATE VIRTUAL TABLE IF NOT EXISTS streets_vocab USING fts5vocab (streets_fts, 'row');
    CREATE TRIGGER IF NOT EXISTS streets_ai AFTER INSERT ON streets BEGIN
      INSERT INTO streets_fts (rowid, street_words, city_words) VALUES (new.id, new.street_words, new.city_words);
    END;
    CREATE TRIGGER IF NOT EXISTS streets_ad AFTER DELETE ON streets BEGIN
      INSERT INTO streets_fts (streets_fts, rowid, street_words, city_words) VALUES ('delete', old.id, old.street_words, old.city_words);
    END;
    CREATE TRIGGER IF NOT EXISTS streets_au AFTER UPDATE OF street_words, city_words ON streets BEGIN
      INSERT INTO streets_fts (streets_fts, rowid, street_words, city_words) VALUES ('delete', old.id, old.street_words, old.city_words);
      INSERT INTO streets_fts (rowid, street_words, city_words) VALUES (new.id, new.street_words, new.city_words);
    END;
    CREATE TABLE IF NOT EXISTS addresses (
      id INTEGER PRIMARY KEY,
      source_id TEXT,
      street_id INTEGER NOT NULL,
      hn TEXT NOT NULL,
      hn_key TEXT NOT NULL,
      hn_base INTEGER,
      postcode TEXT,
      pc_key TEXT,
      lat REAL NOT NULL,
      lng REAL NOT NULL,
      import_id INTEGER NOT NULL,
      units TEXT
    );
    CREATE INDEX IF NOT EXISTS addresses_street ON addresses (street_id, hn_key);
    CREATE UNIQUE INDEX IF NOT EXISTS addresses_source ON addresses (source_id) WHERE source_id IS NOT NULL;
    CREATE INDEX IF NOT EXISTS addresses_postcode ON addresses (pc_key, hn_key) WHERE pc_key IS NOT NULL;
  `);
  // Index files written before streets knew their municipality gain the column (null until re-imported).
  const columns = db.prepare("SELECT name FROM pragma_table_info('streets')").pluck().all() as string[];
  if (!columns.includes('municipality')) db.exec('ALTER TABLE streets ADD COLUMN municipality TEXT');
  // Index files written before addresses knew their units gain the column (null: no units known until re-imported).
  const addressColumns = db.prepare("SELECT name FROM pragma_table_info('addresses')").pluck().all() as string[];
  if (!addressColumns.includes('units')) db.exec('ALTER TABLE addresses ADD COLUMN units TEXT');
}
