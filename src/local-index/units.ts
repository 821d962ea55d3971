import type { InferredComponent } from '../contract/address.js';

/**
 * A house's units (flats, apartments, doors) as the index stores them: one text column per
 * address, the units in the order the data lists them, joined by the ASCII unit separator
 * (no unit holds it: whitespace and control characters were collapsed when the row was read).
 */
const UNIT_SEPARATOR = '\u001f';

/**
 * An interpolated address (OSM `addr:interpolation`) is marked by an entry of its units column
 * rather than a column of its own: the mark travels through every statement that reads or writes
 * units on both stores, and `readUnits` takes it off before anything shows units.
 */
const INTERPOLATED = '\u0002';

/**
 * A unit gathered from a single value (OSM `addr:unit` of one shop or office), not from a list the
 * data states as the house's (`addr:flats`, OpenAddresses `UNIT` rows, a plain CSV's units), starts
 * with this mark (issue 34). Marked per unit, so any merge of two stored lists (JS or SQL, which
 * only join entries) keeps what each unit came from; a list is partial when every unit is.
 */
const PARTIAL = '\u0003';

/**
 * The components an import derived for the address (town, postcode: import/derive-*.ts) ride
 * the same way, as one entry of this mark and their names (`\x04city,postcode`): every store
 * keeps them per address with no statement changed.
 */
const INFERRED = '\u0004';

/** What a stored units column shows: the units (absent for none), whether they are a partial list, whether the address is interpolated, what the import derived. */
export interface StoredUnits {
  units?: string[];
  unitsPartial?: true;
  interpolated?: true;
  inferred?: InferredComponent[];
}

/** The marks stored beside a unit list. */
export interface UnitMarks {
  interpolated?: true | undefined;
  partial?: true | undefined;
  inferred?: readonly InferredComponent[] | undefined;
}

/** The stored form of a unit list (with its marks); null for none. */
export function packUnits(units: readonly string[] | undefined, marks: UnitMarks = {}): string | null {
  const listed = marks.partial ? units?.map((u) => PARTIAL + u) : units;
  return join(listed ?? [], marks.interpolated ?? false, marks.inferred);
}

const NONE: StoredUnits = Object.freeze({});

/**
 * Columns of marks alone (no unit: `\x04city`, `\x04city,postcode`, the interpolated mark), read
 * once each: most addresses of an OSM import carry a derived town or postcode and nothing else, and
 * every row a search reads is read here. Shared, so frozen: callers spread them into their hits.
 */
const marksOnly = new Map<string, StoredUnits>();

/** A stored units column as a hit shows it (see StoredUnits); a unit both stated and gathered singly is stated. */
export function readUnits(stored: string | null | undefined): StoredUnits {
  if (!stored) return NONE;
  const kept = marksOnly.get(stored);
  if (kept) return kept;
  const read = readStored(stored);
  if (!read.units && !read.unitsPartial && marksOnly.size < 64) {
    if (read.inferred) Object.freeze(read.inferred);
    marksOnly.set(stored, Object.freeze(read));
  }
  return read;
}

function readStored(stored: string): StoredUnits {
  const { entries, interpolated, inferred } = unpack(stored);
  const out: StoredUnits = { ...(interpolated ? { interpolated: true } : {}), ...(inferred?.length ? { inferred } : {}) };
  if (entries.length === 0) return out;
  if (!entries.some((e) => e.startsWith(PARTIAL))) return { units: entries, ...out };
  const units = uniqueUnits(entries.map((e) => (e.startsWith(PARTIAL) ? e.slice(1) : e)));
  return { ...(units ? { units } : {}), ...(entries.every((e) => e.startsWith(PARTIAL)) ? { unitsPartial: true } : {}), ...out };
}

/** The unit entries of a stored value (marks of partial units kept), whether it is interpolated, and what was derived. */
function unpack(stored: string | null | undefined): { entries: string[]; interpolated: boolean; inferred?: InferredComponent[] } {
  const list = stored ? stored.split(UNIT_SEPARATOR) : [];
  // Marks may sit anywhere once two rows' lists were merged (PostgreSQL merges them in SQL).
  let interpolated = false;
  let inferred: InferredComponent[] | undefined;
  const entries = list.filter((u) => {
    if (u === INTERPOLATED) interpolated = true;
    else if (u.startsWith(INFERRED)) inferred ??= u.slice(1).split(',').filter((c): c is InferredComponent => c === 'city' || c === 'postcode' || c === 'state');
    else return true;
    return false;
  });
  return { entries, interpolated, ...(inferred ? { inferred } : {}) };
}

/** Unit entries and marks as one stored value: the inferred mark, then the interpolated one, after the units. */
function join(entries: readonly string[], interpolated: boolean, inferred: readonly InferredComponent[] | undefined): string | null {
  const marks = [...(inferred?.length ? [`${INFERRED}${[...inferred].sort().join(',')}`] : []), ...(interpolated ? [INTERPOLATED] : [])];
  const all = [...entries, ...marks];
  return all.length > 0 ? all.join(UNIT_SEPARATOR) : null;
}

/** Each unit once (compared without case), in the order first seen; undefined for none. */
export function uniqueUnits(units: readonly string[]): string[] | undefined {
  const seen = new Set<string>();
  const out = units.filter((u) => {
    const k = u.toLowerCase();
    return !seen.has(k) && Boolean(seen.add(k));
  });
  return out.length > 0 ? out : undefined;
}

/** Both lists as one (see uniqueUnits). */
export function mergeUnits(a: readonly string[] | undefined, b: readonly string[] | undefined): string[] | undefined {
  return uniqueUnits([...(a ?? []), ...(b ?? [])]);
}

/** Whether two houses' units, merged, are a partial list: only where each one that lists units lists them partially. */
export function mergedPartial(a: StoredUnits, b: StoredUnits): true | undefined {
  const lists = [a, b].filter((x) => x.units && x.units.length > 0);
  return lists.length > 0 && lists.every((x) => x.unitsPartial) ? true : undefined;
}

/** Two stored lists as one stored list: `a` itself (the same string) when `b` adds nothing to it. */
export function mergePackedUnits(a: string | null, b: string | null): string | null {
  if (b === null || a === b) return a;
  if (a === null) return b;
  // Entry by entry, partial marks kept; the interpolated and inferred marks once, after the units.
  const x = unpack(a);
  const y = unpack(b);
  const merged = join(uniqueUnits([...x.entries, ...y.entries]) ?? [], x.interpolated || y.interpolated, x.inferred ?? y.inferred);
  return merged === a ? a : merged;
}
