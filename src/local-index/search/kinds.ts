import { LRUCache } from 'lru-cache';
import type { SuggestionType } from '../../contract/autocomplete.js';
import { formatLabel } from '../../providers/label.js';
import type { AddressComponents } from '../../contract/address.js';
import type { PostcodeArea } from '../store/store.js';
import { tokens } from '../text.js';
import type { LocalHit } from '../types.js';
import type { Plan } from './plan.js';
import { matchWords, mean } from './score.js';
import type { RankedStreet } from './streets.js';

/**
 * The kinds of suggestion autocomplete answers with (issue 35's `types`): an address or a street
 * (`LocalHit.precision`), a postcode with its town (`street_postcodes`), a town (the towns the
 * typed words name among the streets the search found).
 */
export type Kinds = ReadonlySet<SuggestionType>;

const ALL: Kinds = new Set<SuggestionType>(['address', 'street', 'postcode', 'locality']);

/** The kinds asked for; all when none are named. */
export const kindsOf = (types: readonly SuggestionType[] | undefined): Kinds => (types && types.length > 0 ? new Set(types) : ALL);

/** A town's name as index words: the same towns come back keystroke after keystroke. */
const townWords = new LRUCache<string, string[]>({ max: 20_000 });
function wordsOf(city: string): string[] {
  let words = townWords.get(city);
  if (!words) townWords.set(city, (words = tokens(city)));
  return words;
}

const round = (x: number) => Math.round(Math.max(0, Math.min(1, x)) * 1000) / 1000;

function placeHit(kind: 'postcode' | 'locality', components: AddressComponents, at: { lat: number; lng: number }, score: number): LocalHit {
  return { components, location: { lat: at.lat, lng: at.lng }, precision: kind, kind, score: round(score), label: formatLabel(components) };
}

/** Postcode areas as suggestions: the typed key scores as a postcode being typed does (whole: 1). */
export function postcodeHits(plan: Plan, areas: PostcodeArea[]): LocalHit[] {
  return areas.map((a) => {
    const typed = plan.postcode?.key.length ?? 0;
    const whole = a.postcode.replace(/[^\p{L}\p{N}]/gu, '').length;
    const components: AddressComponents = { postcode: a.postcode, country: a.country, ...(a.city ? { city: a.city } : {}), ...(a.state ? { state: a.state } : {}) };
    return placeHit('postcode', components, a, typed >= whole ? 1 : 0.9 + (0.1 * typed) / whole);
  });
}

/**
 * The towns every typed word names (a word of the town's name, whole or begun), from the streets
 * the search found (a town's words are in each of its streets' words): each town once, at the
 * centre of its streets found, scored as a street name is (the words' match, the share of the
 * town's name they cover). Not with a house number: that asks for an address.
 */
export function localityHits(plan: Plan, streets: readonly RankedStreet[]): LocalHit[] {
  if (plan.hn || plan.words.length === 0) return [];
  const towns = new Map<string, { hit: LocalHit; lat: number; lng: number; n: number }>();
  for (const { street } of streets) {
    if (!street.city) continue;
    const key = `${street.country}|${street.city}`;
    const seen = towns.get(key);
    if (seen) {
      seen.lat += street.lat * street.n;
      seen.lng += street.lng * street.n;
      seen.n += street.n;
      continue;
    }
    const name = wordsOf(street.city);
    const { scores, covered } = matchWords(plan.words, name);
    if (scores.some((s) => s === 0)) continue;
    const coverage = name.filter((w) => covered.has(w)).length / name.length;
    const components: AddressComponents = { city: street.city, country: street.country, ...(street.state ? { state: street.state } : {}) };
    towns.set(key, { hit: placeHit('locality', components, street, mean(scores) * (0.8 + 0.2 * coverage)), lat: street.lat * street.n, lng: street.lng * street.n, n: street.n });
  }
  return [...towns.values()].map(({ hit, lat, lng, n }) => ({ ...hit, location: n > 0 ? { lat: lat / n, lng: lng / n } : hit.location }));
}
