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
 * A unit gathered from a single value (OSM `addr:unit` of one shop or office), not from a list the
 * data states as the house's (`addr:flats`, OpenAddresses `UNIT` rows, a plain CSV's units), starts
 * with this mark (issue 34). Marked per unit, so any merge of two stored lists (JS or SQL, which
 * only join entries) keeps what each unit came from; a list is partial when every unit is.
 */
const PARTIAL = '\u0003';

/** The stored form of a unit list (with the interpolated and partial marks); null for none. */
export function packUnits(units: readonly string[] | undefined, interpolated?: true, partial?: true): string | null {
  const listed = partial ? units?.map((u) => PARTIAL + u) : units;
  const all = interpolated ? [...(listed ?? []), INTERPOLATED] : listed;
  return all && all.length > 0 ? all.join(UNIT_SEPARATOR) : null;
}

/** What a stored units column shows: the units (absent for none), whether they are a partial list, whether the address is interpolated. */
export interface StoredUnits {
  units?: string[];
  unitsPartial?: true;
  interpolated?: true;
}

/** A stored units column as a hit shows it (see StoredUnits); a unit both stated and gathered singly is stated. */
export function readUnits(stored: string | null | undefined): StoredUnits {
  const { entries, interpolated } = unpack(stored);
  const out: StoredUnits = interpolated ? { interpolated: true } : {};
  if (entries.length === 0) return out;
  if (!entries.some((e) => e.startsWith(PARTIAL))) return { units: entries, ...out };
  const units = uniqueUnits(entries.map((e) => (e.startsWith(PARTIAL) ? e.slice(1) : e)));
  return { ...(units ? { units } : {}), ...(entries.every((e) => e.startsWith(PARTIAL)) ? { unitsPartial: true } : {}), ...out };
}

/** The entries of a stored value (marks of partial units kept) and whether it is interpolated. */
function unpack(stored: string | null | undefined): { entries: string[]; interpolated: boolean } {
  const list = stored ? stored.split(UNIT_SEPARATOR) : [];
  if (list.at(-1) !== INTERPOLATED) return { entries: list, interpolated: false };
  return { entries: list.slice(0, -1), interpolated: true };
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

/** Two stored lists as one stored list: `a` itself (the same string) when `b` adds no unit to it. */
export function mergePackedUnits(a: string | null, b: string | null): string | null {
  if (b === null || a === b) return a;
  if (a === null) return b;
  // Entry by entry, marks kept, so the interpolated mark stays the last entry (or goes, where neither has it).
  const x = unpack(a);
  const y = unpack(b);
  const entries = uniqueUnits([...x.entries, ...y.entries]);
  const all = x.interpolated || y.interpolated ? [...(entries ?? []), INTERPOLATED] : (entries ?? []);
  const merged = all.length > 0 ? all.join(UNIT_SEPARATOR) : null;
  return merged === a ? a : merged;
}
