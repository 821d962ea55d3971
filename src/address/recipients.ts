import { isPrefixWord, isStreetTypeWord } from './abbreviations.js';
import { countryLanguages, NUMBER_FIRST_COUNTRIES, streetTypePosition } from './languages.js';
import { COMPOUND_STREET } from './name-assign.js';
import { foldCase } from './text.js';
import { ORDINAL, type Span, type Token } from './tokens.js';
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
  ['a', "l'attention", 'de'], ['a', "l'attention", "d'"], ['alla', 'c.a.', 'di'], ['alla', 'c.a.'], ['c.a.'], ["all'attenzione", 'di'], ["all'att."],
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
 * Where the name after a recipient marker ends: at its section's end (`c/o Müller, Baaderstraße 22`),
 * or, written without a comma, before the first word of the address: a number where it comes first
 * (`Attn: John Miller 1932 Eastern Avenue`), a unit, a compound street (`Baaderstraße`), a name
 * prefix (`Lille Kongensgade`) or a type that opens its street (`Rua`, `Via`, `Carrer`). Where the
 * number follows a street nothing marks, the name is a salutation and one word (`Frau Berg Unter den
 * Linden 5`), else one word with its particles (`De Vries Gedempte Oude Gracht 40`).
 */
function nameEnd(tokens: readonly Token[], marker: number, country: string | undefined): number {
  const langs = country ? countryLanguages(country) : ALL_LANGS;
  const start = marker + 1;
  const salutation = salutationEnd(tokens, start);
  const short = shortName(tokens, salutation ?? start - 1);
  for (let j = start; j < tokens.length && !(tokens[j] as Token).opens; j++) {
    if (salutation !== undefined && j <= salutation) continue;
    const t = tokens[j] as Token;
    const next = tokens[j + 1];
    // An ordinal opens a street's name (`3e Binnenvestgracht`): the name ends before it.
    if (ORDINAL.test(t.text)) return Math.max(marker, salutation !== undefined ? Math.min(short, j - 1) : j - 1);
    if (/\d/.test(t.text)) {
      if (numberFirst(tokens, j, country)) return j - 1;
      return Math.max(marker, Math.min(short, j - 2));
    }
    const opensStreet =
      UNIT_WORDS.has(wordKey(t.text)) ||
      t.text.startsWith('#') ||
      isPrefixWord(t.norm, langs) ||
      (next !== undefined && !next.opens && !/\d/.test(next.text) && (TYPE_FIRST_EXTRA.has(t.norm) || langs.some((l) => streetTypePosition(l) === 'first' && isStreetTypeWord(t.norm, [l]))));
    // A street that ends in its type (`Baaderstraße`, `Hovedgaden`; `Mariahilfer Straße` with the word before it),
    // with the words that qualify it (`Grote Houtstraat`, `Gedempte Oude Gracht`, `Burgemeester Reigerstraat`).
    const closesStreet = COMPOUND_STREET.test(t.norm) || DEFINITE_STREET.test(t.norm);
    // A type closes the street its word before names where the number follows it (`Mariahilfer Straße 100`);
    // followed by words it opens one (`Platz der Deutschen Einheit 1`).
    const closesName = !next || next.opens || /^\d/.test(next.text);
    const typeAfterName = j > start && closesName && langs.some((l) => streetTypePosition(l) === 'last' && isStreetTypeWord(t.norm, [l]));
    if (opensStreet || closesStreet || typeAfterName) {
      // `Straße` is a prefix too (`Straße des 17. Juni`): after a word, it is the type closing that word's street.
      let first = typeAfterName ? j - 1 : j;
      while (first - 1 >= start && first - 1 > (salutation ?? marker) && STREET_ADJECTIVE.test((tokens[first - 1] as Token).norm)) first--;
      return Math.max(marker, salutation !== undefined ? Math.min(short, first - 1) : first - 1);
    }
  }
  let end = start;
  while (end < tokens.length && !(tokens[end] as Token).opens) end++;
  return end - 1;
}

/** Salutations before a name (`Frau`, `Herrn`, `de heer`, `Sr.`, `M.`, `Mrs`): matched on wordKey. */
const SALUTATIONS: readonly (readonly string[])[] = [
  ['de', 'heer'], ['mevrouw'], ['mevr'], ['dhr'], ['mw'], ['herrn'], ['herr'], ['frau'], ['familie'], ['fam'], ['hr'], ['fr'],
  ['mr'], ['mrs'], ['ms'], ['miss'], ['dr'], ['prof'], ['m'], ['mme'], ['mlle'], ['monsieur'], ['madame'],
  ['sr'], ['sra'], ['srta'], ['don'], ['dona'], ['sig'], ['sigra'], ['dott'],
];

/** The last token of the salutation that opens the name at `i`, or undefined. */
function salutationEnd(tokens: readonly Token[], i: number): number | undefined {
  for (const words of SALUTATIONS) {
    if (words.every((w, k) => tokens[i + k] && !tokens[i + k]?.opens && wordKey((tokens[i + k] as Token).text) === w)) return i + words.length - 1;
  }
  return undefined;
}

/** After `before`, one word of the name with the particles in front of it (`Jansen`, `De Vries`, `van der Berg`). */
function shortName(tokens: readonly Token[], before: number): number {
  let i = before + 1;
  while (NAME_PARTICLES.has(tokens[i]?.norm ?? '') && tokens[i + 1] && !tokens[i + 1]?.opens) i++;
  return i;
}

const NAME_PARTICLES = new Set(['de', 'van', 'der', 'den', 'von', 'zu', 'du', 'le', 'la', 'da', 'di', 'del', 'dos', 'ter', 'ten', 'mc', 'mac', 'o']);
/** Danish streets with their article (`Hovedgaden`, `Strandvejen`, `Kongens Nytorv`'s `Torvet`). */
const DEFINITE_STREET = /(?:gaden|vejen|torvet|pladsen)$/;
/** Words that qualify a street before its type: Dutch adjectives and titles (`Grote Houtstraat`, `Burgemeester Reigerstraat`). */
const STREET_ADJECTIVE = /^(?:grote|kleine|oude|nieuwe|lange|korte|hoge|lage|eerste|tweede|derde|vierde|burgemeester|gedempte|sint|heilige)$/;
/** Street types that open a name and are missing from the vocabularies: Catalan (Andorra, Catalonia). */
const TYPE_FIRST_EXTRA = new Set(['avinguda', 'carrer', 'placa', 'passeig', 'carretera', 'cami', 'travessera', 'rambla', 'baixada', 'pujada']);
const ALL_LANGS = ['en', 'de', 'nl', 'fr', 'pt', 'es', 'it', 'da'];

/** The number at `j` comes before its street: the country writes it so, or a street type follows it in its section. */
function numberFirst(tokens: readonly Token[], j: number, country: string | undefined): boolean {
  if (country) return NUMBER_FIRST_COUNTRIES.has(country.toUpperCase());
  for (let k = j + 1; k < tokens.length && k <= j + 4 && !(tokens[k] as Token).opens; k++) {
    if (isStreetTypeWord((tokens[k] as Token).norm, ['en', 'fr'])) return true;
  }
  return false;
}
