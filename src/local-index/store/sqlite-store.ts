import Database from 'better-sqlite3';
import type { GeoPoint } from '../../contract/address.js';
import { ensureDataDir } from '../../lib/data-dir.js';
import { join } from 'node:path';
import { preparePrivateSqliteFile } from '../../store/db/private-file.js';
import { postcodeAreasQuery, addressesByPostcodeQuery, addressesOnStreetsQuery, countryFilter, NEAR_SCAN, nearArgs, nearestStreetsSql, numberedColumns, postcodeAbsentQuery, postcodeExistsQuery, sqlLimit, streetColumns, type Query } from './queries.js';
import { sqliteSampleAddress } from './sample-address.js';
import { applySqliteSchema } from './sqlite-schema.js';
import { applySqliteStreetPostcodes } from './street-postcodes.js';
import { beginSqliteImport } from './sqlite-import.js';
import { applySqliteSpatial, sqliteNearest } from './sqlite-spatial.js';
import { addressesByIdSql } from './nearest.js';
import { ftsQuery, matchesTerms, toAddressHit, toStreetHit, withNumbers, type AddressRow, type NumberedRow, type StreetRow } from './rows.js';
import { COUNTRY_STATE_COLUMNS, toSnapshot } from './country-state.js';
import { MAX_COMPLETIONS, NUMBERED_PER_STREET, typosWanted, type CountryState, type IndexSnapshot, type IndexStore, type StreetHit, type WordQuery, type WordResolution } from './store.js';
import { PostcodeCache } from './postcode-cache.js';
import { Vocabulary } from './vocabulary.js';

export const SQLITE_INDEX_FILE = 'local-index.sqlite';

/** Prefix lengths FTS5 keeps a prefix index for (`prefix = '1 2 3 4 5'` in sqlite-schema.ts). */
const INDEXED_PREFIX = 5;
/** A narrowed street search starts from the words' match when one word is in at most this many streets. */
const MATCH_DRIVES = 200;

