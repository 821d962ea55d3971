import type Database from 'better-sqlite3';
import type { GeoPoint, InferredComponent } from '../../contract/address.js';
import { postcodeDigits } from '../../address/postcode.js';
import { mayHaveTypo } from '../fuzzy.js';
import type { SampleAddress } from './sample-address.js';
import type { LatLng } from '../../lib/sphere.js';

/**
 * What the importer and the search need from a database. Two implementations: SQLite
 * (FTS5 + an in-memory vocabulary) and PostgreSQL (tsvector + pg_trgm). Everything above
 * this interface (normalization, query interpretation, ranking) is shared, so both
 * backends answer the same queries the same way.
 */

/** Joins the places of `municipality` (no place name contains it: OSM's `is_in` separates names with it). */
export const PLACES_SEPARATOR = ';';

/** A street of one city: the unit the full-text index searches; addresses hang off it. */
export interface StreetInput {
  key: string;
  country: string;
  street: string;
  city: string | null;
  /**
   * The other places around the street a resident may write as its town, joined by PLACES_SEPARATOR:
   * its municipality when that differs from `city` (a village's municipality) first, then the other
   * admin levels and `is_in` names of the first address imported on it; null when there are none.
   */
  municipality: string | null;
  state: string | null;
  /** Space-separated index tokens of the street name and of the city (and municipality). */
  streetWords: string;
  cityWords: string;
}

/** One address to import: its street and its index keys. */
export interface AddressInput {
  /** Source identity (an OSM element); null when the address itself is the identity (street + house number). */
  sourceId: string | null;
  street: StreetInput;
  hn: string;
  hnKey: string;
  hnBase: number | null;
  postcode: string | null;
  pcKey: string | null;
  lat: number;
  lng: number;
  /** The house's units this row lists, packed (`units.ts`); null or absent for none. */
  units?: string | null;
}

/** What one batch did. */
export interface BatchOutcome {
  imported: number;
  updated: number;
  unchanged: number;
  /** Positions (in the batch) of rows whose identity this same import already wrote in an earlier batch. */
  duplicates: number[];
}

/**
 * Two stored coordinates closer than this (degrees, about 1 cm) are the same point: a
 * re-import of the same file changes nothing. Both backends apply this rule, SQLite in
 * JavaScript, PostgreSQL in SQL.
 */
export const SAME_COORDINATE = 1e-7;

/** A prefix is searched as the OR of the words it completes to when they are at most this many (both stores and the PostgreSQL search function). */
export const MAX_COMPLETIONS = 16;

/** One import, inside one transaction: nothing is visible, and nothing changes, unless `finish` is reached. */
export interface ImportSession {
  readonly importId: number;
  /**
   * SQLite: the import's connection, its transaction open. The OSM update state recorded beside
   * the import (update/record-alongside.ts) writes through it, so it commits with the import
   * (SQLite has one writer a file: a second connection would wait for this commit).
   */
  readonly sqlite?: Database.Database;
  /**
   * Writes one batch of rows with distinct identities, in order after the batches before it:
   * a new address is inserted, a changed one updated, an unchanged one marked as seen by this
   * import (for `--replace` and duplicate detection). The store resolves street ids itself.
   */
  write(rows: AddressInput[]): Promise<BatchOutcome>;
  /** Removes the addresses with these source ids (an OSM update's deleted elements): how many, and their countries. */
  remove(sourceIds: string[]): Promise<{ removed: number; countries: string[] }>;
  /**
   * Refreshes street statistics, applies `replace`, records `record` for each of `countries`
   * (store/country-state.ts: a changed country's data generation moves on, in this same commit)
   * and commits; `beforeCommit` runs last in the transaction (what is written beside the import).
   */
  finish(countries: string[], replace: boolean, record?: CommitRecord, beforeCommit?: () => Promise<void>): Promise<FinishOutcome>;
  abort(): Promise<void>;
}

