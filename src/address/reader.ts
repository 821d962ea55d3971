import type { AddressComponents } from '../contract/address.js';
import { isStreetTypeWord } from './abbreviations.js';
import { canonicalCountry } from './countries.js';
import { findCountry } from './country-find.js';
import { houseNumberCandidates, type HouseNumberCandidate } from './house-number-find.js';
import { assignNames } from './name-assign.js';
import { PlaceSet, streetSpan } from './name-spans.js';
import { postcodeCandidates, type PostcodeCandidate } from './postcode-find.js';
import { normalizeStreetIn } from './street.js';
import { freeRuns, type Label, label, spanText, type Token, tokenize } from './tokens.js';

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

/** Countries that write the number before the street (`10 Downing Street`, `12 bis rue de Rivoli`). */
export const NUMBER_FIRST_COUNTRIES = new Set(['US', 'GB', 'IE', 'CA', 'AU', 'NZ', 'FR', 'MC', 'LU', 'ZA', 'IN', 'SG']);

/** Unit designators (`Apt 4B`, `Flat 2`, `Suite 100`, `#12`): providers do not match units, so they are set aside. */
const UNIT_WORD = /^(?:apt|apartment|flat|unit|suite|ste|room|rm|bldg|building|floor|fl)\.?$/i;

/**
 * Reads free text in any order, case and punctuation into components (issue 15):
 * 1. the country a section or the end of the text names (`…, Nederland`, `… DK`);
 * 2. units (`Apt 4B`, Danish floor and door `2. tv`) set aside;
 * 3. the postcode and the house number, weighed together: each candidate's evidence (its shape for
 *    the country, where it stands, the towns and states around it: see postcode-find.ts and
 *    house-number-find.ts) and the best pair wins, so `Vesterbrogade 12 1620 København V` and
 *    `1620 København V Vesterbrogade 12` both read 12 as the number and 1620 as the postcode;
 * 4. street, town and state from the words left (name-assign.ts), with the places and streets
 *    known from `hints` (a result's) and the listed city names taken as written.
 * Sets `country` only when the text names one.
 */
export function readAddress(input: string, opts: ReadOptions = {}): AddressComponents {
  const text = input.replace(/\s+/g, ' ').trim();
  const tokens = tokenize(text);
  const labels: (Label | undefined)[] = tokens.map(() => undefined);
  const out: AddressComponents = {};
  const hinted = opts.country ? canonicalCountry(opts.country) : undefined;
  const looksUs = hinted === undefined && looksNumberFirst(tokens, ['en']);
  const named = findCountry(tokens, hinted === 'US' || looksUs);
  // `5 Avenue Anatole France`: a known street ending in a country's name keeps it.
  const inStreet = named && !tokens[named.from]?.opens && opts.hints?.streets?.length
    ? streetSpan(text, tokens, [{ from: 0, to: tokens.length - 1 }], opts.hints.streets, hinted)
    : undefined;
  if (named && !(inStreet && inStreet.to >= named.from && inStreet.from <= named.to)) {
    out.country = named.country;
    label(labels, named, 'country');
  }
  const country = hinted ?? out.country;
  const us = country === 'US' || (country === undefined && looksUs);
  const numberFirst = country ? NUMBER_FIRST_COUNTRIES.has(country) : looksNumberFirst(tokens, ['en', 'fr']);
  markUnits(tokens, labels, country);
  // A known street with a number in its name (`Rua 25 de Abril`, `Avenue du 8 Mai 1945`): its words
  // are the street's before any of its numbers can be taken for the house number or the postcode.
  const numbered = opts.hints?.streets?.filter((s) => /\d/.test(s));
  if (numbered?.length) {
    const span = streetSpan(text, tokens, freeRuns(tokens, labels), numbered, country);
    if (span && tokens.slice(span.from, span.to + 1).some((t) => /\d/.test(t.text))) label(labels, span, 'street');
  }

  const places = new PlaceSet(opts.hints?.places ?? [], country);
  const postcodes = postcodeCandidates(tokens, labels, {
    ...(country ? { country } : {}),
    usContext: us,
    ...(opts.hints?.postcodes ? { known: opts.hints.postcodes } : {}),
    placeAt: (i) => places.at(text, tokens, labels, i) !== undefined,
    placeEndsAt: (i) => places.endingAt(text, tokens, labels, i) !== undefined,
  });
  const numbers = houseNumberCandidates(tokens, labels, { numberFirst, dutch: country === undefined || country === 'NL' || country === 'BE' });
  const { postcode, houseNumber } = bestPair(postcodes, numbers);
  if (postcode) {
    out.postcode = postcode.value;
    label(labels, postcode, 'postcode');
  }
  if (houseNumber) {
    out.houseNumber = spanText(text, tokens, houseNumber);
    label(labels, houseNumber, 'houseNumber');
  }
  assignNames({ text, tokens, labels, country, numberFirst, us, places, streets: opts.hints?.streets ?? [], houseNumber });
  for (const field of ['street', 'city', 'state'] as const) {
    const at = labels.flatMap((l, i) => (l === field ? [i] : []));
    const value = at.length > 0 ? spanText(text, tokens, { from: at[0] as number, to: at[at.length - 1] as number }) : '';
    if (value) out[field] = value;
  }
  return out;
}

