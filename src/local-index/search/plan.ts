import type { AddressComponents, GeoPoint } from '../../contract/address.js';
import type { IndexStore, LookUpInput, LookUpResult, StreetPrefetch, WordLookUp, WordQuery, WordResolution } from '../store/store.js';
import { houseNumberBase, houseNumberKey, postcodeKey, tokens, wordForms } from '../text.js';

/** One typed word and the index words it may stand for. */
export interface Term {
  typed: string;
  /** Alternatives that exist in the index; empty when the word matched nothing (it is then ignored). */
  alts: WordQuery[];
  /** Alternatives reached only through a typo. */
  fuzzy: boolean;
}

export interface HouseNumberPart {
  key: string;
  base: number | null;
  /** Still being typed: match house numbers that start with it. */
  prefix: boolean;
}

export interface Plan {
  /** Free text: street and city words mixed. Structured: street words only. */
  words: Term[];
  /** Structured input only: the city's words. */
  cityWords: Term[];
  hn?: HouseNumberPart;
  postcode?: { key: string; prefix: boolean; known: boolean };
  country?: string;
  /** The query ends with a separator after a street name: expand the street into its house numbers. */
  drill: boolean;
  structured: boolean;
  /** The customer's position: streets are searched and ranked nearest first (search/near.ts). */
  near?: GeoPoint;
  /**
   * Free text whose number was read as a street word (a word of some street, of any country): the
   * same text with that number as the house number. Searched instead when no street of the
   * country has every word as first read (`10 New Square` in GB), so a number is a street word only
   * where the words around it make sense as one street's name (`Straße des 17 Juni 5`).
   */
  numberRead?: Plan;
  /**
   * Free text whose house number is also a postcode of the index (`9495 Landstr`): the same text
   * with it as that postcode, read where the streets have no such number.
   */
  postcodeRead?: Plan;
}

/** The street search the caller makes of a plan (see `LookUpInput.prefetch`). */
export type ExpectedSearch = (plan: Plan) => StreetPrefetch | undefined;

/** What a text or components ask the index, and the plan the answers give. */
export interface Reading {
  input: LookUpInput;
  plan(found: LookUpResult): Plan;
}

/** The reading's look-up, with the street search its plan leads to when `expect` is given (LookUpInput.prefetch). */
export function lookUpOf(reading: Reading, expect: ExpectedSearch | undefined): LookUpInput {
  return expect ? { ...reading.input, prefetch: (found) => expect(reading.plan(found)) } : reading.input;
}

/**
 * The reading with its last plan kept: a store whose words were all cached plans the answers it
 * returns to see whether a search rides along (PostgreSQL's `lookUp`), and the caller then plans the
 * very same answers; planning them once saved a tenth of a list row's index CPU in JS. A plan is
 * never changed after it is made, so sharing it is safe.
 */
function planningOnce(reading: Reading): Reading {
  let last: { found: LookUpResult; plan: Plan } | undefined;
  return {
    input: reading.input,
    plan(found) {
      if (last?.found !== found) last = { found, plan: reading.plan(found) };
      return last.plan;
    },
  };
}

/** Looks the reading's words up and plans from the answers. */
async function resolve(store: IndexStore, reading: Reading, expect: ExpectedSearch | undefined): Promise<Plan> {
  const once = expect ? planningOnce(reading) : reading;
  return once.plan(await store.lookUp(lookUpOf(once, expect)));
}

/** A house number, possibly half typed (`123-`), with an optional letter and additions. */
const HN_TOKEN = /^\d{1,6}[a-z]?(?:[-/][\p{L}\p{N}]{0,4})*$/iu;
/** A word that may follow the number and belongs to it: `12 B`, `12 bis`, `12 hs`. */
const HN_SUFFIX = /^(?:[a-z]|bis|ter|hs|huis|bg)$/i;

interface TermQuery {
  term: number;
  abbrev: boolean;
  q: WordQuery;
}

/**
 * What to look up for every typed word: itself (or as a prefix, while typing it), and, for a
 * longer word, as an abbreviation without its dot (`Landstr` → `landstrasse`); typos come with the answer.
 */
function termQueries(words: string[], lastIsPrefix: boolean, country?: string): TermQuery[] {
  const queries: TermQuery[] = [];
  words.forEach((typed, i) => {
    const prefix = lastIsPrefix && i === words.length - 1;
    // A number is only ever itself (the street normalizer would spell `17` as `seventeen`).
    for (const word of /\p{L}/u.test(typed) ? wordForms(typed, country) : [typed]) {
      queries.push({ term: i, abbrev: false, q: { word, prefix } });
      if (!prefix && word.length >= 4 && /\p{L}/u.test(word)) queries.push({ term: i, abbrev: true, q: { word, prefix: true } });
    }
  });
  return queries;
}

/** The store's look-ups for `termQueries` (terms numbered from `offset`): typo candidates only ever of use for a reading that is not an abbreviation (see termsFrom). */
function lookUps(queries: TermQuery[], offset = 0): WordLookUp[] {
  return queries.map((q) => ({ ...q.q, term: q.term + offset, typos: !q.abbrev }));
}

