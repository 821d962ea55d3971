import type { AddressComponents, GeoPoint } from '../../contract/address.js';
import type { SuggestionType } from '../../contract/autocomplete.js';
import type { HttpClient } from '../http.js';
import { type AutocompleteQuery, type GeocodeQuery, type Provider, type ProviderCandidate, ProviderSkipped } from '../provider.js';
import { mapPdokDoc } from './map.js';
import { PDOK_FIELDS, type PdokDoc, PdokResponse } from './wire.js';
import { inNetherlands, pdokReverse } from './reverse.js';

/**
 * PDOK Locatieserver v3_1 (Dutch BAG addresses, NL only).
 * validate: `/free` with `fq=type:adres`; autocomplete: `/suggest` for addresses, streets and
 * postcodes, completed with `/lookup` for any suggestion that lacks the fields we map.
 * v3_1 rejects query parameters outside its OpenAPI description, so we send only q/fq/fl/rows/id
 * and `lat`/`lon` (the customer's position: Locatieserver ranks objects near it higher).
 */
export interface PdokOptions {
  /** e.g. https://api.pdok.nl/bzk/locatieserver/search/v3_1 */
  baseUrl: string;
  http: HttpClient;
  /** Results asked for per validate call. */
  rows?: number;
}

const FL = PDOK_FIELDS.join(',');

/** Locatieserver's object types for the kinds wanted; by default addresses, streets and postcodes. */
const PDOK_TYPES: Record<SuggestionType, string> = { address: 'adres', street: 'weg', postcode: 'postcode', locality: 'woonplaats' };
export function pdokTypeFilter(types: readonly SuggestionType[] | undefined): string {
  return `type:(${(types ?? ['address', 'street', 'postcode']).map((t) => PDOK_TYPES[t]).join(' OR ')})`;
}

function position(near: GeoPoint | undefined): [string, string][] {
  return near ? [['lat', String(near.lat)], ['lon', String(near.lng)]] : [];
}

/** Free text for `/free` from the caller's text, or from components written the Dutch way. */
export function pdokQueryText(query: GeocodeQuery): string {
  if (query.query?.trim()) return query.query.trim();
  const c: AddressComponents = query.components;
  const line1 = [c.street, c.houseNumber].filter(Boolean).join(' ');
  const line2 = [c.postcode, c.city].filter(Boolean).join(' ');
  return [line1, line2].filter(Boolean).join(', ');
}

export function createPdokProvider(opts: PdokOptions): Provider {
  const base = opts.baseUrl.replace(/\/+$/, '');
  const url = (path: string, params: [string, string][]): URL => {
    const u = new URL(`${base}${path}`);
    for (const [k, v] of params) u.searchParams.append(k, v);
    return u;
  };

  const needsLookup = (doc: PdokDoc) => doc.centroide_ll === undefined || (doc.type === 'adres' && doc.straatnaam === undefined);

  /** `/lookup` by id, keeping the suggest doc's score (lookup scores are not comparable). */
  const complete = async (doc: PdokDoc, signal: AbortSignal): Promise<PdokDoc> => {
    const body = await opts.http.getJson(url('/lookup', [['id', doc.id], ['fl', FL]]), PdokResponse, signal);
    const full = body.response.docs[0];
    return full ? { ...full, score: doc.score } : doc;
  };

  return {
    id: 'pdok',
    covers: (country) => country === undefined || country.toUpperCase() === 'NL',
    ranksByNear: true,

    async geocode(query: GeocodeQuery, signal: AbortSignal): Promise<ProviderCandidate[]> {
      const q = pdokQueryText(query);
      if (!q) throw new ProviderSkipped('nothing to search for');
      const params: [string, string][] = [['q', q], ['fq', 'type:adres'], ['fl', FL], ['rows', String(opts.rows ?? 5)], ...position(query.near)];
      const body = await opts.http.getJson(url('/free', params), PdokResponse, signal);
      const maxScore = body.response.maxScore ?? Math.max(0, ...body.response.docs.map((d) => d.score ?? 0));
      return body.response.docs.map((doc) => mapPdokDoc(doc, maxScore));
    },

    async autocomplete(query: AutocompleteQuery, signal: AbortSignal): Promise<ProviderCandidate[]> {
      const params: [string, string][] = [
        ['q', query.query],
        ['fq', pdokTypeFilter(query.types)],
        ['fl', FL],
        ['rows', String(query.limit)],
        ...position(query.near),
      ];
      const body = await opts.http.getJson(url('/suggest', params), PdokResponse, signal);
      const maxScore = body.response.maxScore ?? Math.max(0, ...body.response.docs.map((d) => d.score ?? 0));
      const docs = await Promise.all(body.response.docs.map((doc) => (needsLookup(doc) ? complete(doc, signal) : doc)));
      return docs.map((doc) => mapPdokDoc(doc, maxScore));
    },

    reverse: (query, signal) => pdokReverse(base, opts.http, query, signal),
    coversPosition: inNetherlands,
  };
}