/** What a commit records of the countries it touched: a full import of a file, or a change file applied. */
export type CommitRecord =
  | {
      kind: 'import';
      file: string;
      at: string;
      covered: readonly string[];
      /**
       * An OpenStreetMap extract: the recorded update state (update/) no longer matches the index
       * once this commits, so it is withdrawn in the same commit, never before: a file that fails
       * to read (a typo, a truncated download) leaves the index and the update chain as they were.
       */
      withdrawsUpdates: boolean;
    }
  | { kind: 'change'; file: string; at: string };

export interface FinishOutcome {
  /** Addresses `replace` removed. */
  removed: number;
  /** Without `replace`, after a full import: the countries' addresses the file no longer holds (kept). */
  notInFile: number;
}

/** One country of the index as its imports left it (`country_state` / `local_country_state`). */
export interface CountryState {
  country: string;
  /** Moves on with every commit that changed the country's addresses: part of the cache key of answers `local` gave. */
  generation: number;
  /** An import was made for the country (not merely some of its addresses came along): see country-state.ts. */
  covered: boolean;
  source: string | null;
  importedAt: string | null;
  changeFile: string | null;
  changeAt: string | null;
}

/** What the hot path needs of the country states, held in memory (IndexStore.snapshot). */
export interface IndexSnapshot {
  /** The whole index's generation (`meta.version`): for a query naming no country. */
  version: number;
  generations: ReadonlyMap<string, number>;
  covered: readonly string[];
  /** The countries the index holds addresses of (spill-over included): what it can search. */
  countries: readonly string[];
}

export interface WordQuery {
  word: string;
  prefix: boolean;
}

/**
 * A word to look up: one reading of a typed word (`Nauostr` is read as itself and as the
 * abbreviation `nauostrasse`; a whole word also as a prefix, `Keizersgr`).
 */
export interface WordLookUp extends WordQuery {
  /** Which typed word it reads: the readings of one typed word share it. */
  term: number;
  /**
   * Whether its typo candidates are of use: a reading as itself, not as an abbreviation. The
   * search uses a typed word's candidates only when none of these readings exists, so a store
   * looks for them (`typosWanted`) only then: at 10M addresses on PostgreSQL, candidates for
   * `nauostrasse` beside the existing `nauostr` cost 17-27 ms a keystroke (4,089 trigram matches).
   */
  typos: boolean;
}

/** How one typed word exists in the index: as itself (or as a prefix), else as typo candidates. */
export interface WordResolution {
  known: boolean;
  /** Typo candidates; empty where they are of no use (see `WordLookUp.typos`). */
  fuzzy: string[];
}

/** Which look-ups need typo candidates, given which exist: see `WordLookUp.typos`. */
export function typosWanted(words: WordLookUp[], known: (i: number) => boolean): boolean[] {
  const found = new Set<number>();
  words.forEach((w, i) => {
    if (w.typos && known(i)) found.add(w.term);
  });
  return words.map((w, i) => w.typos && !found.has(w.term) && !known(i) && mayHaveTypo(w.word));
}

/** Everything a query's reading asks the index before any street search: its words and its postcode candidates. */
export interface LookUpInput {
  words: WordLookUp[];
  /** Candidates for a whole postcode (exact keys). */
  postcodes: string[];
  /** Candidates for a postcode still being typed (key prefixes). */
  postcodePrefixes: string[];
  country: string | undefined;
  /**
   * The street search the reading leads to, given the index's answers: a store may run it in the
   * same round trip as the look-up, on the answers the common input gets (`guessedAnswers`) when it
   * has to ask the database anyway, and answer that search from its rows when it comes with the
   * very same arguments (PostgreSQL; a wrong guess only costs the work). SQLite ignores it.
   */
  prefetch?: ((found: LookUpResult) => StreetPrefetch | undefined) | undefined;
}

/**
 * The whole postcodes of a country that are plain numbers of one length (DE `10117`, DK `1620`), or
 * undefined (NL `1012 LG` and PT `1000-001` have a 4-digit head only; GB has letters).
 */
