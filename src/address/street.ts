import { languageTable, type LanguageTable } from './abbreviations.js';
import { countryLanguages, streetTypePosition } from './languages.js';
import { normalizeText } from './text.js';

/**
 * normalizeText plus abbreviation expansion, so equal streets give equal strings:
 * `Keizersgr.` = `Keizersgracht`, `Hauptstr.` = `Hauptstraße`, `Baker St` = `Baker Street`,
 * `Av. des Champs` = `Avenue des Champs`. Spaces stay: `Friedrich Str.` → `friedrich strasse` while
 * `Friedrichstr.` → `friedrichstrasse`; compareComponent treats that difference as formatting.
 */
export function normalizeStreet(s: string, country?: string): string {
  return normalizeStreetIn(s, countryLanguages(country));
}

/** The same for an explicit language list (first language that knows a word decides). */
export function normalizeStreetIn(s: string, langs: readonly string[]): string {
  const tokens = normalizeText(s).split(' ').filter(Boolean);
  const tables = langs.map(languageTable);
  return tokens.map((token, i) => expandToken(token, i, tokens, tables)).join(' ');
}

/** Expands every token of a city name that has exactly one non-street meaning (`St` → `saint`, `Nw` → `nieuw`). */
export function expandNameWords(s: string, langs: readonly string[]): string {
  const tables = langs.map(languageTable);
  return normalizeText(s)
    .split(' ')
    .filter(Boolean)
    .map((token) => {
      if (token.length < 2) return token;
      for (const table of tables) {
        const exps = table.words.get(token)?.filter((e) => !e.way);
        if (exps?.length === 1 && exps[0]) return exps[0].full;
        if (exps?.length) return token;
      }
      return token;
    })
    .join(' ');
}

function expandToken(token: string, index: number, tokens: readonly string[], tables: readonly LanguageTable[]): string {
  for (const table of tables) {
    const exps = table.words.get(token);
    if (!exps?.length) continue;
    if (exps.length === 1 && exps[0]) return exps[0].full;
    // Ambiguous (`st` = saint | street): the street-type reading wins only where the language puts its type.
    const atType = isTypePosition(index, tokens, table);
    const pick = exps.filter((e) => e.way === atType);
    return pick.length === 1 && pick[0] ? pick[0].full : token;
  }
  for (const table of tables) {
    for (const [abbr, full] of table.suffixes) {
      if (token.length > abbr.length + 1 && token.endsWith(abbr)) return token.slice(0, -abbr.length) + full;
    }
  }
  return token;
}

function isTypePosition(index: number, tokens: readonly string[], table: LanguageTable): boolean {
  if (streetTypePosition(table.lang) === 'first') return index === 0;
  // `Pennsylvania Ave NW`: trailing directions don't move the type position.
  let last = tokens.length - 1;
  while (last > 0 && (table.words.get(tokens[last] ?? '')?.every((e) => e.cardinal) ?? false)) last--;
  return index === last;
}
