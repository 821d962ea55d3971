import { normalizeText } from './text.js';

/** Region codes ICU knows that are not current ISO 3166-1 countries (aliases, groupings, pseudo-regions). */
const NOT_COUNTRIES = new Set([
  'AC', 'AN', 'BU', 'CP', 'CS', 'DD', 'DG', 'DY', 'EA', 'EU', 'EZ', 'FX', 'HV', 'IC', 'NH', 'QO', 'RH', 'SU',
  'TA', 'TP', 'UK', 'UN', 'VD', 'XA', 'XB', 'YD', 'YU', 'ZR', 'ZZ',
]);
/** Languages whose country names a query may end with. */
const NAME_LANGUAGES = ['en', 'nl', 'de', 'fr', 'es', 'it', 'pt'];
const ALIASES: Record<string, string> = {
  uk: 'GB', 'great britain': 'GB', england: 'GB', scotland: 'GB', wales: 'GB', 'northern ireland': 'GB',
  usa: 'US', 'u s a': 'US', 'u s': 'US', 'united states of america': 'US',
  holland: 'NL', 'the netherlands': 'NL', 'kingdom of the netherlands': 'NL', brd: 'DE',
};
/** Country names that are also US states: `Atlanta, Georgia` names no country. */
const AMBIGUOUS_NAMES = new Set(['georgia', 'jersey']);

let codes: Set<string> | undefined;
let names: Map<string, string> | undefined;

function load(): { codes: Set<string>; names: Map<string, string> } {
  if (codes && names) return { codes, names };
  codes = new Set();
  names = new Map(Object.entries(ALIASES));
  // Intl knows every region's name in every language: no hand-kept country list needed.
  const displays = NAME_LANGUAGES.map((l) => new Intl.DisplayNames([l], { type: 'region', fallback: 'none' }));
  for (let a = 65; a <= 90; a++) {
    for (let b = 65; b <= 90; b++) {
      const code = String.fromCharCode(a, b);
      if (NOT_COUNTRIES.has(code) || displays[0]?.of(code) === undefined) continue;
      codes.add(code);
      for (const display of displays) {
        const name = display.of(code);
        if (!name) continue;
        for (const variant of [name, name.replace(/\s*\(.*\)\s*/g, ' ')]) {
          const key = normalizeText(variant);
          if (key && !AMBIGUOUS_NAMES.has(key) && !names.has(key)) names.set(key, code);
        }
      }
    }
  }
  return { codes, names };
}

/** Whether `code` is a current ISO 3166-1 alpha-2 code (`UK` is accepted as an alias of `GB`). */
export function isCountryCode(code: string): boolean {
  const upper = code.toUpperCase();
  return upper === 'UK' || load().codes.has(upper);
}

/** ISO code for `UK` → `GB`, else upper case. */
export function canonicalCountry(code: string): string {
  const upper = code.trim().toUpperCase();
  return upper === 'UK' ? 'GB' : upper;
}

/** ISO code for a country name in en/nl/de/fr/es/it/pt (`Nederland`, `Germany`, `Royaume-Uni`), or undefined. */
export function countryFromName(name: string): string | undefined {
  return load().names.get(normalizeText(name));
}
