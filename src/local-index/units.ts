import type { InferredComponent } from '../contract/address.js';

/**
 * A house's units (flats, apartments, doors) as the index stores them: one text column per
 * address, the units in the order the data lists them, joined by the ASCII unit separator
 * (no unit holds it: whitespace and control characters were collapsed when the row was read).
 */
const UNIT_SEPARATOR = '\u001f';

/**
 * An interpolated address (OSM `addr:interpolation`) is marked by this last entry of its units
 * column rather than a column of its own: the mark travels through every statement that
 * reads or writes units on both stores, and `readUnits` takes it off before anything shows units.
 */
const INTERPOLATED = '\u0002';

/**
 * The components an import derived for the address (town, postcode: import/derive-*.ts) ride
 * the same way, as one entry of this mark and their names (`\x04city,postcode`), before the
 * interpolated mark: every store keeps them per address with no statement changed.
 */
const INFERRED = '\u0004';

/** The stored form of a unit list (with the inferred and interpolated marks); null for none. */
export function packUnits(units: readonly string[] | undefined, interpolated?: true, inferred?: readonly InferredComponent[]): string | null {
  const marks = [...(inferred?.length ? [`${INFERRED}${[...inferred].sort().join(',')}`] : []), ...(interpolated ? [INTERPOLATED] : [])];
  const all = marks.length > 0 ? [...(units ?? []), ...marks] : units;
  return all && all.length > 0 ? all.join(UNIT_SEPARATOR) : null;
}

/** A stored units column as a hit shows it: the units (absent for none), whether the address is interpolated, what the import derived. */
export function readUnits(stored: string | null | undefined): { units?: string[]; interpolated?: true; inferred?: InferredComponent[] } {
  const list = unpackUnits(stored);
  if (!list) return {};
  // Marks may sit anywhere once two rows' lists were merged (PostgreSQL merges them in SQL).
  let interpolated = false;
  let inferred: InferredComponent[] | undefined;
  const units = list.filter((u) => {
    if (u === INTERPOLATED) interpolated = true;
    else if (u.startsWith(INFERRED)) inferred ??= u.slice(1).split(',').filter((c): c is InferredComponent => c === 'city' || c === 'postcode' || c === 'state');
    else return true;
    return false;
  });
  return { ...(units.length > 0 ? { units } : {}), ...(interpolated ? { interpolated: true } : {}), ...(inferred?.length ? { inferred } : {}) };
}

/** The unit list of a stored value; undefined for none. */
function unpackUnits(stored: string | null | undefined): string[] | undefined {
  return stored ? stored.split(UNIT_SEPARATOR) : undefined;
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

/** Two stored lists as one stored list: `a` itself (the same string) when `b` adds no unit to it. */
export function mergePackedUnits(a: string | null, b: string | null): string | null {
  if (b === null || a === b) return a;
  if (a === null) return b;
  // Through readUnits, so the interpolated mark stays the last entry (or goes, where neither has it).
  const x = readUnits(a);
  const y = readUnits(b);
  const merged = packUnits(mergeUnits(x.units, y.units), x.interpolated ?? y.interpolated, x.inferred ?? y.inferred);
  return merged === a ? a : merged;
}
