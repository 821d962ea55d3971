import type { AddressComponents } from '../contract/address.js';
import { isStreetTypeWord } from './abbreviations.js';
import { canonicalCountry } from './countries.js';
import { findCountry, type FoundCountry } from './country-find.js';
import { houseNumberCandidates, type HouseNumberCandidate } from './house-number-find.js';
import { NUMBER_FIRST_COUNTRIES } from './languages.js';
import { assignNames } from './name-assign.js';
import { PlaceSet, streetSpan } from './name-spans.js';
import { type PlaceProbe, type PostcodeCandidate, type PostcodeShape, postcodeShapes, weighPostcodes } from './postcode-find.js';
import { normalizeStreetIn } from './street.js';
import { freeRuns, type Label, label, spanText, type Token, tokenize } from './tokens.js';
import { stripUnitAndRecipient } from './units.js';

/** What is known to exist, from a candidate result or the index: the reading prefers spans that name it. */
export interface ReadHints {
  streets?: readonly string[];
  places?: readonly string[];
  postcodes?: readonly string[];
}

export interface ReadOptions {
  /** The request's country: formats of postcodes, where the number goes, which words are street types. */
  country?: string;
  hints?: ReadHints;
}

/**
 * Reads free text in any order, case and punctuation into components (issue 15):
 * 1. the country a section or the end of the text names (`…, Nederland`, `… DK`);
 * 2. units (`Apt 4B`, `Whg. 5`, Danish floor and door `2. tv`, `340/3` in AT and LI) and recipient lines
 *    (`c/o Müller`) set aside before anything else is read (units.ts), so they never change how the
 *    house is read; the unit is returned in display form;
 * 3. the postcode and the house number, weighed together: each candidate's evidence (its shape for
 *    the country, where it stands, the towns and states around it: see postcode-find.ts and
 *    house-number-find.ts) and the best pair wins, so `Vesterbrogade 12 1620 København V` and
 *    `1620 København V Vesterbrogade 12` both read 12 as the number and 1620 as the postcode;
 * 4. street, town and state from the words left (name-assign.ts), with the places and streets
 *    known from `hints` (a result's) and the listed city names taken as written.
 * Sets `country` only when the text names one.
 */
export function readAddress(input: string, opts: ReadOptions = {}): AddressComponents {
  return finishReading(prepareReading(input, opts), opts.hints);
}

/**
 * A text read up to what its hints change (steps 1-2, and the postcode shapes and house numbers of
 * step 3): the engine reads one text against each candidate result, and prepared once without
 * hints this part serves every reading whose hints it does not depend on (servesHints).
 */
export interface PreparedText {
  /** The text without its unit and recipient parts. */
  text: string;
  /** The unit the text names, in display form. */
  unit: string | undefined;
  /** The parts of the text no component uses (recipient lines, delivery notes), in input order. */
  unresolved: readonly string[];
  tokens: readonly Token[];
  /** Labels after the country and a numbered known street; readings copy them. */
  labels: readonly (Label | undefined)[];
  /** The country the text names, if it does. */
  named: FoundCountry | undefined;
  /** `named`, unless a known street holds it (`5 Avenue Anatole France`). */
  namedCountry: string | undefined;
  country: string | undefined;
  us: boolean;
  numberFirst: boolean;
  postcodes: readonly PostcodeShape[];
  numbers: readonly HouseNumberCandidate[];
  /** Formatting-free keys of the text's spans as place names (they depend only on the country): shared by its readings. */
  placeKeys: Map<string, string>;
}

/** Steps 1-3 up to weighing the postcodes; `opts.hints` only for a street with a number or one holding the country's name. */
export function prepareReading(input: string, opts: ReadOptions = {}): PreparedText {
  const hinted = opts.country ? canonicalCountry(opts.country) : undefined;
  const { text, unit, unresolved } = stripUnitAndRecipient(input, hinted);
  const tokens = tokenize(text);
  const labels: (Label | undefined)[] = tokens.map(() => undefined);
  const looksUs = hinted === undefined && looksNumberFirst(tokens, ['en']);
  const named = findCountry(tokens, hinted === 'US' || looksUs, hinted);
  // `5 Avenue Anatole France`: a known street ending in a country's name keeps it.
  const inStreet = named && !tokens[named.from]?.opens && opts.hints?.streets?.length
    ? streetSpan(text, tokens, [{ from: 0, to: tokens.length - 1 }], opts.hints.streets, hinted)
    : undefined;
  let namedCountry: string | undefined;
  if (named && !(inStreet && inStreet.to >= named.from && inStreet.from <= named.to)) {
    namedCountry = named.country;
    label(labels, named, 'country');
  }
  const country = hinted ?? namedCountry;
  const us = country === 'US' || (country === undefined && looksUs);
  const numberFirst = country ? NUMBER_FIRST_COUNTRIES.has(country) : looksNumberFirst(tokens, ['en', 'fr']);
  // A known street with a number in its name (`Rua 25 de Abril`, `Avenue du 8 Mai 1945`): its words
  // are the street's before any of its numbers can be taken for the house number or the postcode.
  const numbered = opts.hints?.streets?.filter((s) => DIGIT.test(s));
  if (numbered?.length) {
    const span = streetSpan(text, tokens, freeRuns(tokens, labels), numbered, country);
    if (span && tokens.slice(span.from, span.to + 1).some((t) => DIGIT.test(t.text))) label(labels, span, 'street');
  }
  return {
    text,
    unit,
    unresolved,
    tokens,
    labels,
    named,
    namedCountry,
    country,
    us,
    numberFirst,
    postcodes: postcodeShapes(tokens, labels, { ...(country ? { country } : {}), usContext: us }),
    numbers: houseNumberCandidates(tokens, labels, { numberFirst, dutch: country === undefined || country === 'NL' || country === 'BE' }),
    placeKeys: new Map(),
  };
}

