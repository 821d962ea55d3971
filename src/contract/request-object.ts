import { z } from '@hono/zod-openapi';
import { editDistance } from '../address/similarity.js';

/**
 * Names integrators reach for that the API spells otherwise: said as "did you mean" even when the
 * spelling is far from ours (`zip` for `postcode`). Looked up case- and separator-insensitively.
 */
const ALIASES: Record<string, string> = {
  zip: 'postcode',
  zipcode: 'postcode',
  postalcode: 'postcode',
  postal: 'postcode',
  plz: 'postcode',
  town: 'city',
  locality: 'city',
  place: 'city',
  number: 'houseNumber',
  housenr: 'houseNumber',
  streetnumber: 'houseNumber',
  road: 'street',
  streetname: 'street',
  address: 'query',
  text: 'query',
  q: 'query',
  province: 'state',
  region: 'state',
  countrycode: 'country',
  apartment: 'unit',
  flat: 'unit',
  suite: 'unit',
  lang: 'language',
  lon: 'lng',
  long: 'lng',
  latitude: 'lat',
  longitude: 'lng',
  max: 'limit',
  size: 'limit',
  previousresponse: 'previousResponseId',
};

const fold = (name: string) => name.toLowerCase().replace(/[\s_-]/g, '');

/** The known field a mistyped one most likely meant: same letters but for case and separators, an alias, or a near spelling. */
export function closestField(unknown: string, known: readonly string[]): string | undefined {
  const folded = fold(unknown);
  const same = known.find((k) => fold(k) === folded);
  if (same) return same;
  const alias = ALIASES[folded];
  if (alias && known.includes(alias)) return alias;
  let best: { name: string; distance: number } | undefined;
  for (const name of known) {
    const distance = editDistance(folded, fold(name));
    if (!best || distance < best.distance) best = { name, distance };
  }
  // A third of the word may be wrong (`contry`, `housenumbr`), never a different word of the same length.
  return best && best.distance <= Math.max(1, Math.floor(fold(best.name).length / 3)) ? best.name : undefined;
}

function unknownFieldsMessage(keys: readonly string[], known: readonly string[]): string {
  return keys
    .map((key) => {
      const near = closestField(key, known);
      return near ? `Unknown field "${key}": did you mean "${near}"?` : `Unknown field "${key}": the fields here are ${known.map((k) => `"${k}"`).join(', ')}`;
    })
    .join('; ');
}

/**
 * A JSON request body object (issue 36): a field the schema does not declare is a 400, naming the
 * field and the closest known one (`"contry"`: did you mean `"country"`?), where it used to be
 * dropped silently and a default applied instead. Rule: every request object is built with this,
 * so a field added to its shape is known at once; response objects stay plain `z.object`.
 */
export function requestObject<T extends z.ZodRawShape>(shape: T) {
  const known = Object.keys(shape);
  return z.strictObject(shape, {
    error: (issue) => (issue.code === 'unrecognized_keys' ? unknownFieldsMessage(issue.keys, known) : undefined),
  });
}
