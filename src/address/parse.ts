import type { AddressComponents } from '../contract/address.js';
import { isStreetTypeWord, languageTable } from './abbreviations.js';
import { canonicalCountry, isCountryCode } from './countries.js';
import { countryLanguages } from './languages.js';
import { peliasParse, warmUpPelias } from './pelias.js';
import { findPostcode } from './postcode-find.js';
import { readStreetSection } from './street-section.js';
import { normalizeStreetIn } from './street.js';
import { takeTrailingCountry } from './trailing-country.js';
import { isUsStateCode } from './us-states.js';

/** Unit designators (`Apt 4B`, `Flat 2`, `Suite 100`, `#12`): providers do not match units, so they are dropped. */
const UNIT = /(?:^|(?<=[\s,]))(?:apt|apartment|flat|unit|suite|room|rm|bldg|building)\.?\s*#?\s*[\p{L}\p{N}-]*\d[\p{L}\p{N}-]*|#\s*[\p{L}\p{N}-]+/giu;

/** Dutch and German street names end in their type (`Kalverstraat`, `Hauptstrasse`). */
const COMPOUND_STREET = /(?:straat|strasse|weg|gracht|laan|plein|kade|dijk|singel|steeg|platz|gasse|allee|damm|ufer)$/;

/**
 * Free-form text → components. Our own pass takes what pelias-parser gets wrong (trailing country,
 * postcodes of every format, units, house numbers with letters and additions, number-after streets
 * like `Unter den Linden 77`); pelias-parser only splits street from city where no comma does.
 * Sets `country` only when the text names one; `opts.country` is a hint for formats.
 */
export function parseAddress(text: string, opts: { country?: string } = {}): AddressComponents {
  const out: AddressComponents = {};
  let work = text.replace(/\s+/g, ' ').trim();
  const hinted = opts.country ? canonicalCountry(opts.country) : undefined;
  const usContext = hinted === 'US' || (hinted === undefined && looksAmerican(work));
  const trailing = takeTrailingCountry(work, usContext);
  if (trailing) {
    out.country = trailing.country;
    work = trailing.rest;
  }
  const country = hinted ?? out.country;
  work = work.replace(UNIT, ',');
  const postcode = findPostcode(work, country);
  if (postcode) {
    out.postcode = postcode.value;
    work = `${work.slice(0, postcode.start)},${work.slice(postcode.end)}`;
  }
  const sections = work
    .split(/[,;]/)
    .map((s) => s.replace(/^[\s\-–]+|[\s\-–]+$/g, ''))
    .filter(Boolean);
  assignSections(sections, country, out);
  return withinBounds(out);
}

/** Field length bounds of SPEC's AddressComponents, so parsed text can be passed on as components. */
const MAX_LENGTH = { street: 200, houseNumber: 20, postcode: 20, city: 100, state: 100, country: 2 } as const;

function withinBounds(components: AddressComponents): AddressComponents {
  for (const field of Object.keys(MAX_LENGTH) as (keyof typeof MAX_LENGTH)[]) {
    const value = components[field];
    if (value !== undefined && value.length > MAX_LENGTH[field]) components[field] = value.slice(0, MAX_LENGTH[field]).trim();
  }
  return components;
}

/** `123 Main St, …`: a leading number and an English street type before the first comma. */
function looksAmerican(text: string): boolean {
  const words = (text.split(',')[0] ?? '').split(' ');
  return /^\d/.test(words[0] ?? '') && words.slice(1).some((w) => isStreetTypeWord(normalizeStreetIn(w, ['en']), ['en']));
}

function assignSections(sections: string[], country: string | undefined, out: AddressComponents): void {
  const index = sections.findIndex((s) => readStreetSection(s, country) !== undefined);
  const section = sections[index];
  const read = section !== undefined ? readStreetSection(section, country) : undefined;
  if (!read) return assignWithoutNumber(sections, out);
  out.houseNumber = read.houseNumber;
  let tail = read.tail;
  let street = read.street;
  const isLast = index === sections.length - 1;
  if (read.numberFirst && street && isLast && street.includes(' ')) {
    // `10 Downing Street London`: no comma tells where the street ends; pelias knows street words.
    const pelias = peliasParse(section ?? '').street?.value;
    const at = pelias ? street.indexOf(pelias) : -1;
    if (pelias && at === 0 && pelias.length < street.length) {
      tail = street.slice(pelias.length).trim();
      street = pelias;
    }
  }
  if (street) out.street = street;
  const rest = [tail, ...sections.slice(index + 1)].filter(Boolean);
  assignPlaces(rest, country === 'US' || (country === undefined && read.numberFirst), out);
}

/** City first; a US state code ends the city section or has its own; the last of several is the region. */
function assignPlaces(rest: string[], usContext: boolean, out: AddressComponents): void {
  if (rest.length === 1 && usContext) {
    const words = (rest[0] ?? '').split(' ');
    const last = words[words.length - 1] ?? '';
    if (words.length > 1 && /^[A-Z]{2}$/.test(last) && isUsStateCode(last)) rest = [words.slice(0, -1).join(' '), last];
  }
  if (rest[0]) out.city = rest[0];
  if (rest.length > 1) out.state = rest[rest.length - 1];
}

/** No house number: pelias tells a street from a place; a lone street-type word decides where it cannot. */
function assignWithoutNumber(sections: string[], out: AddressComponents): void {
  const first = sections[0];
  if (first === undefined) return;
  const pelias = peliasParse(sections.join(', '));
  const locality = pelias.locality?.value;
  if (sections.length >= 2) {
    if (locality === first || pelias.region?.value === first) return assignPlaces(sections, false, out);
    out.street = first;
    return assignPlaces(sections.slice(1), false, out);
  }
  if (pelias.street) {
    out.street = pelias.street.value;
    const after = first.slice(pelias.street.end).trim();
    if (after) assignPlaces([after], false, out);
    return;
  }
  if (locality && pelias.locality && pelias.locality.start > 0) {
    out.street = first.slice(0, pelias.locality.start).trim();
    out.city = first.slice(pelias.locality.start).trim();
    return;
  }
  const words = normalizeStreetIn(first, countryLanguages(undefined)).split(' ');
  if (words.some((w) => isStreetTypeWord(w, countryLanguages(undefined)) || COMPOUND_STREET.test(w))) out.street = first;
  else out.city = first;
}

/**
 * Loads what the first parse would otherwise pay for (pelias-parser's classifier, about 0.5 s; the
 * country-name table; the street vocabularies of the fallback languages). Call once at start-up.
 */
export function warmUpAddressParser(): void {
  warmUpPelias();
  isCountryCode('NL');
  for (const lang of countryLanguages(undefined)) languageTable(lang);
}