/**
 * Whether a text prepared without hints reads as one prepared with these: the hints take part
 * before the postcodes are weighed only through a street with a number in its name, or a street
 * that may hold the country's name the text ends with.
 */
export function servesHints(prepared: PreparedText, hints: ReadHints | undefined): boolean {
  const streets = hints?.streets;
  if (!streets?.length) return true;
  const { named, tokens } = prepared;
  if (named && !tokens[named.from]?.opens) return false;
  return !streets.some((s) => DIGIT.test(s));
}

/** Step 3's weighing and step 4, against `hints` (the ones the text was prepared with, or ones servesHints accepts). */
export function finishReading(prepared: PreparedText, hints: ReadHints | undefined): AddressComponents {
  const { text, tokens, country, us, numberFirst } = prepared;
  const labels = [...prepared.labels];
  const out: AddressComponents = {};
  if (prepared.namedCountry) out.country = prepared.namedCountry;
  if (prepared.unit) out.unit = prepared.unit;
  const places = new PlaceSet(hints?.places ?? [], country, prepared.placeKeys);
  const postcodes = weighPostcodes(prepared.postcodes, {
    ...(hints?.postcodes ? { known: hints.postcodes } : {}),
    places: new PlacesInText(places, text, tokens, labels),
  });
  const { postcode, houseNumber } = bestPair(postcodes, prepared.numbers);
  if (postcode) {
    out.postcode = postcode.value;
    label(labels, postcode, 'postcode');
  }
  if (houseNumber) {
    out.houseNumber = spanText(text, tokens, houseNumber);
    label(labels, houseNumber, 'houseNumber');
  }
  assignNames({ text, tokens, labels, country, numberFirst, us, places, streets: hints?.streets ?? [], houseNumber });
  for (const field of ['street', 'city', 'state'] as const) {
    const first = labels.indexOf(field);
    const value = first >= 0 ? spanText(text, tokens, { from: first, to: labels.lastIndexOf(field) }) : '';
    if (value) out[field] = value;
  }
  return out;
}

const DIGIT = /\d/;

/** The known places around the postcode candidates of one reading (a class: no closures made per reading). */
class PlacesInText implements PlaceProbe {
  constructor(
    private readonly places: PlaceSet,
    private readonly text: string,
    private readonly tokens: readonly Token[],
    private readonly labels: readonly (Label | undefined)[],
  ) {}

  placeAt(index: number): boolean {
    return this.places.at(this.text, this.tokens, this.labels, index) !== undefined;
  }

  placeEndsAt(index: number): boolean {
    return this.places.endingAt(this.text, this.tokens, this.labels, index) !== undefined;
  }
}

/** The postcode and house number that together have the most evidence (either may be absent; never the same words). */
function bestPair(postcodes: readonly PostcodeCandidate[], numbers: readonly HouseNumberCandidate[]): { postcode?: PostcodeCandidate; houseNumber?: HouseNumberCandidate } {
  // Index -1 stands for "none": the pairs are tried in the order none, then each candidate; the first best wins.
  let best = 0;
  let bestPostcode = -1;
  let bestNumber = -1;
  for (let p = -1; p < postcodes.length; p++) {
    const postcode = p < 0 ? undefined : postcodes[p];
    for (let h = -1; h < numbers.length; h++) {
      const houseNumber = h < 0 ? undefined : numbers[h];
      if (postcode && houseNumber && postcode.from <= houseNumber.to && houseNumber.from <= postcode.to) continue;
      const score = (postcode?.score ?? 0) + (houseNumber?.score ?? 0);
      if (score > best) {
        best = score;
        bestPostcode = p;
        bestNumber = h;
      }
    }
  }
  return {
    ...(bestPostcode >= 0 ? { postcode: postcodes[bestPostcode] } : {}),
    ...(bestNumber >= 0 ? { houseNumber: numbers[bestNumber] } : {}),
  };
}

/** `123 Main St, …`, `12 rue de Rivoli`: a leading number and a street-type word of the languages in its section. */
function looksNumberFirst(tokens: readonly Token[], langs: readonly string[]): boolean {
  if (!/^\d/.test(tokens[0]?.text ?? '')) return false;
  const sectionEnd = tokens.findIndex((t, i) => i > 0 && t.opens);
  const section = tokens.slice(1, sectionEnd === -1 ? tokens.length : sectionEnd);
  return section.some((t) => isStreetTypeWord(normalizeStreetIn(t.text, langs), langs));
}