function plainPostcodeDigits(country: string | undefined): number | undefined {
  return country === undefined || country === 'NL' || country === 'PT' ? undefined : postcodeDigits(country);
}

/**
 * The index's answers as the common input gets them: every typed word exists as typed (a number,
 * with a letter or not, `17a`, only as a house number), every whole postcode candidate is a
 * postcode, no postcode is being typed. In a country whose postcodes are plain numbers of one
 * length, only a number of that length is one (`17a`, `108` are house numbers), and a shorter one
 * typed last is one being typed (`Bahnhofpfad 22, 0167`).
 */
export function guessedAnswers(input: LookUpInput): LookUpResult {
  const digits = plainPostcodeDigits(input.country);
  const plain = (key: string, whole: boolean) => /^\d+$/.test(key) && (whole ? key.length === digits : key.length < digits!);
  const typed = input.postcodePrefixes.length;
  return {
    words: input.words.map((w) => ({ known: /\p{L}/u.test(w.word) && !/^\d/.test(w.word), fuzzy: [] })),
    postcodes: new Set(digits === undefined ? input.postcodes : input.postcodes.filter((key) => plain(key, true))),
    // The last prefix candidate is the last token alone (plan.ts: postcodeCandidates).
    postcodePrefixes: input.postcodePrefixes.map((key, i) => digits !== undefined && i === typed - 1 && plain(key, false)),
  };
}

/**
 * Where a country's postcodes are not plain numbers (guessedAnswers) and the text's numbers leave
 * it open which is the postcode, each whole candidate alone a postcode too: a house number is
 * looked up as one as well (`17a` in `Damrak 17a, 1012 LG`, which the common answers read as the
 * postcode). A store that runs the expected search beside the look-up may run it for each of these
 * readings (the same search once): a wrong guess costs a search in the same statement, a miss a
 * round trip after it. Only these: a search more on every keystroke costs the server more than the
 * round trips it saves (a postcode being typed guessed wherever a number ended the text did).
 */
export function guessedAlternatives(input: LookUpInput): LookUpResult[] {
  if (plainPostcodeDigits(input.country) !== undefined || input.postcodes.length < 2) return [];
  const common = guessedAnswers(input);
  return input.postcodes.map((key) => ({ ...common, postcodes: new Set([key]) }));
}

/** See `LookUpInput.prefetch`. */
export interface StreetPrefetch {
  /** The plan's terms if every reading of a typed word existed; the store keeps those that do. */
  terms: WordQuery[][];
  /**
   * `findStreets` with a number in a postcode (`narrowed`; with `forms`, once for each form of a
   * word being typed, as rankStreets asks) or with a number alone (`numbered`), or
   * `findStreetsEach` of the terms' forms (`forms`: the exact form of a word being typed first).
   */
  search: { kind: 'narrowed'; hnKey: string; inPostcode: string; forms: boolean } | { kind: 'numbered'; hnKey: string } | { kind: 'each'; forms: boolean };
  country: string | undefined;
  limit: number;
  /** The position the search's streets are nearest to (`findStreets`' `near`). */
  near?: GeoPoint | undefined;
  /**
   * Then `addressesOnStreets` of every street found, when they are at most `maxStreets` (they are
   * then the ranking's top ones); with `rank`, of the top `maxStreets` as `rankStreets` ranks them
   * when more were found (a name in many towns with no town typed). `inPostcode` (a narrowed
   * search): also `addressesByPostcode` of the search's postcode (exact) and number, `limit` of them.
   * `rankUpTo`: ranked only when at most that many streets were found (more: no numbers), where
   * the caller asks for numbers only then (autocomplete's fill-up after the streets it offers).
   */
  numbers?:
    | { hn: HouseNumberFilter | undefined; limit: number; maxStreets: number; rank?: StreetRanking | undefined; rankUpTo?: number | undefined; inPostcode?: boolean | undefined }
    | undefined;
}

