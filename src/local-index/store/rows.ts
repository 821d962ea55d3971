import type { AddressHit, StreetHit } from './store.js';
import { readUnits } from '../units.js';

/** Row shapes as SQL returns them (both backends use the same column aliases, see queries.ts). */
export interface StreetRow {
  id: number;
  country: string;
  street: string;
  city: string | null;
  municipality: string | null;
  state: string | null;
  postcode: string | null;
  n: number;
  lat: number | null;
  lng: number | null;
  street_words: string;
  city_words: string;
}

export interface AddressRow extends StreetRow {
  hn: string;
  hn_key: string;
  a_postcode: string | null;
  a_lat: number;
  a_lng: number;
  a_units: string | null;
}

/** A street with one of its addresses of the asked house number (all `a_` columns null when it has none). */
export interface NumberedRow extends StreetRow {
  a_id: number | string | null;
  hn: string | null;
  hn_key: string | null;
  a_postcode: string | null;
  a_lat: number | null;
  a_lng: number | null;
  a_units: string | null;
}

/**
 * Rows of a street match joined with its addresses of one number: each street once, in match
 * order, with them (each address once, at most `perStreet`, in row order).
 */
export function withNumbers(rows: NumberedRow[], perStreet = Infinity): StreetHit[] {
  const streets = new Map<number, StreetHit & { numbered: NonNullable<StreetHit['numbered']> }>();
  for (const r of rows) {
    const id = Number(r.id);
    let s = streets.get(id);
    if (!s) streets.set(id, (s = { ...toStreetHit(r), numbered: [] }));
    if (r.a_id === null || s.numbered.length >= perStreet) continue;
    const aId = Number(r.a_id);
    if (s.numbered.at(-1)?.id !== aId) s.numbered.push({ id: aId, hn: r.hn!, hnKey: r.hn_key!, postcode: r.a_postcode, lat: r.a_lat!, lng: r.a_lng!, ...readUnits(r.a_units) });
  }
  return [...streets.values()];
}

const split = (words: string): string[] => (words ? words.split(' ') : []);

export function toStreetHit(r: StreetRow): StreetHit {
  return {
    id: Number(r.id),
    country: r.country,
    street: r.street,
    city: r.city,
    municipality: r.municipality,
    state: r.state,
    postcode: r.postcode,
    n: Number(r.n),
    lat: r.lat ?? 0,
    lng: r.lng ?? 0,
    streetWords: split(r.street_words),
    cityWords: split(r.city_words),
  };
}

/** Every address row a search reads passes here (up to 40 a keystroke): the units' fields set one by one, not spread in. */
export function toAddressHit(r: AddressRow): AddressHit {
  const hit: AddressHit = { street: toStreetHit(r), hn: r.hn, hnKey: r.hn_key, postcode: r.a_postcode, lat: r.a_lat, lng: r.a_lng };
  const stored = readUnits(r.a_units);
  if (stored.units) hit.units = stored.units;
  if (stored.unitsPartial) hit.unitsPartial = true;
  if (stored.interpolated) hit.interpolated = true;
  if (stored.inferred) hit.inferred = stored.inferred;
  return hit;
}

/** SQLite FTS5 query: AND of terms, OR of each term's alternatives, `*` for prefixes. */
export function ftsQuery(terms: { word: string; prefix: boolean }[][]): string {
  return terms
    .map((alts) => `(${alts.map((a) => `"${a.word.replace(/"/g, '""')}"${a.prefix ? '*' : ''}`).join(' OR ')})`)
    .join(' AND ');
}

/**
 * Whether a street's words match the terms as ftsQuery and tsQuery mean them (every term by one of
 * its alternatives, a prefix by any word it starts): for a handful of streets an index already
 * named, where asking the full-text index per street costs more than reading their words.
 */
export function matchesTerms(r: StreetRow, terms: { word: string; prefix: boolean }[][]): boolean {
  const words = [...split(r.street_words), ...split(r.city_words)];
  return terms.every((alts) => alts.some((a) => words.some((w) => (a.prefix ? w.startsWith(a.word) : w === a.word))));
}

/** PostgreSQL tsquery with the same meaning; words are index tokens (letters and digits only), taken literally. */
export function tsQuery(terms: { word: string; prefix: boolean }[][]): string {
  return terms
    .map((alts) => `(${alts.map((a) => `'${a.word.replace(/['\\]/g, '')}'${a.prefix ? ':*' : ''}`).join(' | ')})`)
    .join(' & ');
}
