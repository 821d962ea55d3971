import type Database from 'better-sqlite3';

/**
 * How much of the index file SQLite reads through a memory map rather than read() into its page
 * cache: all of it up to SQLite's compiled limit (SQLITE_MAX_MMAP_SIZE, 0x7fff0000 in
 * better-sqlite3's build). A keystroke touches pages all over the file; a page past the map is a
 * system call and a copy, one inside it a pointer into the OS page cache. With 256 MiB, a
 * country-sized index (1M addresses: 357 MiB) read its tail the slow way: the first keystrokes
 * after a start or an import were 20-35 % slower (docs/benchmarks.md, issue 37's ninth session).
 * Only address space: pages count as the process's memory once read, and stay the OS's to drop.
 */
const MMAP_BYTES = 0x7fff0000;

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
  db.pragma(`mmap_size = ${MMAP_BYTES}`);
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
  // Index files written before country states count every country they hold as imported for
  // (what coverage meant then), at the current generation.
  const hadStates = db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'country_state'").get() !== undefined;
  db.exec(`CREATE TABLE IF NOT EXISTS country_state (
    country TEXT PRIMARY KEY, generation INTEGER NOT NULL, covered INTEGER NOT NULL DEFAULT 0,
    source TEXT, imported_at TEXT, change_file TEXT, change_at TEXT
  )`);
  if (!hadStates) {
    db.exec(`INSERT OR IGNORE INTO country_state (country, generation, covered)
             SELECT DISTINCT country, (SELECT value FROM meta WHERE key = 'version'), 1 FROM streets WHERE n > 0`);
  }
  // Index files written before streets knew their municipality gain the column (null until re-imported).
  const columns = db.prepare("SELECT name FROM pragma_table_info('streets')").pluck().all() as string[];
  if (!columns.includes('municipality')) db.exec('ALTER TABLE streets ADD COLUMN municipality TEXT');
  // Index files written before addresses knew their units gain the column (null: no units known until re-imported).
  const addressColumns = db.prepare("SELECT name FROM pragma_table_info('addresses')").pluck().all() as string[];
  if (!addressColumns.includes('units')) db.exec('ALTER TABLE addresses ADD COLUMN units TEXT');
}