/** The SQLite index: its own file under DATA_DIR, FTS5 over streets, an in-memory vocabulary for typos. */
export function openSqliteStore(dataDir: string): IndexStore {
  ensureDataDir(dataDir);
  const file = join(dataDir, SQLITE_INDEX_FILE);
  preparePrivateSqliteFile(file);
  const db = new Database(file);
  applySqliteSchema(db);
  applySqliteStreetPostcodes(db);
  applySqliteSpatial(db);
  // Statements vary only by the number of ids and the filters used, so a small cache covers them all.
  const statements = new Map<string, Database.Statement>();
  const stmt = (sql: string): Database.Statement => {
    let s = statements.get(sql);
    if (!s) statements.set(sql, (s = db.prepare(sql)));
    return s;
  };
  const all = <T>(q: Query) => stmt(q.sql).all(...q.args) as T[];
  const readVersion = () => stmt("SELECT value FROM meta WHERE key = 'version'").pluck().get() as number;
  /**
   * The version, read at most once per macrotask: a row's lookup asks for the vocabulary several
   * times, each a statement. Forgotten at the next turn of the event loop (and at this process's
   * own commit), so a lookup that starts after another process's import has finished (the caller
   * awaited its exit, an I/O event) still reads the new version.
   */
  let versionNow: number | undefined;
  const forgetVersion = () => {
    versionNow = undefined;
  };
  const version = (): number => {
    if (versionNow === undefined) {
      versionNow = readVersion();
      setImmediate(forgetVersion);
    }
    return versionNow;
  };
  let vocab: { version: number; words: Vocabulary } | undefined;
  const stateRows = stmt('SELECT country, generation, covered FROM country_state');
  const heldCountries = stmt('SELECT DISTINCT country FROM streets WHERE n > 0 ORDER BY country').pluck();
  let snapshot: IndexSnapshot | undefined;
  /** The country states, read again only when the version (read at most once per macrotask) moved. */
  const snapshotNow = (): IndexSnapshot => {
    const v = version();
    if (snapshot?.version !== v) {
      snapshot = toSnapshot(v, stateRows.all() as { country: string; generation: number; covered: number }[], heldCountries.all() as string[]);
    }
    return snapshot;
  };
  const postcodes = new PostcodeCache();
  let postcodesVersion = -1;
  // The vocabulary and the known postcodes follow imports made by any process (the CLI imports while the server runs).
  const vocabulary = (): Vocabulary => {
    const v = version();
    if (!vocab || vocab.version !== v) {
      const rows = stmt('SELECT term, doc FROM streets_vocab').all() as { term: string; doc: number }[];
      vocab = { version: v, words: new Vocabulary(rows.map((r) => r.term), new Map(rows.map((r) => [r.term, r.doc]))) };
    }
    return vocab.words;
  };
  /**
   * FTS5 answers a prefix longer than its prefix index by merging the whole doclist of every word
   * it completes to before the first row (`hauptstr*`: every Hauptstraße of the country, whatever
   * the LIMIT); the same words as an OR of exact terms are read lazily, up to the LIMIT. Only
   * plain letters and digits: the vocabulary holds the tokenizer's folded forms.
   */
  const bounded = (terms: WordQuery[][]): WordQuery[][] =>
    terms.map((alts) =>
      alts.flatMap((a) => {
        if (!a.prefix || a.word.length <= INDEXED_PREFIX || !/^[a-z0-9]+$/.test(a.word)) return [a];
        const words = vocabulary().completions(a.word, MAX_COMPLETIONS);
        return words && words.length > 0 ? words.map((word) => ({ word, prefix: false })) : [a];
      }),
    );
  const postcodeExists = (key: string, prefix: boolean, country: string | undefined) => {
    const v = version();
    if (v !== postcodesVersion) {
      postcodes.clear();
      postcodesVersion = v;
    }
    return postcodes.exists(key, prefix, country, () => all(postcodeExistsQuery('', key, prefix, country)).length > 0);
  };

  /**
   * How many streets hold the rarest term (summed over its alternatives): what decides whether
   * the match or an address index drives a narrowed search.
   */
  const fewestStreets = (terms: WordQuery[][]): number => {
    const v = vocabulary();
    return Math.min(...terms.map((alts) => alts.reduce((sum, a) => sum + v.streetsWith(a.word, a.prefix), 0)));
  };

  /** Streets matching every term; see `IndexStore.findStreets`. */
  const findStreets = async (terms: WordQuery[][], country: string | undefined, limit: number, hnKey?: string, inPostcode?: string, near?: GeoPoint): Promise<StreetHit[]> => {
    if (terms.length === 0) return [];
    if (hnKey !== undefined && inPostcode !== undefined) {
      // Words in few streets (a rare name, a town's name): the match drives, each street checked
      // for the number in the postcode. Words in many (Hauptstraße alone): the (postcode, number)
      // index drives, and the dozens of streets it names are checked against the words as read
      // from their rows (matchesTerms). Not with FTS5 per street: a prefix beyond the prefix index
      // with many completions (`riedbe*`, a town being typed) merged every completion's doclist for
      // each street checked: 45-230 ms a keystroke at 30M addresses.
      const rows =
        fewestStreets(terms) <= MATCH_DRIVES
          ? all<NumberedRow>({
              sql: `SELECT ${streetColumns}, ${numberedColumns} FROM streets_fts f JOIN streets s ON s.id = f.rowid
                    JOIN addresses a ON a.street_id = s.id AND a.hn_key = ?
                    WHERE streets_fts MATCH ? AND s.n > 0 AND ${countryFilter}
                      AND EXISTS (SELECT 1 FROM addresses p WHERE p.street_id = s.id AND p.hn_key = ? AND p.pc_key = ?)
                    ORDER BY s.id, a.id LIMIT ${sqlLimit(limit * NUMBERED_PER_STREET)}`,
              args: [hnKey, ftsQuery(bounded(terms)), country ?? null, country ?? null, hnKey, inPostcode],
            })
          : all<NumberedRow>({
              sql: `SELECT ${streetColumns}, ${numberedColumns} FROM addresses p JOIN streets s ON s.id = p.street_id
                    JOIN addresses a ON a.street_id = s.id AND a.hn_key = ?
                    WHERE p.pc_key = ? AND p.hn_key = ? AND s.n > 0 AND ${countryFilter}
                    ORDER BY s.id, a.id, p.id`,
              args: [hnKey, inPostcode, hnKey, country ?? null, country ?? null],
            })
              .filter((r) => matchesTerms(r, terms))
              .slice(0, limit * NUMBERED_PER_STREET);
      return withNumbers(rows, NUMBERED_PER_STREET).slice(0, limit);
    }
    const match = `SELECT ${streetColumns} FROM streets_fts f JOIN streets s ON s.id = f.rowid
            WHERE streets_fts MATCH ? AND s.n > 0 AND ${countryFilter} LIMIT ${sqlLimit(near ? NEAR_SCAN : limit)}`;
    const args = [ftsQuery(bounded(terms)), country ?? null, country ?? null];
    const rows = all<StreetRow>(near ? { sql: nearestStreetsSql(match, limit), args: [...args, ...nearArgs(near)] } : { sql: match, args });
    return rows.map(toStreetHit);
  };

  return {
    kind: 'sqlite',
    async version() {
      return readVersion();
    },
    snapshot: snapshotNow,
    async countryStates() {
      const rows = stmt(
        `SELECT ${COUNTRY_STATE_COLUMNS},
                (SELECT count(*) FROM addresses a JOIN streets s ON s.id = a.street_id WHERE s.country = country_state.country) AS addresses
         FROM country_state ORDER BY country`,
      ).all() as (Omit<CountryState, 'covered'> & { covered: number; addresses: number })[];
      return rows.map((r) => ({ ...r, covered: r.covered === 1 }));
    },
    async count() {
      return stmt('SELECT count(*) FROM addresses').pluck().get() as number;
    },
    async sampleAddress(country) {
      return sqliteSampleAddress(db, country);
    },
    async beginImport() {
      return beginSqliteImport(db, () => {
        versionNow = undefined;
        vocab = undefined;
      });
    },
    async lookUp({ words, postcodes: keys, postcodePrefixes, country }) {
      const v = vocabulary();
      const known = words.map(({ word, prefix }) => (prefix ? v.hasPrefix(word) : v.has(word)));
      const typos = typosWanted(words, (i) => known[i]!);
      const resolved = words.map(({ word, prefix }, i): WordResolution => ({ known: known[i]!, fuzzy: typos[i] ? v.fuzzy(word, prefix) : [] }));
      const postcodes = new Set<string>();
      for (const k of keys) if (await postcodeExists(k, false, country)) postcodes.add(k);
      const prefixes: boolean[] = [];
      for (const p of postcodePrefixes) prefixes.push(await postcodeExists(p, true, country));
      return { words: resolved, postcodes, postcodePrefixes: prefixes };
    },
    findStreets,
    // In process, a statement is no round trip: one after the other.
    async findStreetsEach(variants, country, limit, near) {
      const out: StreetHit[][] = [];
      for (const terms of variants) out.push(await findStreets(terms, country, limit, undefined, undefined, near));
      return out;
    },
    async findStreetsInPostcode(terms, country, limit, pcKey) {
      if (terms.length === 0) return [];
      // As in findStreets narrowed by number: the match drives when one word is in few streets,
      // else the postcode's streets (tens) are each checked against the words (matchesTerms).
      const rows =
        fewestStreets(terms) <= MATCH_DRIVES
          ? all<StreetRow>({
              sql: `SELECT ${streetColumns} FROM streets_fts f JOIN streets s ON s.id = f.rowid
                    WHERE streets_fts MATCH ? AND s.n > 0 AND ${countryFilter}
                      AND EXISTS (SELECT 1 FROM street_postcodes sp WHERE sp.pc_key = ? AND sp.street_id = s.id)
                    ORDER BY s.id LIMIT ${sqlLimit(limit)}`,
              args: [ftsQuery(bounded(terms)), country ?? null, country ?? null, pcKey],
            })
          : all<StreetRow>({
              sql: `SELECT ${streetColumns} FROM street_postcodes sp JOIN streets s ON s.id = sp.street_id
                    WHERE sp.pc_key = ? AND s.n > 0 AND ${countryFilter}
                    ORDER BY s.id`,
              args: [pcKey, country ?? null, country ?? null],
            })
              .filter((r) => matchesTerms(r, terms))
              .slice(0, limit);
      return rows.map(toStreetHit);
    },
    async addressesOnStreets(streetIds, hn, limit) {
      if (streetIds.length === 0) return [];
      return all<AddressRow>(addressesOnStreetsQuery('', streetIds, hn, limit)).map(toAddressHit);
    },
    async postcodeAreas(pc, country, limit) {
      const rows = await all<{ pc_key: string; postcode: string | null; country: string; city: string | null; state: string | null; lat: number; lng: number; n: number | string }>(
        postcodeAreasQuery('', pc, country, limit),
      );
      return rows.map((r) => ({ postcode: r.postcode ?? r.pc_key, country: r.country, city: r.city, state: r.state, lat: Number(r.lat), lng: Number(r.lng), n: Number(r.n) }));
    },
    async streetsNotInPostcode(streetIds, pcKey) {
      if (streetIds.length === 0) return [];
      return all<{ id: number }>(postcodeAbsentQuery('', streetIds, pcKey)).map((r) => Number(r.id));
    },
    async addressesByPostcode(pc, hn, country, limit) {
      return all<AddressRow>(addressesByPostcodeQuery('', pc, hn, country, limit)).map(toAddressHit);
    },
    async nearest(center, radiusM, limit) {
      const found = sqliteNearest(db, center, radiusM, limit);
      if (found.length === 0) return [];
      const rows = new Map(all<AddressRow & { a_id: number }>({ sql: addressesByIdSql('', found.length), args: found.map((f) => f.id) }).map((r) => [Number(r.a_id), r]));
      return found.flatMap((f) => {
        const row = rows.get(f.id);
        return row ? [{ ...toAddressHit(row), id: f.id, distanceM: f.distanceM }] : [];
      });
    },
    async close() {
      db.close();
    },
  };
}
