import { hash } from 'node:crypto';
import type { AddressComponents, GeoPoint } from '../contract/address.js';
import type { SuggestionType } from '../contract/autocomplete.js';
import { normalizeText } from '../address/normalize.js';

/**
 * Cache keys hold only what changes the answer (DESIGN §6): the normalized request fields and the
 * set of active providers, so a config change never serves an answer computed by other providers.
 */
/**
 * The shape of what each kind caches. Validate caches provider answers and shapes them on every read,
 * so its keys never change with the answer; autocomplete caches finished suggestions, so a change of
 * their shape (issue 27: formatted labels, units, `action`; issue 35: `type`, `matches`) must not serve
 * entries of the old shape.
 */
const CACHED_SHAPE = { validate: 1, autocomplete: 3, reverse: 1 } as const;

export function cacheKey(
  kind: 'validate' | 'autocomplete' | 'reverse',
  parts: {
    query?: string;
    components?: AddressComponents;
    country?: string;
    language?: string;
    limit?: number;
    /** The customer's position, already rounded to its cell (near.ts `nearCell`), so neighbours share the entry. */
    near?: GeoPoint;
    types?: readonly SuggestionType[];
    /** Reverse look-up: the position (already rounded: the answer is computed for it) and the radius. */
    position?: { lat: number; lng: number; radiusMeters: number };
    providers: readonly string[];
  },
): string {
  const components = parts.components
    ? Object.fromEntries(
        Object.entries(parts.components)
          .filter(([, v]) => v !== undefined)
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([k, v]) => [k, normalizeText(String(v))]),
      )
    : undefined;
  const material = JSON.stringify([
    // Version 1 keeps the material of keys written before versions existed.
    CACHED_SHAPE[kind] === 1 ? kind : `${kind}/${CACHED_SHAPE[kind]}`,
    parts.query === undefined ? null : normalizeText(parts.query),
    components ?? null,
    parts.country?.toUpperCase() ?? null,
    parts.language?.toLowerCase() ?? null,
    parts.limit ?? null,
    [...parts.providers].sort(),
    // Issue 35, only when given: a request without them keeps the key it had.
    ...(parts.near ? [{ near: [parts.near.lat, parts.near.lng] }] : []),
    ...(parts.types ? [{ types: [...new Set(parts.types)].sort() }] : []),
    // Only where given, so the keys of the other kinds stay as they were.
    ...(parts.position ? [[parts.position.lat, parts.position.lng, parts.position.radiusMeters]] : []),
  ]);
  return `${kind}:${hash('sha256', material, 'base64url')}`;
}

/**
 * The key of an answer `data` took part in (DESIGN §6): the request's key with each provider's data
 * generation, so a commit that changes the data makes the old entries unreachable at once, on
 * every instance, without a scan of the cache. No generation: the key is unchanged.
 */
export function withDataGenerations(key: string, data: readonly (readonly [string, number])[]): string {
  let out = key;
  for (const [provider, generation] of data) out += `|${provider}@${generation}`;
  return out;
}
