import type { AddressComponents, GeoPoint, InferredComponent } from '../contract/address.js';
import type { Precision } from '../providers/provider.js';
import type { SuggestionType } from '../contract/autocomplete.js';
import type { ImportSession } from './store/store.js';
import type { StateBatch } from './update/osm-state.js';

export type ImportFormat = 'openaddresses' | 'osm' | 'csv';
export const IMPORT_FORMATS: readonly ImportFormat[] = ['openaddresses', 'osm', 'csv'];

/** One address as a format reader produced it, before normalization. */
export interface RawAddress {
  street: string;
  houseNumber: string;
  postcode?: string;
  city?: string;
  /** The municipality around the point, where it may differ from `city` (OSM: from the file's boundaries). */
  municipality?: string;
  /** Other places around the point a resident may write as the town (parish, quarter, `is_in`), finest first. */
  places?: string[];
  state?: string;
  country?: string;
  lat: number;
  lng: number;
  /** Stable id in the source (OSM element); absent for CSV formats, whose identity is the address itself. */
  sourceId?: string;
  /** The house's units (flats, doors) this row lists, as the data writes them; absent when it lists none. */
  units?: string[];
  /** `units` collected from single `addr:unit` values (shops, offices), not the house's stated list. */
  unitsPartial?: true;
  /** Components this row did not state but the import derived (town from an area or place node, postcode from an area or neighbours). */
  inferred?: InferredComponent[];
  /** Placed between two known house numbers (an OSM interpolation way), not mapped itself. */
  interpolated?: true;
}

/** One row of a file: an address, or a row it could not use (counted, reported, never fatal). */
export type RowItem =
  | { kind: 'address'; row: number | string; address: RawAddress }
  | { kind: 'bad'; row: number | string; reason: SkipReason; detail?: string };

/**
 * What a reader yields: its rows, the area relations it could not close (OSM), and the OSM
 * update state's batches when the import records it (osm-pbf.ts: one reading for both).
 */
export type ReaderItem = RowItem | { kind: 'area'; area: UnclosedArea } | { kind: 'state'; batch: StateBatch };

/** A boundary relation (administrative or postal code) the reader could not close into a polygon: no area of the index. */
export interface UnclosedArea {
  relation: number;
  name?: string;
  /** Why: a member way or node not in the file, a ring left open at a node. */
  reason: string;
}

/** How many addresses of an import got a component the data did not state (import/derive-*.ts). */
export interface DerivedCounts {
  city: number;
  postcode: number;
}

export type SkipReason =
  | 'malformed_row'
  | 'missing_coordinates'
  | 'invalid_coordinates'
  | 'missing_street'
  | 'missing_house_number'
  | 'missing_country'
  | 'invalid_country'
  | 'duplicate'
  /** A value longer than the API takes for its component (contract COMPONENT_MAX): it could never be typed, and would bloat every answer. */
  | 'too_long'
  | 'unresolved_way';

export interface RowProblem {
  /** 1-based data row (CSV: line of the record; OSM: `n123` / `w456`). */
  row: number | string;
  reason: SkipReason;
  detail?: string;
}

export interface ImportProgress {
  bytesRead: number;
  totalBytes: number;
  rows: number;
}

export interface ImportOptions {
  format: ImportFormat;
  /** ISO alpha-2; required for OpenAddresses (its files carry none), a fallback for the others. */
  country?: string;
  /** Drop addresses of the imported countries that this file no longer contains. */
  replace?: boolean;
  onProgress?: (progress: ImportProgress) => void;
  /** Read and key rows on a worker thread; by default only for large files. */
  readInWorker?: boolean;
  /** When the import is recorded as made (the status command); default: now. */
  at?: Date;
  /** Work that runs beside the import and commits with it (update/record-alongside.ts). */
  alongside?: ImportCompanion;
}

/**
 * Work beside an import (the OSM update state): started with the import's session, finished in
 * its transaction (`beforeCommit`) and after its commit; stopped before a failed import rolls back.
 */
export interface ImportCompanion {
  start(session: ImportSession): void;
  /**
   * Set when the companion records the OSM update state from the import's own reading of the
   * file: the reader then gathers it, and the import hands each batch here in order (waiting
   * while the companion is too far behind).
   */
  take?(batch: StateBatch): Promise<void>;
  beforeCommit(): Promise<void>;
  afterCommit(): Promise<void>;
  abort(): Promise<void>;
}

export interface ImportSummary {
  file: string;
  format: ImportFormat;
  countries: string[];
  rows: number;
  imported: number;
  updated: number;
  unchanged: number;
  removed: number;
  /** Without --replace: the imported countries' addresses the file no longer holds (kept; --replace removes them). */
  notInFile: number;
  /** The countries this import was made for (import/coverage.ts): `local` answers for them as checked. */
  covered: string[];
  skipped: Partial<Record<SkipReason, number>>;
  /** Every bad row up to a cap (see `problemsTruncated`), in file order. */
  problems: RowProblem[];
  problemsTruncated: boolean;
  /** Addresses whose town or postcode the import derived (an area, a place node, the nearest addresses), not the file's own. */
  derived: DerivedCounts;
  /** Boundary relations that could not be closed into areas, by id (OSM). */
  areasNotClosed: UnclosedArea[];
  durationMs: number;
  ratePerSecond: number;
}

/** Thrown for a file that is not of the requested format (or unreadable); the index is left as it was. */
export class ImportFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ImportFormatError';
  }
}

/** One search hit, ready for the provider adapter. */
export interface LocalHit {
  components: AddressComponents;
  location: GeoPoint;
  precision: Extract<Precision, 'address' | 'street' | 'postcode' | 'locality'>;
  /**
   * What kind of suggestion it is (issue 35's `types`; the suggestion's `type`): `address` and
   * `street` as the precision says, a `postcode` with its town, a `locality` (a town).
   */
  kind?: SuggestionType;
  /** Match score 0-1 of this hit against the query. */
  score: number;
  label: string;
  /** Every place the index names for the hit, lowest first: its city, then its municipality when that differs. */
  placeNames?: string[];
  /** An address's units as the data lists them (every object of the house together); absent when it lists none. */
  units?: string[];
  /** `units` gathered from single `addr:unit` values, not the house's stated list (a typed unit absent from it is not-checked). */
  unitsPartial?: true;
  /** Components the data did not state but the import derived. */
  inferred?: InferredComponent[];
  /** An address placed between two known house numbers (OSM interpolation), not mapped itself. */
  interpolated?: true;
  /**
   * A street hit for a typed house number the street does not have: the index holds the street
   * with every number the data gives it, so that number is known to be absent.
   */
  houseNumbersKnown?: true;
  /** A street hit for a typed postcode none of the street's addresses has, where they have postcodes. */
  postcodesKnown?: true;
}

export interface GeocodeInput {
  query?: string;
  components?: AddressComponents;
  country?: string;
  limit?: number;
  /** The customer's position (issue 35): orders the alternatives, nearest first among equals; never changes a score. */
  near?: GeoPoint;
}

export interface AutocompleteInput {
  query: string;
  country?: string;
  limit?: number;
  /** The customer's position (issue 35): ranking blends text match with a distance decay. */
  near?: GeoPoint;
  /** Kinds of result wanted; absent means all. */
  types?: SuggestionType[];
}

/** A reverse look-up (issue 35): the addresses nearest to a position. */
export interface ReverseInput {
  lat: number;
  lng: number;
  /** Nothing farther than this, in metres. */
  radiusMeters: number;
  limit: number;
}
