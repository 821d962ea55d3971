import type { AddressComponents } from '../contract/address.js';
import { languageTable } from './abbreviations.js';
import { isCountryCode } from './countries.js';
import { countryLanguages } from './languages.js';
import { startPeliasThread, warmUpPelias } from './pelias.js';

export { addressParserReady } from './pelias.js';
import { finishReading, type PreparedText, prepareReading, readAddress, type ReadHints, servesHints } from './reader.js';

export type { ReadHints } from './reader.js';

/** Field length bounds of SPEC's AddressComponents, so parsed text can be passed on as components. */
const MAX_LENGTH = { street: 200, houseNumber: 20, postcode: 20, city: 100, state: 100, country: 2, unit: 40 } as const;

/**
 * Free-form text → components, in any order, case and punctuation (reader.ts). `opts.country` is
 * the request's country (formats); `opts.hints` what is known to exist (a candidate result's
 * street, places and postcode), so a reading against a result takes those words as written.
 * Sets `country` only when the text names one.
 */
export function parseAddress(text: string, opts: { country?: string; hints?: ReadHints } = {}): AddressComponents {
  return withinBounds(readAddress(text, opts));
}

/** Reads one text against any number of hints; each call equals `parseAddress(text, { ...opts, hints })`. */
export interface AddressReader {
  (hints?: ReadHints): AddressComponents;
  /** The text without its unit and recipient parts, and those parts: read once with the text. */
  setAside(): { text: string; unresolved: readonly string[] };
}

/**
 * One text read against several candidate results (the engine's readings, DESIGN §3): the part of
 * the reading the hints cannot change (tokens, the country the text names, units, the postcode
 * shapes and house numbers) is done once, and each reading only weighs them and assigns the names
 * against its hints. Hints that reach into that part (a street with a number in its name, or one
 * that may hold the country named at the end) get a reading of their own from the start.
 */
export function addressReader(text: string, opts: { country?: string } = {}): AddressReader {
  let plain: PreparedText | undefined;
  const prepared = () => (plain ??= prepareReading(text, opts));
  const read = (hints?: ReadHints) => {
    const base = prepared();
    const reading = servesHints(base, hints) ? base : prepareReading(text, { ...opts, ...(hints ? { hints } : {}) });
    return withinBounds(finishReading(reading, hints));
  };
  return Object.assign(read, { setAside: () => ({ text: prepared().text, unresolved: prepared().unresolved }) });
}

function withinBounds(components: AddressComponents): AddressComponents {
  for (const field of Object.keys(MAX_LENGTH) as (keyof typeof MAX_LENGTH)[]) {
    const value = components[field];
    if (value !== undefined && value.length > MAX_LENGTH[field]) components[field] = value.slice(0, MAX_LENGTH[field]).trim();
  }
  return components;
}

/**
 * Loads what the first parse would otherwise pay for (pelias-parser's classifier, 0.5-2 s of CPU;
 * the country-name table; the street vocabularies of the fallback languages). Call once at start-up.
 * `peliasThread`: the classifier is built in a worker thread, which every parse then uses (the
 * server: it listens without waiting for it); otherwise here and now.
 */
export function warmUpAddressParser(options: { peliasThread?: boolean } = {}): void {
  if (options.peliasThread) startPeliasThread();
  else warmUpPelias();
  isCountryCode('NL');
  for (const lang of countryLanguages(undefined)) languageTable(lang);
}