/** Each typed word's alternatives from the answers to its `termQueries` (`resolved[j]` answers `queries[j]`). */
function termsFrom(words: string[], queries: TermQuery[], resolved: WordResolution[]): Term[] {
  // Each word's queries with their answers, in one pass (not one pass over all of them per word).
  const byTerm = words.map(() => [] as (TermQuery & { r: WordResolution })[]);
  queries.forEach((q, j) => byTerm[q.term]!.push({ ...q, r: resolved[j]! }));
  return words.map((typed, i) => {
    const mine = byTerm[i]!;
    const known = mine.filter((m) => m.r.known && !m.abbrev).map((m) => m.q);
    if (known.length > 0) return { typed, alts: known, fuzzy: false };
    const abbreviations = mine.filter((m) => m.r.known && m.abbrev).map((m) => m.q);
    const fuzzy = mine.filter((m) => !m.abbrev).flatMap((m) => m.r.fuzzy.map((word) => ({ word, prefix: m.q.prefix })));
    return { typed, alts: [...abbreviations, ...fuzzy], fuzzy: true };
  });
}

/**
 * Reads free text the way the index can answer it: postcodes are recognised by looking
 * them up (`1012 LG`, `1012LG`, or a postcode being typed), the house number is the first
 * number-like token that is not a street word (`3e` in `3e Binnenvestgracht` is one), and
 * every other word becomes a term matched against street and city names, with typos.
 */
export function planText(store: IndexStore, text: string, typing: boolean, country?: string, expect?: ExpectedSearch, near?: GeoPoint): Promise<Plan> {
  return resolve(store, textReading(text, typing, country, near), expect);
}

/** planText's look-up and plan. */
export function textReading(text: string, typing: boolean, country?: string, near?: GeoPoint): Reading {
  const ends = /[\s,;]$/.test(text);
  const raw = text.split(/[\s,;]+/).filter((t) => /[\p{L}\p{N}]/u.test(t));
  const lastIndex = raw.length - 1;
  const all = raw.flatMap((t, i) => (HN_TOKEN.test(t) ? [{ t: tokens(t).join(''), i, num: true }] : tokens(t).map((w) => ({ t: w, i, num: false }))));
  // Postcode candidates and words in one store call (one round trip); postcode tokens are then dropped.
  const typedWords = all.map((w) => w.t);
  const queries = termQueries(typedWords, typing && !ends && all.at(-1)?.i === lastIndex, country);
  const candidates = postcodeCandidates(raw, typing && !ends);
  const input = { words: lookUps(queries), postcodes: candidates.keys, postcodePrefixes: candidates.typed.map((t) => t.key), country };
  return { input, plan: textPlan };

  function textPlan(found: LookUpResult): Plan {
    const postcode = pickPostcode(candidates, found);
    const allTerms = termsFrom(typedWords, queries, found.words);
    const used = new Set<number>(postcode?.at ?? []);
    const kept = all.map((w, k) => ({ w, term: allTerms[k]! })).filter(({ w }) => !used.has(w.i));
    const wordish = kept.map((k) => k.w);
    const terms = kept.map((k) => k.term);

    /**
     * `numberFirst`: the first number is the house number even where it is a word of some street
     * (`10` of a Portuguese `Rua … entrada 10 loja 11`): the reading searched when no street of the
     * country has every word read the other way (see `Plan.numberRead`).
     */
    const read = (numberFirst: boolean) => {
      let hn: HouseNumberPart | undefined;
      let hnAt = -1;
      let wordNumber = false;
      const taken = new Set(used);
      const words: Term[] = [];
      wordish.forEach((w, k) => {
        const next = wordish[k + 1];
        // `3e` in `3e Binnenvestgracht`, `34` in `Rge Road 34 712046`: part of the name when something follows.
        const isStreetWord = terms[k]!.alts.length > 0 && !terms[k]!.fuzzy && next !== undefined && !(numberFirst && !hn);
        if (w.num && !hn && !isStreetWord) {
          let typed = raw[w.i]!;
          let last = w.i;
          const after = raw[w.i + 1];
          if (after !== undefined && !taken.has(w.i + 1) && HN_SUFFIX.test(after) && !(terms[k + 1]?.alts.length && !terms[k + 1]?.fuzzy)) {
            typed = `${typed} ${after}`;
            last = w.i + 1;
            taken.add(w.i + 1);
          }
          hn = { key: houseNumberKey(typed), base: houseNumberBase(typed), prefix: typing && !ends && last === lastIndex };
          hnAt = last === w.i ? w.i : -1;
          return;
        }
        if (taken.has(w.i)) return;
        if (w.num && !hn && isStreetWord) wordNumber = true;
        if (!w.num || terms[k]!.alts.length > 0) words.push(terms[k]!);
      });
      const plan: Plan = { words, cityWords: [], hn, postcode: postcode?.part, country, drill: typing && ends, structured: false, ...(near ? { near } : {}) };
      const asPostcode = hn && !hn.prefix && !postcode && hnAt >= 0 ? postcodeKey(raw[hnAt]!) : undefined;
      if (asPostcode !== undefined && found.postcodes.has(asPostcode)) {
        plan.postcodeRead = { ...plan, hn: undefined, postcode: { key: asPostcode, prefix: false, known: true } };
      }
      return { plan, wordNumber };
    };
    const { plan, wordNumber } = read(false);
    return wordNumber ? { ...plan, numberRead: read(true).plan } : plan;
  }
}

