import { countryAliases } from './countries.js';
import type { EmulatorAddress } from './dataset.js';
import { compactHouseNumber, compactPostcode, normalizeText, tokenize, tokenQuality } from './text.js';

/**
 * The emulators' search engine: the dataset seen as address points plus derived streets,
 * postcodes and towns, ranked by how much of the query each one explains.
 */
export type EntityKind = 'address' | 'street' | 'postcode' | 'city';
export type Field = 'street' | 'houseNumber' | 'postcode' | 'city' | 'state' | 'country';

export interface Entity {
  kind: EntityKind;
  /** Stable identity, the seed of the provider ids rendered from it. */
  key: string;
  street?: string;
  houseNumber?: string;
  postcode?: string;
  city: string;
  /** Place levels around the town (see EmulatorAddress). */
  cityType?: EmulatorAddress['cityType'];
  locality?: string;
  localityType?: EmulatorAddress['localityType'];
  municipality?: string;
  county?: string;
  state?: string;
  country: string;
  lat: number;
  lng: number;
  members: EmulatorAddress[];
}

export interface Match {
  entity: Entity;
  /** Share of the query explained, 0..1. */
  score: number;
  matched: Set<Field>;
}

const KIND_ORDER: Record<EntityKind, number> = { address: 0, street: 1, postcode: 2, city: 3 };
const MIN_SCORE = 0.6;
const cache = new WeakMap<EmulatorAddress[], Entity[]>();

const round7 = (v: number) => Math.round(v * 1e7) / 1e7;

function group(dataset: EmulatorAddress[], kind: EntityKind, keyOf: (a: EmulatorAddress) => string): Entity[] {
  const groups = new Map<string, EmulatorAddress[]>();
  for (const a of dataset) groups.set(keyOf(a), [...(groups.get(keyOf(a)) ?? []), a]);
  return [...groups.entries()].map(([key, members]) => {
    const first = members[0]!;
    const postcodes = new Set(members.map((m) => m.postcode));
    return {
      kind,
      key: `${kind}:${key}`,
      street: kind === 'city' ? undefined : first.street,
      postcode: kind === 'city' || postcodes.size > 1 ? undefined : first.postcode,
      city: first.city,
      ...(first.cityType ? { cityType: first.cityType } : {}),
      // A street or postcode spans the village of its first address; a town is above its villages.
      ...(kind !== 'city' && first.locality ? { locality: first.locality, localityType: first.localityType } : {}),
      ...(first.municipality ? { municipality: first.municipality } : {}),
      ...(first.county ? { county: first.county } : {}),
      state: first.state,
      country: first.country,
      lat: round7(members.reduce((s, m) => s + m.lat, 0) / members.length),
      lng: round7(members.reduce((s, m) => s + m.lng, 0) / members.length),
      members,
    };
  });
}

export function entitiesOf(dataset: EmulatorAddress[]): Entity[] {
  const hit = cache.get(dataset);
  if (hit) return hit;
  const street = (a: EmulatorAddress) => `${a.country}|${normalizeText(a.city)}|${normalizeText(a.street)}`;
  const entities: Entity[] = [
    ...dataset.map((a) => ({ kind: 'address' as const, key: `address:${a.id}`, ...a, members: [a] })),
    ...group(dataset, 'street', street),
    ...group(dataset, 'postcode', (a) => `${street(a)}|${compactPostcode(a.postcode)}`),
    ...group(dataset, 'city', (a) => `${a.country}|${normalizeText(a.city)}`),
  ];
  cache.set(dataset, entities);
  return entities;
}

function fieldTokens(e: Entity): [Field, string[]][] {
  const fields: [Field, string[]][] = [];
  if (e.kind !== 'city' && e.street) fields.push(['street', tokenize(e.street)]);
  if (e.kind === 'address' && e.houseNumber) fields.push(['houseNumber', [compactHouseNumber(e.houseNumber)]]);
  if (e.kind !== 'city' && e.postcode) fields.push(['postcode', [compactPostcode(e.postcode), ...tokenize(e.postcode)]]);
  // Every place level names the town: a query may give the village or the municipality.
  fields.push(['city', [e.city, e.locality, e.municipality].flatMap((p) => (p ? tokenize(p) : []))]);
  if (e.state) fields.push(['state', tokenize(e.state)]);
  fields.push(['country', countryAliases(e.country).flatMap(tokenize)]);
  return fields;
}

/** Best field and quality for one query token against one entity. */
function bestField(token: string, fields: [Field, string[]][], prefix: boolean): [Field | undefined, number] {
  let best: [Field | undefined, number] = [undefined, 0];
  for (const [field, tokens] of fields) {
    for (const t of tokens) {
      const q = tokenQuality(token, t, prefix);
      if (q > best[1]) best = [field, q];
    }
  }
  return best;
}

function accepted(e: Entity, matched: Set<Field>, requireHouseNumber: boolean): boolean {
  switch (e.kind) {
    case 'address':
      return (matched.has('street') || matched.has('postcode')) && (!requireHouseNumber || matched.has('houseNumber'));
    case 'street':
      return matched.has('street');
    case 'postcode':
      return matched.has('postcode');
    case 'city':
      return matched.has('city');
  }
}

