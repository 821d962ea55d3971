import { uniqueUnits } from '../units.js';

type Tags = Record<string, string>;

/** A range of `addr:flats` wider than this is not expanded (a typo like `1-10000`): it is kept as written. */
const MAX_RANGE = 500;
const RANGE = /^(\d{1,6})\s*-\s*(\d{1,6})$/;

/** OSM's list separator `;` (and `,`, which mappers use for it too), each value trimmed. */
const values = (v: string | undefined): string[] => (v ? v.split(/[;,]/).map((s) => s.trim()).filter(Boolean) : []);

/** `1-12` → 1…12, `1;3;5`, mixed `1-3;7`; a range of letters or a reversed or huge one stays as written. */
function flats(v: string | undefined): string[] {
  return values(v).flatMap((item) => {
    const m = RANGE.exec(item);
    if (!m) return [item];
    const [from, to] = [Number(m[1]), Number(m[2])];
    if (to < from || to - from >= MAX_RANGE) return [item];
    return Array.from({ length: to - from + 1 }, (_, i) => String(from + i));
  });
}

/**
 * The units an OSM object lists for its house, as the data writes them: `addr:unit` (one or a
 * `;` list), `addr:flats` (ranges and lists, expanded), and `addr:door`. A door with a floor is
 * the unit `floor/door` (`addr:floor=2` + `addr:door=4` → `2/4`, how Austria writes a door on a
 * floor, and what `2º 4` reads as); a floor alone names no unit (a storey holds several) and is
 * ignored. Undefined when the object lists none.
 */
export function osmUnits(tags: Tags): string[] | undefined {
  return osmUnitList(tags).units;
}

const NO_UNITS: { units?: string[]; unitsPartial?: true } = Object.freeze({});

/**
 * The object's units and whether they are the house's list (issue 34): `addr:flats` states the
 * flats of the building or entrance; `addr:unit` and `addr:door` alone name the unit of one shop,
 * office or door, so the units gathered from them are a partial list (`unitsPartial`), against
 * which a typed unit that is absent is `not-checked`, not a `mismatch`.
 */
export function osmUnitList(tags: Tags): { units?: string[]; unitsPartial?: true } {
  // Most objects list no unit: no arrays made for them (this runs for each of a country's addresses).
  if (tags['addr:door'] === undefined && tags['addr:unit'] === undefined && tags['addr:flats'] === undefined) return NO_UNITS;
  const door = tags['addr:door']?.trim();
  const floor = tags['addr:floor']?.trim();
  const doors = door ? [floor ? `${floor}/${door}` : door] : [];
  const units = uniqueUnits([...values(tags['addr:unit']), ...flats(tags['addr:flats']), ...doors]);
  if (!units) return {};
  return flats(tags['addr:flats']).length > 0 ? { units } : { units, unitsPartial: true };
}
