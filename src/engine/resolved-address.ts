import { type AddressComponents, InferredComponent, type ResolvedAddress } from '../contract/address.js';
import { compareComponent } from '../address/compare.js';
import { normalizePostcode } from '../address/normalize.js';
import { postalLines } from './postal-lines.js';
import type { ScoredCandidate } from './types.js';

type Located = ScoredCandidate & { location: { lat: number; lng: number } };

/** Only a result with usable coordinates can become the standardized address. */
export function hasCoordinates(c: ScoredCandidate): c is Located {
  const p = c.location;
  return !!p && Number.isFinite(p.lat) && Number.isFinite(p.lng) && Math.abs(p.lat) <= 90 && Math.abs(p.lng) <= 180;
}

/**
 * A result as the standardized address: its components, the typed postcode, town and state where
 * the result has none to check them against (typedParts), the unit the input gave (the data's
 * house, the person's flat), the postal lines of all of them (the country line only when the
 * request's country is another: postal-lines.ts), and what the data derived (inferredParts).
 */
export function resolvedAddress(c: Located, unit: string | undefined, requestCountry: string | undefined): ResolvedAddress {
  const { unit: _dataUnit, ...components } = c.components;
  const address = { ...components, ...typedParts(c), ...(unit ? { unit } : {}) };
  return { ...address, lat: c.location.lat, lng: c.location.lng, ...postalLines(address, requestCountry), inferred: inferredParts(c) };
}

const KEPT_FIELDS = ['postcode', 'city', 'state'] as const;

/**
 * Issue 34 item 5: a typed postcode, town or state the result carries no value for (`not-checked`;
 * the state has no verdict of its own) is kept as typed, so the answer is the whole postal address
 * the customer gave: the postcode in the country's format, the town and state as written.
 */
export function typedParts(c: Pick<ScoredCandidate, 'components' | 'componentVerdicts' | 'reading'>): AddressComponents {
  const out: AddressComponents = {};
  const country = c.components.country ?? c.reading.country;
  for (const field of KEPT_FIELDS) {
    const typed = c.reading[field]?.replace(/\s+/g, ' ').trim();
    if (!typed || c.components[field]?.trim()) continue;
    if (field !== 'state' && c.componentVerdicts[field] !== 'not-checked') continue;
    out[field] = field === 'postcode' ? normalizePostcode(typed, country) : typed;
  }
  return out;
}

/**
 * `address.inferred` (issue 34 item 4): the components the result says its data derived (a town
 * from the area around the house, a postcode from its neighbours), always an array, in a fixed
 * order; never a value the customer typed and the data confirms (`match`): that one is stated twice.
 */
export function inferredParts(c: Pick<ScoredCandidate, 'components' | 'componentVerdicts' | 'reading' | 'inferred'>): InferredComponent[] {
  const derived = new Set(c.inferred ?? []);
  if (derived.size === 0) return [];
  return InferredComponent.options.filter((field) => derived.has(field) && Boolean(c.components[field]?.trim()) && !confirmed(c, field));
}

function confirmed(c: Pick<ScoredCandidate, 'components' | 'componentVerdicts' | 'reading'>, field: InferredComponent): boolean {
  if (field !== 'state') return c.componentVerdicts[field] === 'match';
  const typed = c.reading.state?.trim();
  return typed !== undefined && typed !== '' && compareComponent('state', typed, c.components.state as string, c.components.country) === 'match';
}
