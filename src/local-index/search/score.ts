import { LRUCache } from 'lru-cache';
import { normalizeStreet } from '../../address/normalize.js';
import type { AddressHit, StreetHit } from '../store/store.js';
import { tokens } from '../text.js';
import type { Plan, Term } from './plan.js';

/** How well one typed term matches one index word: exact, completed prefix, or through a typo. */
function termMatch(term: Term, word: string): number {
  let best = 0;
  for (const alt of term.alts) {
    let s = 0;
    if (alt.word === word) s = 1;
    else if (alt.prefix && word.startsWith(alt.word)) s = 0.9 + 0.1 * (alt.word.length / word.length);
    if (term.fuzzy) s *= 0.85;
    if (s > best) best = s;
  }
  return best;
}

export interface StreetScore {
  /** 0-1: how well the query's words name this street (and, in free text, its city). */
  score: number;
  /** Share of the street name's words the query covered: 1 means the whole name was given. */
  coverage: number;
  /** Every term matched exactly (no typo, no unfinished prefix). */
  exact: boolean;
}

export function matchWords(terms: Term[], words: string[]): { scores: number[]; covered: Set<string> } {
  const covered = new Set<string>();
  const scores = terms.map((term) => {
    let best = 0;
    let bestWord: string | undefined;
    for (const w of words) {
      const s = termMatch(term, w);
      if (s > best) [best, bestWord] = [s, w];
    }
    if (bestWord) covered.add(bestWord);
    return best;
  });
  return { scores, covered };
}

/**
 * A street name's words, as written and expanded (`Hauptstr.` → `hauptstrasse`). Every query
 * scores up to a hundred streets and the same names come back query after query (a name in
 * thousands of towns); normalizing each one again was a tenth of a geocode's time.
 */
const nameForms = new LRUCache<string, [string[], string[]]>({ max: 20_000 });
function formsOf(street: StreetHit): [string[], string[]] {
  const key = `${street.country}|${street.street}`;
  let forms = nameForms.get(key);
  if (!forms) nameForms.set(key, (forms = [tokens(street.street), tokens(normalizeStreet(street.street, street.country))]));
  return forms;
}

export const mean = (xs: number[]) => (xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length);

/** The share of a name's words covered (a function of its own, not a closure made per street scored). */
function share(forms: string[], covered: ReadonlySet<string>): number {
  return forms.length === 0 ? 0 : forms.filter((w) => covered.has(w)).length / forms.length;
}

export function scoreStreet(plan: Plan, street: StreetHit): StreetScore {
  const pool = plan.structured ? street.streetWords : [...street.streetWords, ...street.cityWords];
  const { scores, covered } = matchWords(plan.words, pool);
  const namedWords = street.streetWords.filter((w) => covered.has(w)).length;
  // The literal and the expanded form of the name are both indexed: either one may be covered.
  const [written, expanded] = formsOf(street);
  const coverage = Math.max(share(written, covered), share(expanded, covered));
  let score = mean(scores) * (0.8 + 0.2 * coverage);
  if (namedWords === 0) score *= 0.5;
  const exact = plan.words.every((t, i) => !t.fuzzy && scores[i] === 1);
  return { score, coverage, exact };
}

function cityScore(plan: Plan, street: StreetHit): number {
  return mean(matchWords(plan.cityWords, street.cityWords).scores);
}

/** House number agreement: the same number scores 1, a number being typed that this one starts with 0.9. */
export function houseNumberScore(plan: Plan, hnKey: string | undefined, hnBase: number | null): number {
  if (!plan.hn || hnKey === undefined) return 0;
  if (hnKey === plan.hn.key) return 1;
  if (plan.hn.prefix && hnKey.startsWith(plan.hn.key)) return 0.9;
  if (plan.hn.base !== null && plan.hn.base === hnBase) return 0.4;
  return 0;
}

/**
 * Match score of a hit against the query: weighted agreement of the parts the query gave
 * (street 0.45, house number 0.3, postcode 0.15, city 0.1). A free-text query mixes street
 * and city words, so its street part carries the city's weight too.
 */
export function scoreHit(plan: Plan, street: StreetHit, hit: AddressHit | undefined, streetScore: number): number {
  const parts: [number, number][] = plan.words.length > 0 ? [[plan.structured ? 0.45 : 0.55, streetScore]] : [];
  if (plan.hn) parts.push([0.3, hit ? houseNumberScore(plan, hit.hnKey, baseOf(hit.hnKey)) : 0]);
  if (plan.postcode) {
    const pc = (hit?.postcode ?? street.postcode)?.toUpperCase().replace(/[^\p{L}\p{N}]/gu, '');
    const agrees = pc !== undefined && (plan.postcode.prefix ? pc.startsWith(plan.postcode.key) : pc === plan.postcode.key);
    parts.push([0.15, agrees ? 1 : pc === undefined ? 0.5 : 0]);
  }
  if (plan.structured && plan.cityWords.length > 0) parts.push([0.1, cityScore(plan, street)]);
  const weight = parts.reduce((a, [w]) => a + w, 0);
  return weight === 0 ? 0 : parts.reduce((a, [w, s]) => a + w * s, 0) / weight;
}

function baseOf(hnKey: string): number | null {
  const m = /^\d+/.exec(hnKey);
  return m ? Number(m[0]) : null;
}
