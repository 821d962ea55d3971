import type { InferredComponent } from '../../contract/address.js';
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
  inferred?: InferredComponent[];
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
const NUMBER = /^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/;
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
  if (lat === 'invalid' || lng === 'invalid') return bad(row, 'invalid_coordinates', `lat ${String(f.lat)}, lng ${String(f.lng)}`);
  if (lat === 0 && lng === 0) return bad(row, 'invalid_coordinates', 'lat 0, lng 0');
  const street = optional(f.street);
  if (!street || !WORD.test(street)) return bad(row, 'missing_street');
  let houseNumber = optional(f.houseNumber);
  if (!houseNumber || !WORD.test(houseNumber)) return bad(row, 'missing_house_number');
  let units = f.units;
  const unit = optional(f.unit);
  if (unit && f.country?.toUpperCase() === 'NL') {
    if (SHORT_UNIT.test(unit)) houseNumber = `${houseNumber}-${unit}`;
  } else if (unit) units = [unit];
  const address: RawAddress = {
    street,
    houseNumber,
    postcode: optional(f.postcode),
    city: optional(f.city),
    municipality: optional(f.municipality),
    ...(f.places?.length ? { places: f.places } : {}),
    state: optional(f.state),
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
