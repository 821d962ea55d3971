import type { InferredComponent } from '../../contract/address.js';
import type { RowItem } from '../types.js';
import { addressForms } from './osm-address-forms.js';
import { interpolate } from './osm-interpolation.js';
import type { PlaceLocator } from './osm-places.js';
import { osmUnitList } from './osm-units.js';
import { buildAddress } from './record.js';

type Tags = Record<string, string>;

/** Only the tags the importer reads are staged. */
/** The tags an address row reads: `addr:*` and `is_in*`. */
export const isAddrKey = (k: string): boolean => k.startsWith('addr:') || k.startsWith('is_in');
export const addrTags = (tags: Tags): Tags => Object.fromEntries(Object.entries(tags).filter(([k]) => isAddrKey(k)));

/** Tags naming places an address lies in besides its town: the levels a resident may write instead. */
const PLACE_TAGS = ['addr:hamlet', 'addr:suburb', 'addr:quarter', 'addr:neighbourhood', 'addr:district', 'addr:municipality', 'is_in:city', 'is_in:municipality', 'is_in:town', 'is_in:village'];

/** The places the tags name (`is_in` may list several, comma- or semicolon-separated), then those the boundaries give. */
function placesOf(tags: Tags, located: string[] | undefined): string[] | undefined {
  // `addr:place` beside a street is the village part it lies in (Czechia, Slovakia): a place, not the street.
  const place = tags['addr:street'] ? tags['addr:place'] : undefined;
  // Most addresses tag no place: the boundaries' list (distinct already, see PlaceLocator.locate) is the answer, with no arrays made.
  if (place === undefined && tags.is_in === undefined && !PLACE_TAGS.some((k) => tags[k] !== undefined)) return located?.length ? located : undefined;
  const tagged = [...PLACE_TAGS.map((k) => tags[k]), place, ...(tags.is_in ?? '').split(/[;,]/)].map((v) => v?.trim()).filter((v): v is string => Boolean(v));
  const all = [...new Set([...tagged, ...(located ?? [])])];
  return all.length > 0 ? all : undefined;
}

const CITY: readonly InferredComponent[] = Object.freeze(['city']);
const POSTCODE: readonly InferredComponent[] = Object.freeze(['postcode']);
const CITY_AND_POSTCODE: readonly InferredComponent[] = Object.freeze(['city', 'postcode']);

/**
 * One address's fields. The tags win; where `addr:city`, `addr:postcode` or `addr:country`
 * is missing (most OSM addresses), the boundaries around the point give the municipality,
 * the postal-code area and the country, as Nominatim, Photon and Pelias do; the import's
 * `--country` is the last fallback. The other places it lies in (parish, quarter, `addr:suburb`,
 * `is_in`) are kept as alternative places: a resident may write any of them as the town.
 */
export function fields(tags: Tags, lat: number | undefined, lng: number | undefined, sourceId: string, places: PlaceLocator | undefined, country?: string) {
  const tagged = tags['addr:country'];
  const located = places && lat !== undefined && lng !== undefined;
  const at = located ? places.locate(lat, lng, tagged?.toUpperCase()) : {};
  // The town: `addr:city`, or `addr:place` beside a street (the place it belongs to); else derived.
  const taggedCity = tags['addr:city'] || (tags['addr:street'] ? tags['addr:place'] : undefined);
  const city = taggedCity || at.municipality || (located ? places.town(lat, lng) : undefined);
  const postcode = tags['addr:postcode'] || at.postcode;
  const cityInferred = Boolean(city && !taggedCity);
  const postcodeInferred = Boolean(postcode && !tags['addr:postcode']);
  // The shared lists, not one made per address: buildAddress only reads them.
  const inferred = cityInferred ? (postcodeInferred ? CITY_AND_POSTCODE : CITY) : postcodeInferred ? POSTCODE : undefined;
  return {
    lat,
    lng,
    houseNumber: tags['addr:housenumber'],
    street: tags['addr:street'] || tags['addr:place'],
    postcode,
    city,
    municipality: at.municipality,
    places: placesOf(tags, at.places),
    state: tags['addr:state'],
    country: tagged || at.country || country,
    sourceId,
    ...osmUnitList(tags),
    ...(inferred ? { inferred } : {}),
  };
}

/**
 * The index rows of one OSM address object (`n5`, `w7`, `r9`): one per form of its address
 * (osm-address-forms.ts), row and source id suffixed for all but its own (`osm:n5#cn`). The
 * object's units belong to its own form only.
 */
export function osmRows(row: string, tags: Tags, lat: number, lng: number, places: PlaceLocator | undefined, country: string | undefined): RowItem[] {
  const f = fields(tags, lat, lng, `osm:${row}`, places, country);
  // Most objects have one form: no array of forms, no copy of the fields.
  if (!tags['addr:conscriptionnumber'] && !tags['addr:streetnumber']) {
    const listed = listedNumbers(f.houseNumber);
    if (!listed) return [buildAddress(row, f)];
    // `76, 76a, 76b` (one building, several numbers): each number is an address, as Nominatim splits them.
    return listed.map((houseNumber, i) => {
      const suffix = i === 0 ? '' : LISTED_SUFFIXES[i - 1]!;
      return buildAddress(`${row}${suffix}`, { ...f, houseNumber, sourceId: `osm:${row}${suffix}` });
    });
  }
  return addressForms(tags, f.municipality).map(({ suffix, houseNumber, street }) =>
    buildAddress(`${row}${suffix}`, { ...f, houseNumber, street, sourceId: `osm:${row}${suffix}`, units: suffix ? undefined : f.units, unitsPartial: suffix ? undefined : f.unitsPartial }),
  );
}

/**
 * The rows of an interpolation way `w7`: one per number of its range, `w7#0`, `w7#1`, …, in
 * the way's order, marked interpolated (their position lies between the numbered nodes).
 */
export function interpolationRows(
  row: string,
  tags: Tags,
  refs: number[],
  at: (id: number) => [number, number] | undefined,
  numbered: (id: number) => Tags | undefined,
  places: PlaceLocator | undefined,
  country: string | undefined,
): RowItem[] {
  return interpolate(tags, refs, at, numbered).map((a, k) =>
    buildAddress(`${row}#${k}`, { ...fields(a.tags, a.lat, a.lng, `osm:${row}#${k}`, places, country), interpolated: true }),
  );
}

/** Most numbers one `addr:housenumber` list makes addresses of; an update removes the rows of those it no longer lists. */
const MAX_LISTED = 8;
/** The row and source id suffixes of a list's second and later numbers. */
export const LISTED_SUFFIXES: readonly string[] = Array.from({ length: MAX_LISTED - 1 }, (_, i) => `#hn${i + 2}`);

/** The numbers of an `addr:housenumber` that lists several (`76, 76a, 76b`, `1;3`); undefined for one. */
export function listedNumbers(value: string | undefined): string[] | undefined {
  if (!value || !/[;,]/.test(value)) return undefined;
  const parts = value.split(/[;,]/).map((p) => p.trim()).filter(Boolean);
  // Only a short list of plain numbers (`76a`): anything else stays one value, as the data wrote it.
  return parts.length > 1 && parts.length <= MAX_LISTED && parts.every((p) => /^\d+\s*[a-z]?$/i.test(p)) ? parts : undefined;
}
