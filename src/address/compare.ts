import type { ComponentField, VerdictField } from '../contract/address.js';
import { isCardinalWord, isPrefixWord, isStreetTypeWord } from './abbreviations.js';
import { areCityAliases } from './city-aliases.js';
import { canonicalCountry } from './countries.js';
import { normalizeHouseNumber } from './house-number.js';
import { countryLanguages, FALLBACK_LANGUAGES } from './languages.js';
import { hasPostcodes, normalizePostcode } from './postcode.js';
import { differsByFillers, editDistance, isAbbreviation, isContained, isNameTypo, isTypo } from './similarity.js';
import { withoutParticles } from './particles.js';
import { expandNameWords, normalizeStreetIn } from './street.js';
import { compact, foldDigraphs, normalizeText } from './text.js';
import { US_STATES } from './us-states.js';

export type ComparisonVerdict = 'match' | 'corrected' | 'mismatch';

/** Small words that carry no identity on their own in names (`de`, `van`, `the`). */
const ARTICLES = new Set(['de', 'du', 'des', 'la', 'le', 'les', 'van', 'der', 'den', 'het', 'von', 'am', 'an', 'the', 'of', 'do', 'da', 'dos', 'das']);

/**
 * Verdict of one component pair after normalization (DESIGN §3):
 * - `match`: equal once case, diacritics (and their digraphs where the language writes them:
 *   `Muenchen`, `Koebenhavn`, `Aaboulevard`), punctuation, spacing, street-type and prefix
 *   abbreviations (`Str.`, `Sdr.`, `Av.`, `2e`) and postcode layout are normalized (formatting only);
 * - `corrected`: recognisably the same: a typo within typoAllowance, an abbreviation, a listed
 *   alternative name, a partial postcode the result completes (`1012` → `1012 LG`), a street that
 *   differs only by words that name no street on their own (its type, an article, a direction:
 *   `Champs-Élysées` → `Avenue des Champs-Élysées`), a town the result names more precisely
 *   (`Paris` → `Paris 8e`);
 * - `mismatch`: anything else, among them a street with a word the other lacks (`Nieuwe Binnenweg`
 *   is not `Binnenweg`). House numbers are exact after normalizeHouseNumber: never `corrected`.
 * Without a country, street words are tried in each fallback language and the best reading counts.
 */
export function compareComponent(field: ComponentField, input: string, result: string, country?: string): ComparisonVerdict {
  switch (field) {
    case 'houseNumber':
      return normalizeHouseNumber(input) === normalizeHouseNumber(result) ? 'match' : 'mismatch';
    case 'postcode':
      return comparePostcode(input, result, country);
    case 'country':
      return canonicalCountry(input) === canonicalCountry(result) ? 'match' : 'mismatch';
    case 'street':
      return compareStreet(input, result, country);
    case 'city':
      return compareCity(input, result, country);
    case 'state':
      return compareNames(expandState(input), expandState(result), { filler: () => false });
  }
}

/**
 * The input's city against every place a result names (its city first, then the other levels a
 * provider returns: village, municipality, county...): the best verdict, and the place it was
 * reached with, so the standardized address can name the place the person wrote. `town` is the
 * result's own town (the first place unless told; none where the result names no town).
 */
export function compareCityWithPlaces(
  input: string,
  places: readonly string[],
  country?: string,
  town: string | undefined = places[0],
): { verdict: ComparisonVerdict; place?: string } {
  let best: { verdict: ComparisonVerdict; place?: string } = { verdict: 'mismatch' };
  for (const place of places) {
    // Only the town itself may be named more precisely (`Paris` → `Paris 8e`): `London` is not a
    // correction of the district `City of London` some answers name instead of the town.
    const verdict = compareCity(input, place, country, place === town);
    if (verdict === 'match') return { verdict, place };
    if (verdict === 'corrected' && best.verdict === 'mismatch') best = { verdict, place };
  }
  return best;
}

/** Countries that are one town: their own name is the town of every address (`98000 Monaco`). */
const CITY_STATES = new Set(['MC', 'SG', 'VA', 'GI']);

/** The names a city-state goes by as a town (English and its own languages); empty elsewhere. */
export function cityStateNames(country: string | undefined): readonly string[] {
  const cc = country?.toUpperCase();
  if (!cc || !CITY_STATES.has(cc)) return [];
  let names = cityStates.get(cc);
  if (!names) {
    const all = ['en', ...countryLanguages(cc)].map((l) => new Intl.DisplayNames([l], { type: 'region', fallback: 'none' }).of(cc));
    cityStates.set(cc, (names = [...new Set(all.filter((n): n is string => Boolean(n)))]));
  }
  return names;
}
const cityStates = new Map<string, readonly string[]>();

