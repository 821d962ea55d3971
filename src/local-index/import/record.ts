import { COMPONENT_MAX, type InferredComponent } from '../../contract/address.js';
import { collapseSpaces } from '../text.js';
import type { RawAddress, RowItem, SkipReason } from '../types.js';

/** Fields as a reader found them (strings from CSV, numbers from OSM). */
export interface RawFields {
  lat: string | number | undefined;
  lng: string | number | undefined;
  street: string | undefined;
  houseNumber: string | undefined;
  /** One unit (a CSV column): a Dutch addition joins the number, elsewhere it is one of the house's units. */
  unit?: string;
  /** Units read already (OSM `addr:unit`, `addr:flats`, `addr:door`). */
  units?: string[];
  /** `units` gathered from single values (OSM `addr:unit`, `addr:door` without `addr:flats`), not the house's stated list. */
  unitsPartial?: true;
  postcode?: string;
  city?: string;
  /** The municipality the point lies in (OSM boundaries), when the reader knows it. */
  municipality?: string;
  /** Other places around the point (OSM: admin levels and `is_in`-style tags). */
  places?: string[];
  state?: string;
  country?: string;
  sourceId?: string;
  /** Placed between two known house numbers (an OSM interpolation way), not mapped itself. */
  interpolated?: true;
  /** Components the reader derived rather than read (a town from an area, a postcode from a postal-code area). */
  inferred?: readonly InferredComponent[];
}

type Coordinate = number | 'missing' | 'invalid';

function coordinate(value: string | number | undefined, max: number): Coordinate {
  if (value === undefined) return 'missing';
  if (typeof value === 'string') {
    if (value.trim() === '') return 'missing';
    if (!NUMBER.test(value)) return 'invalid';
  }
  const n = Number(value);
  return Number.isFinite(n) && Math.abs(n) <= max ? n : 'invalid';
}

/** Whitespace that collapseSpaces would change: most fields have none, and skip its two new strings. */
const UNTIDY = /^\s|\s$|\s\s|[^\S ]/;

const optional = (s: string | undefined): string | undefined => {
  const v = s === undefined ? '' : UNTIDY.test(s) ? collapseSpaces(s) : s;
  return v === '' ? undefined : v;
};

const bad = (row: number | string, reason: SkipReason, detail?: string): RowItem => ({ kind: 'bad', row, reason, detail });

/** Characters of a file's value a message quotes: a 1 MB cell is named, never printed whole. */
export const QUOTED_CHARACTERS = 60;

/** A value as a message quotes it: its first QUOTED_CHARACTERS characters, then `…` when there was more. */
export function quoted(value: string): string {
  if (value.length <= QUOTED_CHARACTERS) return value;
  // Twice the UTF-16 units hold at least QUOTED_CHARACTERS characters, surrogate pairs and all.
  const head = [...value.slice(0, QUOTED_CHARACTERS * 2)];
  if (head.length <= QUOTED_CHARACTERS && value.length <= QUOTED_CHARACTERS * 2) return value;
  return `${head.slice(0, QUOTED_CHARACTERS).join('')}…`;
}

/** Characters, as the API counts them (a surrogate pair is one). */
function length(value: string): number {
  return /[\uD800-\uDBFF]/.test(value) ? [...value].length : value.length;
}

/** The first field longer than the API takes, as a detail (`street: 5000000 characters, over 200 (Evilweg…)`). */
function tooLong(
  street: string,
  houseNumber: string,
  postcode: string | undefined,
  city: string | undefined,
  state: string | undefined,
  unit: string | undefined,
  units: readonly string[] | undefined,
): string | undefined {
  // Field by field, no object of them made: this runs for every row of a file.
  const over = overBound('street', street) ?? overBound('houseNumber', houseNumber) ?? overBound('postcode', postcode) ?? overBound('city', city) ?? overBound('state', state) ?? overBound('unit', unit);
  if (over !== undefined) return over;
  const long = units?.find((u) => u.length > COMPONENT_MAX.unit && length(u) > COMPONENT_MAX.unit);
  return long === undefined ? undefined : `unit: ${length(long)} characters, over ${COMPONENT_MAX.unit} (${quoted(long)})`;
}
/** `field: N characters, over MAX (…)` when the value is longer than the API takes. */
function overBound(field: keyof typeof COMPONENT_MAX, value: string | undefined): string | undefined {
  // Cheap first: only a value past the bound in UTF-16 units can be past it in characters.
  if (value === undefined || value.length <= COMPONENT_MAX[field] || length(value) <= COMPONENT_MAX[field]) return undefined;
  return `${field}: ${length(value)} characters, over ${COMPONENT_MAX[field]} (${quoted(value)})`;
}

// One way to match each digit: `\d+\.?\d*` split a long run of digits every possible way, and a
// million-digit cell ending in a letter took hours to refuse (issue 36).
const NUMBER = /^\s*[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?\s*$/;
const WORD = /[\p{L}\p{N}]/u;
const SHORT_UNIT = /^[\p{L}\p{N}]{1,4}$/u;

/**
 * Checks one row and builds the address, or names why it cannot be used. In the Netherlands a
 * short unit (`2` for `123`) is a BAG addition and becomes part of the house number (`123-2`),
 * as Dutch data writes them; elsewhere the unit (`APT 5`, `3B`) is one of the house's units.
 */
export function buildAddress(row: number | string, f: RawFields): RowItem {
  const lat = coordinate(f.lat, 90);
  const lng = coordinate(f.lng, 180);
  if (lat === 'missing' || lng === 'missing') return bad(row, 'missing_coordinates');
  if (lat === 'invalid' || lng === 'invalid') return bad(row, 'invalid_coordinates', `lat ${quoted(String(f.lat))}, lng ${quoted(String(f.lng))}`);
  if (lat === 0 && lng === 0) return bad(row, 'invalid_coordinates', 'lat 0, lng 0');
  const street = optional(f.street);
  if (!street || !WORD.test(street)) return bad(row, 'missing_street');
  let houseNumber = optional(f.houseNumber);
  if (!houseNumber || !WORD.test(houseNumber)) return bad(row, 'missing_house_number');
  const unit = optional(f.unit);
  const postcode = optional(f.postcode);
  const city = optional(f.city);
  const state = optional(f.state);
  const long = tooLong(street, houseNumber, postcode, city, state, unit, f.units);
  if (long) return bad(row, 'too_long', long);
  let units = f.units;
  if (unit && f.country?.toUpperCase() === 'NL') {
    if (SHORT_UNIT.test(unit)) houseNumber = `${houseNumber}-${unit}`;
  } else if (unit) units = [unit];
  const address: RawAddress = {
    street,
    houseNumber,
    postcode,
    city,
    municipality: optional(f.municipality),
    ...(f.places?.length ? { places: f.places } : {}),
    state,
    country: optional(f.country),
    lat,
    lng,
    sourceId: f.sourceId,
    ...(units?.length ? { units } : {}),
    ...(units?.length && units === f.units && f.unitsPartial ? { unitsPartial: true as const } : {}),
  };
  if (f.interpolated) address.interpolated = true;
  const inferred = f.inferred?.filter((c) => address[c] !== undefined);
  if (inferred?.length) address.inferred = inferred;
  return { kind: 'address', row, address };
}
