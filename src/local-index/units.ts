/**
 * A house's units (flats, apartments, doors) as the index stores them: one text column per
 * address, the units in the order the data lists them, joined by the ASCII unit separator
 * (no unit holds it: whitespace and control characters were collapsed when the row was read).
 */
export const UNIT_SEPARATOR = '\u001f';

/** The stored form of a unit list; null for none. */
export function packUnits(units: readonly string[] | undefined): string | null {
  return units && units.length > 0 ? units.join(UNIT_SEPARATOR) : null;
}

/** The unit list of a stored value; undefined for none. */
export function unpackUnits(stored: string | null | undefined): string[] | undefined {
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
  const merged = packUnits(mergeUnits(unpackUnits(a), unpackUnits(b)));
  return merged === a ? a : merged;
}