/** The postcode and house number that together have the most evidence (either may be absent; never the same words). */
function bestPair(postcodes: readonly PostcodeCandidate[], numbers: readonly HouseNumberCandidate[]) {
  let best: { postcode?: PostcodeCandidate; houseNumber?: HouseNumberCandidate; score: number } = { score: 0 };
  for (const postcode of [undefined, ...postcodes]) {
    for (const houseNumber of [undefined, ...numbers]) {
      if (postcode && houseNumber && postcode.from <= houseNumber.to && houseNumber.from <= postcode.to) continue;
      const score = (postcode?.score ?? 0) + (houseNumber?.score ?? 0);
      if (score > best.score) best = { ...(postcode ? { postcode } : {}), ...(houseNumber ? { houseNumber } : {}), score };
    }
  }
  return best;
}

/** `123 Main St, …`, `12 rue de Rivoli`: a leading number and a street-type word of the languages in its section. */
function looksNumberFirst(tokens: readonly Token[], langs: readonly string[]): boolean {
  if (!/^\d/.test(tokens[0]?.text ?? '')) return false;
  const sectionEnd = tokens.findIndex((t, i) => i > 0 && t.opens);
  const section = tokens.slice(1, sectionEnd === -1 ? tokens.length : sectionEnd);
  return section.some((t) => isStreetTypeWord(normalizeStreetIn(t.text, langs), langs));
}

/** Danish floor and door (`2. tv`, `st. th`, `1.mf`, `3. sal`): the unit within the house. */
const DK_FLOOR = /^(?:\d{1,2}\.|st\.?|kl\.?|stuen)$/i;
const DK_DOOR = /^(?:tv|th|mf|sal)\.?$/i;
const DK_FLOOR_DOOR = /^\d{1,2}\.(?:tv|th|mf)\.?$/i;

function markUnits(tokens: readonly Token[], labels: (Label | undefined)[], country: string | undefined): void {
  const danish = country === undefined || country === 'DK';
  tokens.forEach((t, i) => {
    const next = tokens[i + 1];
    if (danish && i > 0 && DK_FLOOR_DOOR.test(t.text)) labels[i] = 'unit';
    else if (danish && i > 0 && DK_FLOOR.test(t.text) && next && DK_DOOR.test(next.text)) {
      labels[i] = 'unit';
      labels[i + 1] = 'unit';
    } else if (/^#[\p{L}\p{N}-]+$/u.test(t.text)) labels[i] = 'unit';
    else if ((UNIT_WORD.test(t.text) || t.text === '#') && next && !next.opens && /\d|^[a-z]$/i.test(next.text.replace(/^#/, ''))) {
      labels[i] = 'unit';
      labels[i + 1] = 'unit';
    }
  });
}
