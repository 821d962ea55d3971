import { isStreetTypeWord } from './abbreviations.js';
import { countryLanguages, NUMBER_FIRST_COUNTRIES } from './languages.js';
import { COMPOUND_STREET } from './name-assign.js';
import { foldCase } from './text.js';
import type { Span, Token } from './tokens.js';
import { UNIT_WORDS, wordKey } from './unit-words.js';

/**
 * Recipient lines (`c/o Müller`, `Attn: John Miller`, `z. Hd. Frau Berg`, `t.a.v. de heer Jansen`)
 * and delivery notes (`door code 1234`): never a street, a unit or a place (issue 27). Phrases are
 * matched on lower-case, diacritic-free words without a closing colon.
 */
const ANYWHERE: readonly (readonly string[])[] = [
  ['c/o'], ['℅'], ['attn'], ['attn.'], ['attention'], ['fao'], ['f.a.o.'],
  ['z.hd.'], ['z.hd'], ['zhd'], ['z.', 'hd.'], ['z.', 'hd'], ['zu', 'handen'], ['zu', 'hd.'],
  ['t.a.v.'], ['t.a.v'], ['p/a'],
  ['a/c'], ['a/a'], ['ao', 'cuidado', 'de'], ['aos', 'cuidados', 'de'], ['a', 'la', 'atencion', 'de'],
  ['a', "l'attention", 'de'], ['a', "l'attention", "d'"], ['c.a.'], ['alla', 'c.a.'], ["all'attenzione", 'di'], ["all'att."],
];
/** Words that open a recipient line only at the start of a section (`bei` is in `Neustadt bei Coburg`). */
const SECTION_START: readonly (readonly string[])[] = [['bei'], ['chez'], ['att'], ['att.'], ['presso'], ['hos']];
/** Delivery notes: the phrase and the code after it. */
const NOTES: readonly (readonly string[])[] = [
  ['door', 'code'], ['gate', 'code'], ['entry', 'code'], ['access', 'code'], ['buzzer'], ['turcode'], ['tuercode'],
  ['digicode'], ['code', 'porte'], ['deurcode'], ['portkod'], ['portkode'], ['dorkode'], ['codice', 'porta'], ['codigo', 'puerta'],
];

/** The recipient lines and notes of a text, in input order. */
export function recipientSpans(tokens: readonly Token[], country: string | undefined): Span[] {
  const out: Span[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const opens = tokens[i]?.opens ?? false;
    const note = phraseAt(tokens, i, NOTES);
    if (note !== undefined) {
      // The code itself (`door code 1234`, `Türcode: 4711`).
      const next = tokens[note + 1];
      const to = next && !next.opens && /\d/.test(next.text) ? note + 1 : note;
      out.push({ from: i, to });
      i = to;
      continue;
    }
    const marker = phraseAt(tokens, i, ANYWHERE) ?? (opens ? phraseAt(tokens, i, SECTION_START) : undefined);
    if (marker === undefined) continue;
    const to = nameEnd(tokens, marker, country);
    out.push({ from: i, to });
    i = to;
  }
  return out;
}

function phraseKey(token: Token): string {
  return foldCase(token.text).replace(/:+$/, '');
}

/** The last token of one of `phrases` starting at `i`, or undefined. */
function phraseAt(tokens: readonly Token[], i: number, phrases: readonly (readonly string[])[]): number | undefined {
  for (const phrase of phrases) {
    if (phrase.every((word, k) => tokens[i + k] && (k === 0 || !tokens[i + k]?.opens) && phraseKey(tokens[i + k] as Token) === word)) return i + phrase.length - 1;
  }
  return undefined;
}

/**
 * Where the name after a recipient marker ends: at its section's end, or without a comma before the
 * first word of the address: a number, a unit, a street type (`Baaderstraße`, `Rua`), leaving the
 * street its word before the number where the number comes after it (`c/o Müller Damrak 1`).
 */
function nameEnd(tokens: readonly Token[], marker: number, country: string | undefined): number {
  const langs = country ? countryLanguages(country) : ALL_LANGS;
  let j = marker + 1;
  for (; j < tokens.length && !(tokens[j] as Token).opens; j++) {
    const t = tokens[j] as Token;
    if (/\d/.test(t.text) || UNIT_WORDS.has(wordKey(t.text)) || t.text.startsWith('#')) {
      if (!/\d/.test(t.text)) return j - 1;
      return Math.max(marker, numberFirst(tokens, j, country) ? j - 1 : j - 2);
    }
    if (COMPOUND_STREET.test(t.norm)) return j - 1;
    if (isStreetTypeWord(t.norm, langs)) {
      // `Rua da Alfândega` opens with its type; `Eastern Avenue` ends with it (its word before goes too).
      const typeLast = langs.some((l) => isStreetTypeWord(t.norm, [l]) && !TYPE_FIRST_LANGS.has(l));
      return Math.max(marker, typeLast && j - 2 > marker ? j - 2 : j - 1);
    }
  }
  return j - 1;
}

const ALL_LANGS = ['en', 'de', 'nl', 'fr', 'pt', 'es', 'it', 'da'];
const TYPE_FIRST_LANGS = new Set(['fr', 'es', 'it', 'pt']);

/** The number at `j` comes before its street: the country writes it so, or a street type follows it in its section. */
function numberFirst(tokens: readonly Token[], j: number, country: string | undefined): boolean {
  if (country) return NUMBER_FIRST_COUNTRIES.has(country.toUpperCase());
  for (let k = j + 1; k < tokens.length && k <= j + 4 && !(tokens[k] as Token).opens; k++) {
    if (isStreetTypeWord((tokens[k] as Token).norm, ['en', 'fr'])) return true;
  }
  return false;
}
