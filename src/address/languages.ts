/** Languages whose street vocabulary applies per country (ISO alpha-2), first one preferred. */
const COUNTRY_LANGUAGES: Record<string, readonly string[]> = {
  NL: ['nl'], SR: ['nl'], BE: ['nl', 'fr'], DE: ['de'], AT: ['de'], LI: ['de'], CH: ['de', 'fr', 'it'],
  LU: ['fr', 'de'], FR: ['fr'], MC: ['fr'], GB: ['en'], UK: ['en'], IE: ['en'], IM: ['en'], JE: ['en'],
  GG: ['en'], US: ['en'], CA: ['en', 'fr'], AU: ['en'], NZ: ['en'], ZA: ['en'], IN: ['en'], SG: ['en'],
  ES: ['es'], AD: ['es', 'fr'], MX: ['es'], AR: ['es'], CL: ['es'], CO: ['es'], PE: ['es'], IT: ['it'], SM: ['it'],
  PT: ['pt'], BR: ['pt'], DK: ['da'], NO: ['no'], SE: ['sv'], FI: ['fi', 'sv'], PL: ['pl'], CZ: ['cs'],
  SK: ['sk'], HU: ['hu'], RO: ['ro'], BG: ['bg'], HR: ['hr'], RS: ['sr'], SI: ['si'], EE: ['et'],
  LV: ['lv'], LT: ['lt'], GR: ['el'], CY: ['el', 'en'], TR: ['tr'], RU: ['ru'], IL: ['he'], ID: ['id'],
  JP: ['ja'],
};

/** Used when the country is unknown: the service's main markets, English first. */
export const FALLBACK_LANGUAGES: readonly string[] = ['en', 'nl', 'de', 'fr'];

export function countryLanguages(country: string | undefined): readonly string[] {
  if (!country) return FALLBACK_LANGUAGES;
  return COUNTRY_LANGUAGES[country.toUpperCase()] ?? FALLBACK_LANGUAGES;
}

/** Romance languages put the street type first (`Rue de Rivoli`); the others put it last (`Baker St`, `Damstraat`). */
const TYPE_FIRST = new Set(['fr', 'es', 'it', 'pt', 'ro']);

export function streetTypePosition(lang: string): 'first' | 'last' {
  return TYPE_FIRST.has(lang) ? 'first' : 'last';
}

/** Countries that write the number before the street (`10 Downing Street`, `12 bis rue de Rivoli`). */
export const NUMBER_FIRST_COUNTRIES: ReadonlySet<string> = new Set(['US', 'GB', 'IE', 'CA', 'AU', 'NZ', 'FR', 'MC', 'LU', 'ZA', 'IN', 'SG']);
