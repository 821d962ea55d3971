import { createRequire } from 'node:module';
import { z } from 'zod';
import { normalizeText } from './text.js';

/**
 * Street vocabulary per language from @mapbox/geocoder-abbreviations (a maintained table, 29
 * languages), plus the few Dutch/German forms it lacks. Loaded lazily, once per language.
 */
const require = createRequire(import.meta.url);

/** Wire format of one group in the package's `tokens/<lang>.json` (the "advanced" form). */
const TokenGroup = z.object({
  tokens: z.array(z.string()),
  full: z.string(),
  type: z.string().optional(),
  regex: z.boolean().optional(),
});
const TokenFile = z.array(TokenGroup);
type TokenGroup = z.infer<typeof TokenGroup>;

export interface Expansion {
  /** Canonical (full) form, already normalizeText'ed. */
  full: string;
  /** A street type (`Street`, `straat`, `Rue`): preferred where the language puts its street type. */
  way: boolean;
  /** A direction (`N`, `NW`, `noord`): skipped when finding the street-type position. */
  cardinal: boolean;
}

export interface LanguageTable {
  lang: string;
  /** Whole-word token → possible expansions (several when the token is ambiguous, like `st`). */
  words: ReadonlyMap<string, readonly Expansion[]>;
  /** Abbreviated endings of compound street names (`Keizersgr.`, `Hauptstr.`), longest first. */
  suffixes: ReadonlyArray<readonly [abbr: string, full: string]>;
}

/** Street types the package misses or files as non-street words. */
const EXTRA_WAYS: Record<string, ReadonlyArray<readonly [string, string]>> = {
  nl: [['pl', 'plein'], ['pln', 'plein'], ['ln', 'laan'], ['kd', 'kade'], ['wg', 'weg'], ['sngl', 'singel'], ['dk', 'dijk'], ['plnts', 'plantsoen']],
  de: [['str', 'strasse'], ['pl', 'platz']],
  // The package's Danish table knows only `gl`; these are the types Danish streets are named with.
  da: [['vej', 'vej'], ['gade', 'gade'], ['alle', 'alle'], ['plads', 'plads'], ['torv', 'torv'], ['straede', 'straede'], ['boulevard', 'boulevard'], ['boulevarden', 'boulevarden'], ['vaenge', 'vaenge'], ['have', 'have']],
  pt: [['lg', 'largo'], ['pc', 'praca'], ['tv', 'travessa'], ['trav', 'travessa'], ['estr', 'estrada'], ['al', 'alameda']],
  // The package's Italian table knows only `Via`, `Viale`, `Vicolo`, `Calle`, `Corte`.
  it: [
    ['piazza', 'piazza'], ['pza', 'piazza'], ['pzza', 'piazza'], ['corso', 'corso'], ['cso', 'corso'], ['vle', 'viale'], ['largo', 'largo'],
    ['piazzale', 'piazzale'], ['lungotevere', 'lungotevere'],
  ],
  // `Pg.` is how Catalan writes `Passeig` (the package files it under Spanish `Paseo`).
  es: [['pg', 'paseo']],
  en: [['loop', 'loop'], ['lp', 'loop'], ['parade', 'parade'], ['pde', 'parade'], ['plaza', 'plaza'], ['plz', 'plaza']],
};

/**
 * Name words the package lacks, as [written, canonical]: Danish prefixes (`Sdr.` stands for both
 * `Søndre` and `Sønder`, so all three share one form; `St.` is `Store`, `Skt.` is `Sankt`, `Ndr.`
 * `Nordre`, `Kgs.` `Kongens`) and
 * Dutch ordinals (`2e` = `tweede` = `2de`, as in `2e Helmersstraat`).
 */
const EXTRA_WORDS: Record<string, ReadonlyArray<readonly [string, string]>> = {
  da: [
    ['sdr', 'sonder'], ['sondre', 'sonder'], ['sonder', 'sonder'], ['nr', 'norre'], ['norre', 'norre'], ['skt', 'sankt'],
    ['sankt', 'sankt'], ['ndr', 'nordre'], ['nordre', 'nordre'], ['kgs', 'kongens'], ['kongens', 'kongens'], ['st', 'store'], ['store', 'store'], ['ll', 'lille'], ['lille', 'lille'], ['gl', 'gammel'], ['gammel', 'gammel'],
  ],
  nl: [
    ['eerste', '1e'], ['1ste', '1e'], ['1e', '1e'], ['tweede', '2e'], ['2de', '2e'], ['2e', '2e'], ['derde', '3e'], ['3de', '3e'], ['3e', '3e'],
    ['vierde', '4e'], ['4de', '4e'], ['4e', '4e'], ['vijfde', '5e'], ['5de', '5e'], ['5e', '5e'],
  ],
};