/**
 * What of a plan `scoreStreet` reads besides the terms' readings (`StreetPrefetch.terms`), so a store
 * can rank the streets it found as `rankStreets` does (search/streets.ts: `streetRanking`).
 */
export interface StreetRanking {
  /** Of each term of the street's name that has readings (the first ones of `terms`): whether they came through a typo. */
  fuzzy: boolean[];
  /** How many terms the name has in all: those without readings score 0 in the mean. */
  words: number;
  /** Structured input: a street's town words do not count for its name's terms. */
  structured: boolean;
  /** The customer's position `[lat, lng]`: ranked as search/near.ts ranks (streets.ts: the near order). */
  near?: [number, number] | undefined;
}

export interface LookUpResult {
  /** One per input word, in order. */
  words: WordResolution[];
  /** The exact candidates that are postcodes in the index. */
  postcodes: Set<string>;
  /** One per prefix candidate: whether some postcode starts with it. */
  postcodePrefixes: boolean[];
}

export interface StreetHit {
  id: number;
  country: string;
  street: string;
  city: string | null;
  municipality: string | null;
  state: string | null;
  postcode: string | null;
  n: number;
  lat: number;
  lng: number;
  streetWords: string[];
  cityWords: string[];
  /**
   * The street's addresses with the house-number key given to `findStreets` (by id, at most
   * NUMBERED_PER_STREET), when the store fetched them in the same statement as the street.
   */
  numbered?: NumberedAddress[];
}

/** An address found together with its street: `id` orders them as `addressesOnStreets` does for an exact key. */
export interface NumberedAddress {
  id: number;
  hn: string;
  hnKey: string;
  postcode: string | null;
  lat: number;
  lng: number;
  /** The house's units this address lists; absent for none. */
  units?: string[];
  /** `units` gathered from single values (shops' `addr:unit`), not the house's stated list. */
  unitsPartial?: true;
  /** Placed between two known house numbers (OSM interpolation), not mapped itself. */
  interpolated?: true;
}

/** At most this many addresses of one street come back with it from `findStreets` (the geocode keeps 20 over all its streets). */
export const NUMBERED_PER_STREET = 20;

export interface AddressHit {
  street: StreetHit;
  hn: string;
  hnKey: string;
  postcode: string | null;
  lat: number;
  lng: number;
  /** The house's units this address lists; absent for none. */
  units?: string[];
  /** `units` gathered from single values (shops' `addr:unit`), not the house's stated list. */
  unitsPartial?: true;
  /** Placed between two known house numbers (OSM interpolation), not mapped itself. */
  interpolated?: true;
  /** What the import derived of this address (its town, its postcode) rather than read. */
  inferred?: InferredComponent[];
}

/** An address a reverse look-up found: its row, its id and its great-circle distance from the position. */
export interface NearAddress extends AddressHit {
  id: number;
  distanceM: number;
}

/** A postcode in one town, as a suggestion (issue 35's `postcode` type). */
export interface PostcodeArea {
  /** As the data writes it (`1012 LG`). */
  postcode: string;
  country: string;
  city: string | null;
  state: string | null;
  lat: number;
  lng: number;
  /** Its addresses in that town's streets. */
  n: number;
}

/** House-number filter: exact key, key prefix (typing), or the leading integer (`123` for `123-2`). */
export type HouseNumberFilter = { key: string; prefix: boolean } | { base: number };

export interface PostcodeFilter {
  key: string;
  prefix: boolean;
}