interface PostcodeCandidates {
  candidates: { at: number[]; key: string }[];
  /** Exact keys to look up. */
  keys: string[];
  /** A postcode being typed at the end: `1012 L`, `1012`, `SW1A 1` (prefix keys to look up). */
  typed: { at: number[]; key: string }[];
  allowed: (at: number[], key: string) => boolean;
}

function postcodeCandidates(raw: string[], typingLast: boolean): PostcodeCandidates {
  const hasWords = raw.some((t) => !/\d/.test(t) && !HN_SUFFIX.test(t));
  // With street words around, a number is the house number unless another number can be.
  const allowed = (at: number[], key: string) =>
    !hasWords || /\p{L}/u.test(key) || raw.some((t, i) => !at.includes(i) && HN_TOKEN.test(t));
  const candidates: { at: number[]; key: string }[] = [];
  raw.forEach((t, i) => {
    const next = raw[i + 1];
    if (/^\d[\p{L}\p{N}]{1,7}$/u.test(t) && next !== undefined && /^[\p{L}\p{N}]{1,4}$/u.test(next)) {
      candidates.push({ at: [i, i + 1], key: postcodeKey(t + next) });
    }
    if (/\d/.test(t) && postcodeKey(t).length >= 3) candidates.push({ at: [i], key: postcodeKey(t) });
  });
  // A lone number read as the house number is looked up too: a postcode typed first (`9495 Landstr`)
  // is read as one where the streets lack that number (Plan.postcodeRead).
  const keys = [...new Set(candidates.filter((c) => allowed(c.at, c.key) || (c.at.length === 1 && /^\d+$/.test(c.key))).map((c) => c.key))];
  const n = raw.length;
  const typed = (!typingLast || n === 0 ? [] : n >= 2 ? [[n - 2, n - 1], [n - 1]] : [[n - 1]])
    .map((at) => ({ at, key: postcodeKey(at.map((i) => raw[i]).join('')) }))
    .filter(({ at, key }) => /^\d|^\p{L}{1,2}\d/u.test(raw[at[0]!]!) && allowed(at, key) && key.length >= 2)
    .filter(({ at }) => at.length === 1 || /^[\p{L}\p{N}]{1,4}$/u.test(raw[n - 1]!));
  return { candidates, keys, typed, allowed };
}

/** The postcode the text names, from the index's answers: a whole one first, else one being typed. */
function pickPostcode(
  c: PostcodeCandidates,
  found: LookUpResult,
): { at: number[]; part: { key: string; prefix: boolean; known: boolean } } | undefined {
  const exact = c.candidates.find((x) => found.postcodes.has(x.key) && c.allowed(x.at, x.key));
  if (exact) return { at: exact.at, part: { key: exact.key, prefix: false, known: true } };
  const partial = c.typed.find((_, i) => found.postcodePrefixes[i]);
  return partial ? { at: partial.at, part: { key: partial.key, prefix: true, known: true } } : undefined;
}

/** Structured input (the caller's components, or what a parser read from the query). */
export function planComponents(store: IndexStore, c: AddressComponents, country?: string, expect?: ExpectedSearch, near?: GeoPoint): Promise<Plan> {
  return resolve(store, componentsReading(c, country, near), expect);
}

/** planComponents' look-up and plan. */
export function componentsReading(c: AddressComponents, country?: string, near?: GeoPoint): Reading {
  const cc = c.country ?? country;
  const streetWords = tokens(c.street);
  const cityWords = tokens(c.city);
  const pcKey = c.postcode ? postcodeKey(c.postcode) : '';
  const streetQueries = termQueries(streetWords, false, cc);
  const cityQueries = termQueries(cityWords, false, cc);
  const input = {
    words: [...lookUps(streetQueries), ...lookUps(cityQueries, streetWords.length)],
    postcodes: pcKey ? [pcKey] : [],
    postcodePrefixes: [],
    country: cc,
  };
  return {
    input,
    plan: (found) => {
      const words = termsFrom(streetWords, streetQueries, found.words.slice(0, streetQueries.length));
      const cities = termsFrom(cityWords, cityQueries, found.words.slice(streetQueries.length));
      const known = found.postcodes.has(pcKey);
      return {
        words: words.filter((t) => t.alts.length > 0),
        cityWords: cities.filter((t) => t.alts.length > 0),
        hn: c.houseNumber ? { key: houseNumberKey(c.houseNumber), base: houseNumberBase(c.houseNumber), prefix: false } : undefined,
        postcode: pcKey ? { key: pcKey, prefix: false, known } : undefined,
        country: cc,
        drill: false,
        structured: true,
        ...(near ? { near } : {}),
      };
    },
  };
}