function rank(matches: Match[]): Match[] {
  return matches.sort(
    (a, b) => b.score - a.score || KIND_ORDER[a.entity.kind] - KIND_ORDER[b.entity.kind] || a.entity.key.localeCompare(b.entity.key),
  );
}

export interface FreeTextOptions {
  kinds: readonly EntityKind[];
  /** Treat the last word as unfinished (search-as-you-type). */
  prefixLast?: boolean;
  /** Photon and Nominatim return an address point only when its house number was asked for. */
  requireHouseNumber?: boolean;
}

export function freeTextSearch(dataset: EmulatorAddress[], query: string, opts: FreeTextOptions): Match[] {
  const tokens = tokenize(query);
  if (tokens.length === 0) return [];
  const out: Match[] = [];
  for (const entity of entitiesOf(dataset)) {
    if (!opts.kinds.includes(entity.kind)) continue;
    const fields = fieldTokens(entity);
    const matched = new Set<Field>();
    let total = 0;
    tokens.forEach((token, i) => {
      const [field, q] = bestField(token, fields, opts.prefixLast === true && i === tokens.length - 1);
      if (field) matched.add(field);
      total += q;
    });
    const score = total / tokens.length;
    if (score >= MIN_SCORE && accepted(entity, matched, opts.requireHouseNumber ?? false)) out.push({ entity, score, matched });
  }
  return rank(out);
}

export interface StructuredQuery {
  street?: string;
  city?: string;
  postalcode?: string;
  state?: string;
  country?: string;
}

/** Every word of a parameter must match its own field (typos allowed); Nominatim's structured search. */
function fieldScore(value: string, tokens: string[]): number | undefined {
  const words = tokenize(value);
  let total = 0;
  for (const w of words) {
    const q = Math.max(0, ...tokens.map((t) => tokenQuality(w, t, false)));
    if (q === 0) return undefined;
    total += q;
  }
  return words.length ? total / words.length : undefined;
}

export function structuredSearch(dataset: EmulatorAddress[], query: StructuredQuery): Match[] {
  const out: Match[] = [];
  for (const entity of entitiesOf(dataset)) {
    const fields = new Map(fieldTokens(entity));
    const scores: number[] = [];
    const matched = new Set<Field>();
    const check = (value: string | undefined, field: Field, tokens = fields.get(field)): boolean => {
      if (value === undefined) return true;
      const s = tokens ? fieldScore(value, tokens) : undefined;
      if (s === undefined) return false;
      scores.push(s);
      matched.add(field);
      return true;
    };
    const wanted: EntityKind = query.street ? 'address' : query.postalcode ? 'postcode' : 'city';
    if (entity.kind !== wanted && !(wanted === 'address' && entity.kind === 'street')) continue;
    let ok = check(query.city, 'city') && check(query.state, 'state') && check(query.country, 'country');
    if (ok && query.postalcode !== undefined) {
      ok = entity.postcode !== undefined && compactPostcode(entity.postcode) === compactPostcode(query.postalcode);
      if (ok) matched.add('postcode');
    }
    if (ok && query.street !== undefined) {
      const words = tokenize(query.street);
      const numbers = words.filter((w) => /^\d+[a-z]?(?:[-/][a-z\d]+)?$/.test(w) && !fields.get('street')?.includes(w));
      const names = words.filter((w) => !numbers.includes(w));
      ok = names.length > 0 && check(names.join(' '), 'street');
      const hn = fields.get('houseNumber')?.[0];
      if (entity.kind === 'address') ok = ok && numbers.length === 1 && numbers[0] === hn;
      // A street answers when its house number is unknown, like Nominatim falling back to the road.
      if (entity.kind === 'street') ok = ok && (numbers.length === 0 || !entity.members.some((m) => compactHouseNumber(m.houseNumber) === numbers[0]));
      if (ok && entity.kind === 'address') matched.add('houseNumber');
    }
    if (ok) out.push({ entity, score: scores.length ? scores.reduce((a, b) => a + b, 0) / scores.length : 1, matched });
  }
  return rank(out);
}

/** Great-circle distance in km (the emulators' own, independent of the service's). */
function km(a: { lat: number; lng: number }, b: { lat: number; lng: number }): number {
  const rad = Math.PI / 180;
  const h = Math.sin(((b.lat - a.lat) * rad) / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(((b.lng - a.lng) * rad) / 2) ** 2;
  return 12_742 * Math.asin(Math.min(1, Math.sqrt(h)));
}

/**
 * A location bias as the real services apply one (Photon `lat`/`lon`, PDOK `lat`/`lon`, Nominatim
 * `viewbox`): how well the text matches still comes first, and among matches nearly as good the one
 * near the point (or inside the box) ranks higher. Stable: equal scores keep their order.
 */
export function preferNear(matches: Match[], bonus: (entity: Entity) => number): Match[] {
  return matches
    .map((m, i) => ({ m, i, s: m.score + bonus(m.entity) }))
    .sort((a, b) => b.s - a.s || a.i - b.i)
    .map(({ m }) => m);
}

/** Up to `weight` for a match at the point, half of it 10 km away, nothing beyond 100 km. */
export function distanceBonus(point: { lat: number; lng: number }, weight: number): (entity: Entity) => number {
  return (e) => {
    const d = km(point, e);
    return d >= 100 ? 0 : weight * 0.5 ** (d / 10);
  };
}