/** Whether two street names are equal after normalization (formatting differences only). */
export function sameStreet(a: string, b: string, country?: string): boolean {
  return compareStreet(a, b, country) === 'match';
}

/** Whether two place names are equal after normalization (formatting differences only). */
export function samePlace(a: string, b: string, country?: string): boolean {
  return compareCity(a, b, country) === 'match';
}

const POSTCODE_FIELDS: readonly VerdictField[] = ['street', 'houseNumber', 'postcode', 'city'];
const NO_POSTCODE_FIELDS: readonly VerdictField[] = ['street', 'houseNumber', 'city'];

/**
 * Fields the country's address format requires, for `missing`: street, house number and city everywhere,
 * plus postcode where the country has a postcode system (NL, DE, FR, GB, US, ...). Unknown country: no postcode.
 */
export function requiredComponents(country: string | undefined): readonly VerdictField[] {
  return country && hasPostcodes(country) ? POSTCODE_FIELDS : NO_POSTCODE_FIELDS;
}

interface NameRules {
  /** Tokens that carry no identity on their own. */
  filler: (token: string) => boolean;
  /** Whether one name may contain the other with significant words to spare (towns: `Paris 8e`). */
  containment?: boolean;
  /** Pairs of words no typo turns into each other. */
  notATypo?: (x: string, y: string) => boolean;
}

/** Italian and Catalan contractions written with an inner dot (`P.za`, `C.so`, `V.le`) are one word. */
const CONTRACTION = /(?<=\b\p{L}{1,2})\.(?=\p{L}{1,3}\b)/gu;

function compareStreet(typed: string, found: string, country: string | undefined): ComparisonVerdict {
  return remembered(`s${keyPart(country)}${keyPart(typed)}${found}`, () => compareStreetNow(typed, found, country));
}

function compareStreetNow(typed: string, found: string, country: string | undefined): ComparisonVerdict {
  const [input, result] = [joined(typed), joined(found)];
  const langSets = country ? [countryLanguages(country)] : FALLBACK_SETS;
  let best: ComparisonVerdict = 'mismatch';
  for (const langs of langSets) {
    const rules = streetRules(langs);
    const plain = compareNames(normalizeStreetIn(input, langs), normalizeStreetIn(result, langs), rules);
    // A match as written is the best verdict there is: the folded forms can only tie it.
    if (plain === 'match') return plain;
    const [fa, fb] = [normalizeStreetIn(folded(input, langs), langs), normalizeStreetIn(folded(result, langs), langs)];
    let verdict = better(plain, compareNames(fa, fb, rules));
    // Particles dropped, added or swapped (`Rua Liberdade` = `Rua da Liberdade`) are formatting.
    if (verdict !== 'match') {
      const [pa, pb] = [withoutParticles(fa, langs), withoutParticles(fb, langs)];
      if (pa !== fa || pb !== fb) verdict = better(verdict, compareNames(pa, pb, rules));
    }
    if (verdict === 'match') return verdict;
    if (verdict === 'corrected') best = verdict;
  }
  return best;
}

function joined(x: string): string {
  return x.includes('.') ? x.replace(CONTRACTION, '') : x;
}

/** Without a country, each fallback language on its own. */
const FALLBACK_SETS: readonly (readonly string[])[] = FALLBACK_LANGUAGES.map((l) => [l]);

/** The street rules of a language set, built once per set (the sets are the languages module's own arrays). */
const STREET_RULES = new Map<readonly string[], NameRules>();
function streetRules(langs: readonly string[]): NameRules {
  let rules = STREET_RULES.get(langs);
  if (!rules) {
    rules = {
      filler: (t) => ARTICLES.has(t) || isStreetTypeWord(t, langs) || isCardinalWord(t, langs),
      notATypo: (x, y) => notATypo(x, y, langs),
    };
    STREET_RULES.set(langs, rules);
  }
  return rules;
}

/**
 * Verdicts of street and town pairs already compared: the engine compares the same pair while
 * reading a text against a result and again while scoring it, and a list names the same towns
 * row after row. The comparisons are pure; the memo is emptied when full (bounded memory).
 */
const MEMO_LIMIT = 20_000;
const memo = new Map<string, ComparisonVerdict>();

function remembered(key: string, compare: () => ComparisonVerdict): ComparisonVerdict {
  let verdict = memo.get(key);
  if (verdict === undefined) {
    verdict = compare();
    if (memo.size >= MEMO_LIMIT) memo.clear();
    memo.set(key, verdict);
  }
  return verdict;
}

/** A length-prefixed part of a memo key, so no two argument lists give the same key. */
function keyPart(value: string | undefined): string {
  return value === undefined ? '-' : `${value.length}:${value}`;
}