export interface IndexStore {
  readonly kind: 'sqlite' | 'postgres';
  /** Changes whenever an import commits (in any process); on PostgreSQL a changed one also reloads the snapshot. */
  version(): Promise<number>;
  /**
   * The country states the cache key and coverage need, without a round trip: SQLite reads the
   * version at most once per macrotask (in process), PostgreSQL keeps what LISTEN/NOTIFY and the
   * version poll last loaded (pg-store.ts says why).
   */
  snapshot(): IndexSnapshot;
  /** Every country with its address count (the status command). */
  countryStates(): Promise<(CountryState & { addresses: number })[]>;
  count(): Promise<number>;
  /** One real address of the country for the homepage's samples (sample-address.ts); undefined when it has none. */
  sampleAddress(country: string): Promise<SampleAddress | undefined>;
  beginImport(): Promise<ImportSession>;
  /**
   * Words and postcode candidates together, so a fresh query waits for one round trip, not three
   * (PostgreSQL: one statement; answers are cached until the next import on both stores).
   */
  lookUp(input: LookUpInput): Promise<LookUpResult>;
  /**
   * Many look-ups at once (a list's chunk), answers only cached: their words and postcodes, and
   * the street searches they expect (`prefetch`, on the common answers), so the rows' own look-ups
   * and searches that come next wait for no round trip where the guess was right (PostgreSQL: one
   * statement for a few hundred; a store without it is asked row by row, as always).
   */
  lookUpAll?(inputs: LookUpInput[]): Promise<void>;
  /**
   * Streets matching every term (a term matches when any of its alternatives does). With `hnKey`,
   * a store may also return each street's addresses with that house-number key (`numbered`),
   * so street and number take one round trip (PostgreSQL); a store that does not leaves it unset.
   * With `hnKey` and `inPostcode` (an exact postcode key), only streets with an address of that
   * number in that postcode, ascending id, with their `numbered` addresses: a name in thousands of
   * towns is then narrowed by the index to the one street the input means, instead of `limit` of
   * its namesakes fetched and ranked (both stores). With `near` (not narrowed), the `limit`
   * matches nearest to it (of at most NEAR_SCAN read, queries.ts), ties by id.
   */
  findStreets(terms: WordQuery[][], country: string | undefined, limit: number, hnKey?: string, inPostcode?: string, near?: GeoPoint): Promise<StreetHit[]>;
  /**
   * Several street searches at once (the exact and the prefix form of a word being typed, or the
   * query with one word left out at a time): each list as `findStreets(variants[i], …)` returns it,
   * in one round trip on PostgreSQL.
   */
  findStreetsEach(variants: WordQuery[][][], country: string | undefined, limit: number, near?: GeoPoint): Promise<StreetHit[][]>;
  /**
   * Streets matching every term that have an address in this postcode (an exact key), ascending
   * id: the postcode alone narrows a name in thousands of towns where no house number can (none
   * given, or one the postcode does not have). With `hnKey`, as `findStreets` with it (`numbered`
   * where the store fetches them together).
   */
  findStreetsInPostcode(terms: WordQuery[][], country: string | undefined, limit: number, pcKey: string, hnKey?: string): Promise<StreetHit[]>;
  addressesOnStreets(streetIds: number[], hn: HouseNumberFilter | undefined, limit: number): Promise<AddressHit[]>;
  addressesByPostcode(pc: PostcodeFilter, hn: HouseNumberFilter | undefined, country: string | undefined, limit: number): Promise<AddressHit[]>;
  /** Postcodes starting with (or equal to) a key, each with each town it reaches: see `postcodeAreasQuery`. */
  postcodeAreas(pc: PostcodeFilter, country: string | undefined, limit: number): Promise<PostcodeArea[]>;
  /** Of these streets, the ids of those with postcoded addresses, none in this postcode (an exact key): see `postcodeAbsentQuery`. */
  streetsNotInPostcode(streetIds: number[], pcKey: string, country: string | undefined): Promise<number[]>;
  /**
   * The `limit` addresses nearest to `center` within `radiusM` metres, nearest first (ties by id),
   * through the store's spatial index, never a scan (reverse look-up: SQLite its grid cells, PostgreSQL
   * a GiST index searched nearest first).
   */
  nearest(center: LatLng, radiusM: number, limit: number): Promise<NearAddress[]>;
  close(): Promise<void>;
}

/** Upper bound for a key-prefix range scan (`key >= p AND key < p + MAX_CHAR`). */
export const PREFIX_END = '\u{10FFFF}';
