/**
 * The place levels of a Nominatim result. Its `address` object keeps one name per key, the
 * lowest: an address in the hamlet Rotenboden of the municipality Triesenberg (both OSM
 * `village`s) names only `village: Rotenboden`, and Triesenberg survives only in the
 * `display_name` hierarchy (`6, Rossbodastrasse, Rotenboden, Triesenberg, Wahlkreis
 * Oberland, 9497, Liechtenstein`). So the places are read from `display_name`, in its order.
 */

/** Keys naming a place a person may write as the town (lowest first: Monaco's and London's quarters too), and the county above them. */
export const PLACE_KEYS = ['hamlet', 'village', 'quarter', 'suburb', 'borough', 'city_district', 'district', 'town', 'municipality', 'city', 'county'];
/** Keys that end the place part of `display_name`: what follows is region, postcode or country. */
const END_KEYS = ['state_district', 'state', 'region', 'province', 'postcode', 'country'];
/** Parts above the place levels never stand for a town; `county` is the last place level kept. */
const LAST_KEYS = ['county'];

export interface NominatimPlaces {
  /** Every place named, lowest first, without repeats (case-insensitive). */
  names: string[];
  /** Places `display_name` names that the `address` object lost to a lower place of the same key. */
  hidden: Set<string>;
}

const fold = (s: string) => s.trim().toLocaleLowerCase();

/**
 * Splits `display_name` after the street part (name, house number, street) and before the
 * first part that is a region, postcode or country; keeps the parts that are place keys'
 * values or that the `address` object does not name at all (the hidden municipality).
 */
export function nominatimPlaces(displayName: string, address: Record<string, string>, lead: readonly string[]): NominatimPlaces {
  const parts = displayName.split(',').map((p) => p.trim()).filter(Boolean);
  const valueKeys = new Map<string, string[]>();
  for (const [key, value] of Object.entries(address)) {
    const k = fold(value);
    valueKeys.set(k, [...(valueKeys.get(k) ?? []), key]);
  }
  // The street part: the leading parts that are the name, the number, the street or a POI key's value.
  const leading = new Set(lead.filter(Boolean).map(fold));
  const isPlace = (keys: string[]) => keys.some((k) => PLACE_KEYS.includes(k) || END_KEYS.includes(k));
  let start = 0;
  while (start < parts.length - 1) {
    const p = fold(parts[start]!);
    const keys = valueKeys.get(p) ?? [];
    if (isPlace(keys) || !(leading.has(p) || keys.length > 0)) break;
    start++;
  }
  const names: string[] = [];
  const hidden = new Set<string>();
  const seen = new Set<string>();
  for (const part of parts.slice(start)) {
    const keys = valueKeys.get(fold(part)) ?? [];
    const place = keys.some((k) => PLACE_KEYS.includes(k));
    if (!place && keys.some((k) => END_KEYS.includes(k))) break;
    if (keys.length > 0 && !place) continue; // a neighbourhood, a POI: not a town
    if (!seen.has(fold(part))) {
      seen.add(fold(part));
      names.push(part);
      if (keys.length === 0) hidden.add(part);
    }
    if (keys.some((k) => LAST_KEYS.includes(k))) break;
  }
  return { names, hidden };
}