function compareCity(input: string, result: string, country: string | undefined, containment = true): ComparisonVerdict {
  return remembered(`c${containment ? 1 : 0}${keyPart(country)}${keyPart(input)}${result}`, () => compareCityNow(input, result, country, containment));
}

const CITY_RULES: NameRules = { filler: (t) => ARTICLES.has(t), containment: true };
const STRICT_CITY_RULES: NameRules = { filler: (t) => ARTICLES.has(t), containment: false };

function compareCityNow(input: string, result: string, country: string | undefined, containment: boolean): ComparisonVerdict {
  const langs = countryLanguages(country);
  const rules = containment ? CITY_RULES : STRICT_CITY_RULES;
  const plain = compareNames(expandNameWords(input, langs), expandNameWords(result, langs), rules);
  // A match as written is the best verdict there is: the folded forms can only tie it.
  if (plain === 'match') return plain;
  const verdict = better(plain, compareNames(expandNameWords(folded(input, langs), langs), expandNameWords(folded(result, langs), langs), rules));
  if (verdict === 'mismatch' && areCityAliases(normalizeText(input), normalizeText(result))) return 'corrected';
  return verdict;
}

/** Type endings of compound street names (normalized). */
const TYPE_ENDINGS = /(?:strasse|straat|straede|gracht|steeg|singel|plein|platz|gasse|allee|laan|kade|dijk|gade|weg|vej)$/;

/**
 * Words that differ in a way no typo explains: two directions (`North`/`South`), two listed name
 * prefixes (Danish `Nordre`/`Sønder`, `Store`/`Lille`), or two compounds
 * with the same type ending whose names differ beyond a typo of their own (`Begstrasse`/`Hagstrasse`).
 */
function notATypo(x: string, y: string, langs: readonly string[]): boolean {
  if (isCardinalWord(x, langs) && isCardinalWord(y, langs)) return true;
  if (isPrefixWord(x, langs) && isPrefixWord(y, langs)) return true; // `Nordre` is not `Sønder`, `Store` not `Lille`
  const ending = TYPE_ENDINGS.exec(x)?.[0];
  if (ending && y.endsWith(ending)) {
    const [sx, sy] = [x.slice(0, -ending.length), y.slice(0, -ending.length)];
    return sx !== sy && !isTypo(sx, sy);
  }
  return false;
}

const RANK: Record<ComparisonVerdict, number> = { match: 2, corrected: 1, mismatch: 0 };
function better(a: ComparisonVerdict, b: ComparisonVerdict): ComparisonVerdict {
  return RANK[a] >= RANK[b] ? a : b;
}

/**
 * Digraphs folded before words are looked up (`Soendre` is `Søndre`, so `Sdr.`). Names are compared
 * both as written and folded: folding may also eat letters a typo left (`Bahnhofstrae`).
 */
function folded(s: string, langs: readonly string[]): string {
  return foldDigraphs(normalizeText(s), langs);
}

/** Shared rules for names already normalized to the same vocabulary. */
function compareNames(a: string, b: string, rules: NameRules): ComparisonVerdict {
  if (a === b || compact(a) === compact(b)) return 'match';
  if (!a || !b) return 'mismatch';
  if (isNameTypo(a, b, rules.notATypo) || isAbbreviation(a, b)) return 'corrected';
  if (rules.containment ? isContained(a, b, rules.filler) : differsByFillers(a, b, rules.filler)) return 'corrected';
  return 'mismatch';
}

function comparePostcode(input: string, result: string, country: string | undefined): ComparisonVerdict {
  const a = normalizePostcode(input, country);
  const b = normalizePostcode(result, country);
  if (a === b) return 'match';
  const ca = a.replace(/[\s-]/g, '');
  const cb = b.replace(/[\s-]/g, '');
  if (ca === cb) return 'match';
  // ZIP vs ZIP+4: the extension adds precision, it does not conflict.
  if (/^\d{5}$/.test(ca) && /^\d{9}$/.test(cb) && cb.startsWith(ca)) return 'match';
  if (/^\d{5}$/.test(cb) && /^\d{9}$/.test(ca) && ca.startsWith(cb)) return 'match';
  // A partial postcode the result completes (`1012` → `1012 LG`, `SW1A` → `SW1A 2AA`).
  if (ca.length >= 2 && cb.length > ca.length && cb.startsWith(ca)) return 'corrected';
  // One mistyped or swapped character in a postcode of the same length.
  if (ca.length === cb.length && ca.length >= 4 && editDistance(ca, cb) === 1) return 'corrected';
  return 'mismatch';
}

function expandState(s: string): string {
  const code = s.trim().toUpperCase();
  return normalizeText(US_STATES[code] ?? s);
}