/** Canonical prefix words of each language (`sonder`, `nordre`, `gammel`, `2e`): two different ones are never a typo of each other. */
const PREFIX_WORDS: Record<string, ReadonlySet<string>> = Object.fromEntries(
  Object.entries(EXTRA_WORDS).map(([lang, pairs]) => [lang, new Set(pairs.map(([, full]) => full))]),
);

/** Whether a normalized (expanded) token is one of the language's listed name prefixes (`sonder`, `nordre`, `store`). */
export function isPrefixWord(token: string, langs: readonly string[]): boolean {
  return langs.some((lang) => PREFIX_WORDS[lang]?.has(token) ?? false);
}

/** Compound endings; only consonant clusters that no real word ends in, so expansion is safe. */
const SUFFIXES: Record<string, ReadonlyArray<readonly [string, string]>> = {
  nl: [
    ['dwstr', 'dwarsstraat'], ['plnts', 'plantsoen'], ['strwg', 'straatweg'], ['stwg', 'steenweg'], ['sngl', 'singel'],
    ['str', 'straat'], ['stg', 'steeg'], ['pln', 'plein'], ['gr', 'gracht'], ['ln', 'laan'], ['wg', 'weg'], ['kd', 'kade'],
    ['dk', 'dijk'], ['pl', 'plein'],
  ],
  de: [['str', 'strasse'], ['pl', 'platz'], ['wg', 'weg']],
};

const cache = new Map<string, LanguageTable>();

function loadGroups(lang: string): TokenGroup[] {
  if (!/^[a-z]{2}$/.test(lang)) return [];
  let raw: unknown;
  try {
    raw = require(`@mapbox/geocoder-abbreviations/tokens/${lang}.json`);
  } catch {
    return []; // the package has no table for this language
  }
  return TokenFile.parse(raw);
}

function addExpansion(words: Map<string, Expansion[]>, token: string, exp: Expansion): void {
  const list = words.get(token) ?? [];
  const same = list.find((e) => e.full === exp.full);
  if (same) {
    same.way ||= exp.way;
    same.cardinal ||= exp.cardinal;
  } else {
    list.push(exp);
  }
  words.set(token, list);
}

function build(lang: string): LanguageTable {
  const words = new Map<string, Expansion[]>();
  for (const group of loadGroups(lang)) {
    if (group.regex) continue; // regex groups rewrite units and PO boxes, not street words
    const full = normalizeText(group.full);
    const exp: Expansion = { full, way: group.type === 'way', cardinal: group.type === 'cardinal' };
    for (const token of [...group.tokens, group.full]) {
      const t = normalizeText(token);
      if (t && !t.includes(' ')) addExpansion(words, t, exp);
    }
  }
  for (const [abbr, full] of EXTRA_WAYS[lang] ?? []) {
    const exp: Expansion = { full, way: true, cardinal: false };
    addExpansion(words, abbr, exp);
    addExpansion(words, full, exp);
  }
  // These replace whatever the package filed under the token (its `gl` is a street type).
  for (const [token, full] of EXTRA_WORDS[lang] ?? []) words.set(token, [{ full, way: false, cardinal: false }]);
  const suffixes = [...(SUFFIXES[lang] ?? [])].sort((a, b) => b[0].length - a[0].length);
  return { lang, words, suffixes };
}

export function languageTable(lang: string): LanguageTable {
  let table = cache.get(lang);
  if (!table) {
    table = build(lang);
    cache.set(lang, table);
  }
  return table;
}

/** Whether a normalized token is a street-type word (`street`, `straat`, `rue`) in any of the languages. */
export function isStreetTypeWord(token: string, langs: readonly string[]): boolean {
  return langs.some((lang) => languageTable(lang).words.get(token)?.some((e) => e.way && e.full === token) ?? false);
}

/** Whether a normalized token is a compass direction (`north`, `nw`, `noord`) in any of the languages. */
export function isCardinalWord(token: string, langs: readonly string[]): boolean {
  return langs.some((lang) => languageTable(lang).words.get(token)?.some((e) => e.cardinal) ?? false);
}
