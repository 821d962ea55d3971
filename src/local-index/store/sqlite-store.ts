import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { applySqliteSchema } from './sqlite-schema.js';
import { beginSqliteImport } from './sqlite-import.js';
import { ADDRESS_COLUMNS, ftsQuery, STREET_COLUMNS, toAddressHit, toStreetHit, type AddressRow, type StreetRow } from './sqlite-rows.js';
import {
  PREFIX_END,
  type HouseNumberFilter,
  type IndexStore,
  type PostcodeFilter,
  type WordQuery,
  type WordResolution,
} from './store.js';
import { Vocabulary } from './vocabulary.js';

export const SQLITE_INDEX_FILE = 'local-index.sqlite';

/** House-number filter as SQL; `order` puts the exact key first, then 1, 2, 10 rather than 1, 10, 2. */
export function hnClause(hn: HouseNumberFilter | undefined): { sql: string; args: unknown[]; order: string; orderArgs: unknown[] } {
  if (!hn) return { sql: '', args: [], order: 'a.hn_base, a.hn_key', orderArgs: [] };
  if ('base' in hn) return { sql: ' AND a.hn_base = ?', args: [hn.base], order: 'a.hn_key', orderArgs: [] };
  if (!hn.prefix) return { sql: ' AND a.hn_key = ?', args: [hn.key], order: 'a.id', orderArgs: [] };
  return { sql: ' AND a.hn_key >= ? AND a.hn_key < ?', args: [hn.key, hn.key + PREFIX_END], order: '(a.hn_key = ?) DESC, a.hn_base, a.hn_key', orderArgs: [hn.key] };
}

export function openSqliteStore(dataDir: string): IndexStore {
  mkdirSync(dataDir, { recursive: true });
  const db = new Database(join(dataDir, SQLITE_INDEX_FILE));
  applySqliteSchema(db);
  const versionStmt = db.prepare("SELECT value FROM meta WHERE key = 'version'").pluck();
  const vocabStmt = db.prepare('SELECT term FROM streets_vocab').pluck();
  const postcodeStmt = db.prepare(
    'SELECT 1 FROM addresses a JOIN streets s ON s.id = a.street_id WHERE a.pc_key = ? AND (? IS NULL OR s.country = ?) LIMIT 1',
  );
  const postcodePrefixStmt = db.prepare(
    'SELECT 1 FROM addresses a JOIN streets s ON s.id = a.street_id WHERE a.pc_key >= ? AND a.pc_key < ? AND (? IS NULL OR s.country = ?) LIMIT 1',
  );
  let vocab: { version: number; words: Vocabulary } | undefined;
  // Statements vary only by the number of ids and the filters used, so a small cache covers them all.
  const statements = new Map<string, Database.Statement>();
  const stmt = (sql: string): Database.Statement => {
    let s = statements.get(sql);
    if (!s) statements.set(sql, (s = db.prepare(sql)));
    return s;
  };

  const currentVersion = () => versionStmt.get() as number;
  // The vocabulary follows imports made by any process (the CLI imports while the server runs).
  const vocabulary = (): Vocabulary => {
    const version = currentVersion();
    if (!vocab || vocab.version !== version) vocab = { version, words: new Vocabulary(vocabStmt.all() as string[]) };
    return vocab.words;
  };

  return {
    kind: 'sqlite',
    async version() {
      return currentVersion();
    },
    async countries() {
      return db.prepare('SELECT DISTINCT country FROM streets WHERE n > 0 ORDER BY country').pluck().all() as string[];
    },
    async count() {
      return db.prepare('SELECT count(*) FROM addresses').pluck().get() as number;
    },
    async beginImport() {
      return beginSqliteImport(db, () => {
        vocab = undefined;
      });
    },
    async resolveWords(words: WordQuery[]): Promise<WordResolution[]> {
      const v = vocabulary();
      return words.map(({ word, prefix }) => {
        const known = prefix ? v.hasPrefix(word) : v.has(word);
        return { known, fuzzy: known ? [] : v.fuzzy(word, prefix) };
      });
    },
    async findStreets(terms, country, limit) {
      if (terms.length === 0) return [];
      const rows = stmt(
          `SELECT ${STREET_COLUMNS} FROM streets_fts f JOIN streets s ON s.id = f.rowid
           WHERE streets_fts MATCH ? AND s.n > 0 AND (? IS NULL OR s.country = ?) LIMIT ?`,
      ).all(ftsQuery(terms), country ?? null, country ?? null, limit) as StreetRow[];
      return rows.map(toStreetHit);
    },
    async addressesOnStreets(streetIds, hn, limit) {
      if (streetIds.length === 0) return [];
      const c = hnClause(hn);
      const rows = stmt(
          `SELECT ${ADDRESS_COLUMNS} FROM addresses a JOIN streets s ON s.id = a.street_id
           WHERE a.street_id IN (${streetIds.map(() => '?').join(', ')})${c.sql} ORDER BY ${c.order} LIMIT ?`,
      ).all(...streetIds, ...c.args, ...c.orderArgs, limit) as AddressRow[];
      return rows.map(toAddressHit);
    },
    async addressesByPostcode(pc: PostcodeFilter, hn, country, limit) {
      const c = hnClause(hn);
      const pcSql = pc.prefix ? 'a.pc_key >= ? AND a.pc_key < ?' : 'a.pc_key = ?';
      const pcArgs = pc.prefix ? [pc.key, pc.key + PREFIX_END] : [pc.key];
      const rows = stmt(
          `SELECT ${ADDRESS_COLUMNS} FROM addresses a JOIN streets s ON s.id = a.street_id
           WHERE ${pcSql}${c.sql} AND (? IS NULL OR s.country = ?) ORDER BY ${hn ? `${c.order}, a.pc_key` : `a.pc_key, ${c.order}`} LIMIT ?`,
      ).all(...pcArgs, ...c.args, country ?? null, country ?? null, ...c.orderArgs, limit) as AddressRow[];
      return rows.map(toAddressHit);
    },
    async knownPostcodes(keys, country) {
      return new Set(keys.filter((k) => postcodeStmt.get(k, country ?? null, country ?? null) !== undefined));
    },
    async hasPostcodePrefix(prefix, country) {
      return postcodePrefixStmt.get(prefix, prefix + PREFIX_END, country ?? null, country ?? null) !== undefined;
    },
    async close() {
      db.close();
    },
  };
}
