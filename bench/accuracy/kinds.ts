import type { VerdictField } from '../../src/contract/address.js';
import type { ComponentVerdict } from '../../src/contract/enums.js';
import { US_STATES } from '../../src/address/us-states.js';
import { ONE_POSTCODE_PER_TOWN } from '../../src/address/postcode.js';
import { rng } from '../local-generate.js';
import { addressKey, type CorpusAddress } from './corpus.js';

/**
 * The ways people type an address (issue 15), each applied to every corpus address it fits, with
 * what /v1/validate should answer. Formatting kinds change only how the address is written;
 * the non-existent kinds name something the data does not hold; the others need one fix.
 */
export const KIND_GROUPS = {
  formatting: ['clean', 'lower-no-commas', 'postcode-first', 'folded', 'abbreviated', 'country-named', 'addition-forms', 'particles', 'numbered-street'],
  'does not exist': ['unknown-street', 'other-street', 'unknown-number', 'unknown-addition'],
  corrections: ['street-typo', 'postcode-transposed', 'partial-postcode'],
  'kept as they were': ['wrong-postcode', 'missing-postcode', 'wrong-city'],
  'units and recipients': ['unit', 'recipient', 'austrian-slash'],
} as const;
export type Kind = (typeof KIND_GROUPS)[keyof typeof KIND_GROUPS][number];
export const KINDS: readonly Kind[] = Object.values(KIND_GROUPS).flat();

export type Expectation =
  /** `valid` for the right address; with `unit`, that unit read (display form); with `unresolved`, that text set aside. */
  | { verdict: 'valid'; unit?: string; unresolved?: string }
  | { verdict: 'invalid' }
  /** `correctable`, the right address, and `field` answered with one of `as` (and each of `also` with one of its own). */
  | { verdict: 'correctable'; field: VerdictField; as: readonly ComponentVerdict[]; also?: Partial<Record<VerdictField, readonly ComponentVerdict[]>> };

export interface Case {
  kind: Kind;
  country: string;
  query: string;
  /** The request's `country`; absent where the text names the country itself. */
  requestCountry?: string;
  expect: Expectation;
  address: CorpusAddress;
}

const VALID: Expectation = { verdict: 'valid' };
const INVALID: Expectation = { verdict: 'invalid' };

/** Countries that write the number before the street. */
const NUMBER_FIRST = new Set(['GB', 'US', 'FR', 'MC', 'IE', 'CA', 'AU']);

interface Parts {
  street: string;
  houseNumber: string;
  postcode?: string;
  city: string;
}

function stateCode(a: CorpusAddress): string | undefined {
  if (!a.state) return undefined;
  if (a.state.length === 2) return a.state;
  return Object.entries(US_STATES).find(([, name]) => name === a.state)?.[0];
}

/** The address as the country writes it: `Street 12, 1234 AB City`, `12 Street, City POSTCODE`, `12 Street, City, ST 12345`. */
export function written(a: CorpusAddress, p: Parts = a): string {
  const pc = p.postcode;
  if (a.country === 'US') {
    const state = stateCode(a);
    return `${p.houseNumber} ${p.street}, ${p.city}${state ? `, ${state}` : ''}${pc ? ` ${pc}` : ''}`;
  }
  if (a.country === 'GB') return `${p.houseNumber} ${p.street}, ${p.city}${pc ? ` ${pc}` : ''}`;
  const street = NUMBER_FIRST.has(a.country) ? `${p.houseNumber} ${p.street}` : `${p.street} ${p.houseNumber}`;
  return `${street}, ${pc ? `${pc} ` : ''}${p.city}`;
}

export function streetPart(a: CorpusAddress): string {
  return NUMBER_FIRST.has(a.country) ? `${a.houseNumber} ${a.street}` : `${a.street} ${a.houseNumber}`;
}

/** Diacritics dropped (`København` → `Kobenhavn`) or written as digraphs (`Koebenhavn`, `Aaboulevard`, `Muellerstrasse`). */
const PLAIN: Record<string, string> = { ø: 'o', Ø: 'O', æ: 'ae', Æ: 'Ae', ß: 'ss', œ: 'oe' };
const DIGRAPH: Record<string, string> = { ø: 'oe', Ø: 'Oe', å: 'aa', Å: 'Aa', æ: 'ae', Æ: 'Ae', ü: 'ue', Ü: 'Ue', ö: 'oe', Ö: 'Oe', ä: 'ae', Ä: 'Ae', ß: 'ss' };
function fold(s: string, table: Record<string, string>): string {
  return [...s].map((c) => table[c] ?? c).join('').normalize('NFKD').replace(/\p{M}/gu, '');
}
/** The other way in Danish: a name the register spells with `aa`/`ae`/`oe` typed with the letter (`Aabenraa` → `Åbenrå`, `Aarhus` → `Århus`). */
function unfoldDanish(s: string): string {
  return s.replace(/Aa/g, 'Å').replace(/aa/g, 'å').replace(/Ae/g, 'Æ').replace(/ae/g, 'æ').replace(/(?<=\p{L})oe/gu, 'ø');
}

/** Street-type and prefix abbreviations as each country writes them. */
const ABBREVIATIONS: Record<string, ReadonlyArray<readonly [RegExp, string]>> = {
  NL: [[/straat$/, 'str.'], [/gracht$/i, 'gr.'], [/^Sint /, 'St. '], [/^Burgemeester /, 'Burg. '], [/^Tweede /, '2e '], [/ Gracht$/, ' Gr.']],
  DE: [[/straße$/, 'str.'], [/Straße$/, 'Str.'], [/^Straße /, 'Str. '], [/strasse$/, 'str.']],
  AT: [[/straße$/, 'str.'], [/Straße$/, 'Str.']],
  CH: [[/strasse$/, 'str.'], [/Strasse$/, 'Str.']],
  LI: [[/strasse$/, 'str.']],
  DK: [
    [/^Søndre /, 'Sdr. '], [/^Sønder /, 'Sdr. '], [/^Gammel /, 'Gl. '], [/^Sankt /, 'Skt. '], [/Allé$/, 'Alle'], [/^Store /, 'St. '], [/^Nørre /, 'Nr. '],
    [/^Nordre /, 'Ndr. '], [/^Kongens /, 'Kgs. '], [/^Lille /, 'Ll. '],
  ],
  PT: [[/^Rua /, 'R. '], [/^Avenida /, 'Av. '], [/^Praça /, 'Pç. '], [/^Largo /, 'Lg. ']],
  GB: [[/ Street$/, ' St'], [/ Road$/, ' Rd'], [/ Lane$/, ' Ln'], [/ Crescent$/, ' Cres'], [/^St /, 'Saint '], [/ Parade$/, ' Pde']],
  US: [[/ Street/, ' St'], [/ Avenue/, ' Ave'], [/ Boulevard/, ' Blvd'], [/ Plaza$/, ' Plz'], [/ Loop$/, ' Lp'], [/^North /, 'N '], [/^South /, 'S '], [/^West /, 'W '], [/^East /, 'E '], [/^Southwest /, 'SW '], [/ Northeast$/, ' NE'], [/ Northwest$/, ' NW']],
  FR: [[/^Rue /, 'R. '], [/^Avenue /, 'Av. '], [/^Boulevard /, 'Bd '], [/Saint-/, 'St-'], [/Sainte-/, 'Ste-']],
  MC: [[/^Rue /, 'R. '], [/^Avenue /, 'Av. '], [/^Boulevard /, 'Bd ']],
  ES: [[/^Calle /, 'C/ '], [/^Avenida /, 'Avda. '], [/^Plaza /, 'Pza. '], [/^Paseo /, 'Pº '], [/^Carrer /, 'C/ '], [/^Passeig /, 'Pg. ']],
  AD: [[/^Avinguda /, 'Av. '], [/^Carrer /, 'C/ '], [/^Plaça /, 'Pl. ']],
  IT: [[/^Via /, 'V. '], [/^Piazza /, 'P.za '], [/^Corso /, 'C.so ']],
};

/** Particles between a street's type and its name, per country (written independently of the service's own list). */
const PARTICLE_WORDS: Record<string, readonly string[]> = {
  PT: ['de', 'da', 'do', 'dos', 'das'],
  ES: ['de', 'del', 'la', 'las', 'los', 'el'],
  AD: ['de', 'del', 'dels', 'la', 'les', 'el', 'els'],
  FR: ['de', 'du', 'des', 'la', 'le', 'les'],
  MC: ['de', 'du', 'des', 'la', 'le', 'les'],
  IT: ['di', 'del', 'della', 'dello', 'dei', 'degli', 'delle'],
  DE: ['des', 'der', 'dem', 'den'],
  US: ['of', 'the'],
  GB: ['of', 'the'],
};
/** The particle people add to a street that has none (`Rua Augusta` → `Rua da Augusta`), where the type comes first. */
const ADDED_PARTICLE: Record<string, string> = { PT: 'de', ES: 'de', AD: 'de', FR: 'de', MC: 'de', IT: 'di' };

/** The street with its particles dropped, and one added where it has none; empty when neither applies. */
function particleForms(a: CorpusAddress): string[] {
  const words = PARTICLE_WORDS[a.country];
  if (!words) return [];
  const parts = a.street.split(' ');
  const kept = parts.filter((w, i) => i === 0 || !words.includes(w.toLowerCase()));
  if (kept.length < parts.length) return kept.length > 1 ? [kept.join(' ')] : [];
  const added = ADDED_PARTICLE[a.country];
  return added && parts.length > 1 && !/\d/.test(parts[1]!) ? [[parts[0], added, ...parts.slice(1)].join(' ')] : [];
}

/** How the country names itself, for `…, Danmark`. */
const OWN_NAME: Record<string, string> = {
  NL: 'Nederland', DE: 'Deutschland', DK: 'Danmark', PT: 'Portugal', GB: 'United Kingdom', US: 'United States',
  FR: 'France', AT: 'Österreich', CH: 'Schweiz', LI: 'Liechtenstein', ES: 'España', IT: 'Italia', AD: 'Andorra', MC: 'Monaco',
};

/**
 * Units as each country writes them (issue 27): typed, and the display form the answer should name;
 * `after` only where the form follows the house number (Danish floors, Dutch storeys). Written
 * independently of the service's own word lists.
 */
export type UnitForm = readonly [typed: string, unit: string, where?: 'after'];
export const UNIT_FORMS: Record<string, readonly UnitForm[]> = {
  GB: [['Flat 3', 'Flat 3'], ['flat 12', 'Flat 12'], ['Apartment 2', 'Apartment 2'], ['Unit 5', 'Unit 5']],
  US: [['Apt 3B', 'Apt 3B'], ['Apt. 3B', 'Apt 3B'], ['apt 12', 'Apt 12'], ['#3B', '#3B'], ['Suite 100', 'Suite 100'], ['Ste 210', 'Ste 210'], ['Unit 5', 'Unit 5'], ['Fl 2', 'Fl 2']],
  DE: [['Whg. 5', 'Whg. 5'], ['whg 5', 'Whg. 5'], ['Wohnung 3', 'Wohnung 3'], ['App. 12', 'App. 12'], ['2. OG links', '2. OG links'], ['EG rechts', 'EG rechts'], ['Hinterhaus', 'Hinterhaus'], ['Vorderhaus 1. OG', 'Vorderhaus 1. OG']],
  AT: [['Top 3', 'Top 3'], ['Stiege 2 Top 4', 'Stiege 2 Top 4'], ['Tür 5', 'Tür 5'], ['Top 12', 'Top 12']],
  CH: [['Wohnung 4', 'Wohnung 4'], ['2. OG', '2. OG'], ['Whg. 7', 'Whg. 7']],
  LI: [['Top 3', 'Top 3'], ['Wohnung 3', 'Wohnung 3'], ['Whg. 2', 'Whg. 2']],
  FR: [['Appt 12', 'Appt 12'], ['Appartement 4', 'Appartement 4'], ['Bât. A', 'Bât. A'], ['Escalier 2', 'Escalier 2'], ['Étage 3', 'Étage 3'], ['3e étage', '3e étage']],
  MC: [['Appt 12', 'Appt 12'], ['Bât. B', 'Bât. B'], ['Étage 5', 'Étage 5']],
  PT: [['2º Esq', '2º Esq.'], ['2º Dto', '2º Dto.'], ['1º Frente', '1º Frente'], ['R/C', 'R/C'], ['R/C Esq.', 'R/C Esq.'], ['Sala 3', 'Sala 3'], ['Loja 2', 'Loja 2'], ['1º Andar', '1º andar']],
  ES: [['3º 2ª', '3º 2ª'], ['2º B', '2º B'], ['Piso 3', 'Piso 3'], ['2º Izq.', '2º Izq.']],
  AD: [['2n 1a', '2n 1a'], ['3r 2a', '3r 2a']],
  IT: [['int. 5', 'Int. 5'], ['scala A', 'Scala A'], ['piano 2', 'Piano 2'], ['interno 12', 'Interno 12']],
  SE: [['lgh 1102', 'Lgh 1102']],
  DK: [['2. tv', '2. tv', 'after'], ['st. th', 'st. th', 'after'], ['1.mf', '1.mf', 'after'], ['3. th', '3. th', 'after']],
  NL: [['3hg', '3hg', 'after'], ['3 hoog', '3 hoog', 'after']],
};

/** Recipient lines and delivery notes per country: set aside, never read as a street, a unit or a place. */
export const RECIPIENT_LINES: Record<string, readonly string[]> = {
  GB: ['c/o Jane Doe', 'Attn: John Miller', 'FAO Mr Smith'],
  US: ['Attn: John Miller', 'c/o Jane Doe', 'Attn John Miller'],
  DE: ['c/o Müller', 'z. Hd. Frau Berg', 'z.Hd. Herrn Meier', 'bei Schmidt'],
  AT: ['c/o Huber', 'z. Hd. Frau Gruber', 'bei Wagner'],
  CH: ['c/o Keller', 'z. Hd. Herrn Meier'],
  LI: ['c/o Büchel', 'z. Hd. Frau Frick'],
  FR: ['Chez Dupont', "À l'attention de M. Martin", 'c/o Bernard'],
  MC: ['Chez Dupont', 'c/o Bernard'],
  PT: ['A/C Sr. Silva', 'c/o Santos'],
  ES: ['A/A Sr. García', 'c/o López'],
  AD: ['A/A Sr. Font', 'c/o Vidal'],
  IT: ['c/o Rossi', 'presso Bianchi', 'alla c.a. di Mario Verdi'],
  DK: ['c/o Hansen', 'att. Jens Hansen'],
  NL: ['t.a.v. de heer Jansen', 'p/a Bakker', 'c/o De Vries'],
  SE: ['c/o Andersson'],
};
const DEFAULT_RECIPIENTS = ['c/o Jane Doe', 'Attn: John Miller'];

/** Delivery notes after the address. */
const DELIVERY_NOTES = ['door code 1234', 'gate code 4711'];

/** Invented street names, shaped like each country's. */
const STEMS = ['Quillfeather', 'Bramblewick', 'Tarnhollow', 'Vexmoor', 'Orchidane', 'Wexleigh'];
function inventedStreet(country: string, stem: string): string {
  switch (country) {
    case 'NL': return `${stem}straat`;
    case 'DE': case 'AT': return `${stem}straße`;
    case 'CH': case 'LI': return `${stem}strasse`;
    case 'DK': return `${stem}vej`;
    case 'PT': return `Rua do ${stem}`;
    case 'FR': case 'MC': return `Rue ${stem}`;
    case 'ES': return `Calle ${stem}`;
    case 'IT': return `Via ${stem}`;
    case 'AD': return `Carrer ${stem}`;
    default: return `${stem} Street`;
  }
}

const ROMAN = ['', 'I', 'II', 'III', 'IV'];

/** `92B` → letter forms, `2-H` → ground-floor forms, `12-2` → floor forms; empty for a plain number. */
function additionForms(hn: string): string[] {
  const letter = /^(\d+)([A-Za-z])$/.exec(hn);
  if (letter) {
    const [, n, l] = letter as unknown as [string, string, string];
    return [`${n} ${l}`, `${n} ${l.toLowerCase()}`, `${n}-${l}`, `${n}${l.toLowerCase()}`];
  }
  const ground = /^(\d+)-H$/i.exec(hn);
  if (ground) {
    const n = ground[1]!;
    return [`${n} H`, `${n}-H`, `${n}hs`, `${n} hs`, `${n}h`];
  }
  const floor = /^(\d+)-(\d)$/.exec(hn);
  if (floor) {
    const [, n, f] = floor as unknown as [string, string, string];
    return [`${n}-${f}`, `${n} ${f}`, `${n} - ${f}`, ...(Number(f) >= 2 && Number(f) <= 4 ? [`${n} ${ROMAN[Number(f)]}`] : [])];
  }
  return [];
}

/**
 * A one-letter typo inside the street name's longest word (changed, dropped or swapped; never in its
 * first two letters): a typo in a particle or a prefix (`del` → `dal`, `Søndre` → `Sønder`) or in a
 * short type word (`Mall` → `Mal`) may spell another accepted form of the same name, not a typo.
 */
function typo(s: string, rand: () => number): string | undefined {
  const word = [...s.matchAll(/\p{L}+/gu)].reduce<RegExpExecArray | RegExpMatchArray | undefined>((best, m) => (!best || m[0].length > best[0].length ? m : best), undefined);
  // A name written abbreviated (`Zollstr.`) has no room for a typo that stays recognisable.
  if (!word || word[0].length < 5 || s.includes('.')) return undefined;
  const from = (word.index ?? 0) + 2;
  const at = Array.from({ length: word[0].length - 3 }, (_, k) => from + k);
  for (let tries = 0; tries < 20; tries++) {
    const i = at[Math.floor(rand() * at.length)]!;
    const kind = Math.floor(rand() * 3);
    const typed =
      kind === 0 ? s.slice(0, i) + s.slice(i + 1) : kind === 1 ? s.slice(0, i) + s[i + 1] + s[i] + s.slice(i + 2) : s.slice(0, i) + (s[i] === 'e' ? 'a' : 'e') + s.slice(i + 1);
    // Not just a diacritic dropped (`Canebière` → `Canebiere` is formatting, not a typo).
    const plain = (x: string) => x.toLowerCase().normalize('NFKD').replace(/\p{M}/gu, '');
    if (plain(typed) !== plain(s)) return typed;
  }
  return undefined;
}

/** Two adjacent different digits swapped (`1012 LG` → `1021 LG`); undefined where that breaks the format. */
function transposed(pc: string, country: string, rand: () => number): string | undefined {
  const at = [...pc].map((c, i) => (/\d/.test(c) && /\d/.test(pc[i + 1] ?? '') && c !== pc[i + 1] ? i : -1)).filter((i) => i >= 0);
  if (at.length === 0) return undefined;
  const i = at[Math.floor(rand() * at.length)]!;
  const out = pc.slice(0, i) + pc[i + 1] + pc[i] + pc.slice(i + 2);
  if (country === 'NL' && out.startsWith('0')) return undefined;
  return out;
}

/** A 32-bit hash of a string (FNV-1a): each address's own random stream. */
function hash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/**
 * Builds every case of every kind over the corpus; deterministic for a seed. Each address draws
 * from its own random stream (seed and address), so adding rows never changes another row's cases.
 */
export function buildCases(addresses: readonly CorpusAddress[], universe: readonly CorpusAddress[] = addresses, seed = 15): Case[] {
  let rand = rng(seed);
  const exists = new Set(universe.map(addressKey));
  const has = (country: string, street: string, houseNumber: string) => exists.has(addressKey({ country, street, houseNumber }));
  const pick = <T>(list: readonly T[]): T | undefined => list[Math.floor(rand() * list.length)];
  const sameCountry = (a: CorpusAddress) => universe.filter((o) => o.country === a.country);
  const cases: Case[] = [];

  for (const a of addresses) {
    rand = rng((seed ^ hash(addressKey(a))) >>> 0);
    const base = { country: a.country, address: a };
    const add = (kind: Kind, query: string, expect: Expectation, requestCountry: string | undefined = a.country) =>
      cases.push({ ...base, kind, query, expect, ...(requestCountry ? { requestCountry } : {}) });
    const clean = written(a);

    // formatting only → valid
    add('clean', clean, VALID);
    add('lower-no-commas', clean.toLowerCase().replace(/,/g, ''), VALID);
    add('postcode-first', `${a.postcode} ${a.city}, ${streetPart(a)}`, VALID);
    for (const folded of [fold(clean, PLAIN), fold(clean, DIGRAPH), ...(a.country === 'DK' ? [unfoldDanish(clean)] : [])]) {
      if (folded !== clean && !cases.some((c) => c.kind === 'folded' && c.address === a && c.query === folded)) add('folded', folded, VALID);
    }
    let short = a.street;
    for (const [re, to] of ABBREVIATIONS[a.country] ?? []) short = short.replace(re, to);
    if (short !== a.street) add('abbreviated', written(a, { ...a, street: short }), VALID);
    const name = OWN_NAME[a.country];
    if (name) add('country-named', `${clean}, ${name}`, VALID, undefined);
    add('country-named', `${clean} ${a.country}`, VALID, undefined);
    for (const form of additionForms(a.houseNumber)) add('addition-forms', written(a, { ...a, houseNumber: form }), VALID);
    for (const street of particleForms(a)) add('particles', written(a, { ...a, street }), VALID);
    if (/\d/.test(a.street)) {
      // A number inside the street's name: as written, without commas, and where the number usually
      // comes first, also after the street (`5th Avenue 20`, `Avenue du 8 Mai 1945 3`).
      add('numbered-street', clean, VALID);
      add('numbered-street', clean.toLowerCase().replace(/,/g, ''), VALID);
      if (NUMBER_FIRST.has(a.country)) add('numbered-street', clean.replace(streetPart(a), `${a.street} ${a.houseNumber}`), VALID);
    }

    // does not exist → invalid
    add('unknown-street', written(a, { ...a, street: inventedStreet(a.country, pick(STEMS)!) }), INVALID);
    const others = [...new Set(sameCountry(a).filter((o) => o.city === a.city && o.street !== a.street).map((o) => o.street))].filter(
      (s) => !has(a.country, s, a.houseNumber),
    );
    const other = pick(others);
    if (other) add('other-street', written(a, { ...a, street: other }), INVALID);
    const n = Number.parseInt(a.houseNumber, 10);
    const unknownNumber = [n + 200, n + 311, 977, 1999].map(String).find((h) => !has(a.country, a.street, h));
    if (unknownNumber) add('unknown-number', written(a, { ...a, houseNumber: unknownNumber }), INVALID);
    const letter = ['C', 'D', 'E', 'F'].find((l) => !has(a.country, a.street, `${n}${l}`));
    if (letter) add('unknown-addition', written(a, { ...a, houseNumber: `${n}${letter}` }), INVALID);
    if (String(n) !== a.houseNumber && !has(a.country, a.street, String(n))) add('unknown-addition', written(a, { ...a, houseNumber: String(n) }), INVALID);

    // one fix → correctable with that component corrected
    const typed = typo(a.street, rand);
    if (typed && !sameCountry(a).some((o) => o.street.toLowerCase() === typed.toLowerCase())) {
      add('street-typo', written(a, { ...a, street: typed }), { verdict: 'correctable', field: 'street', as: ['corrected'] });
    }
    const swapped = transposed(a.postcode, a.country, rand);
    if (swapped) add('postcode-transposed', written(a, { ...a, postcode: swapped }), { verdict: 'correctable', field: 'postcode', as: ['corrected'] });
    // A British outward code alone (`EC4Y`, and its district `EC4`): a partial postcode the result completes; the town stays a match.
    const outward = a.country === 'GB' ? /^([A-Z]{1,2}\d[A-Z\d]?) \d[A-Z]{2}$/.exec(a.postcode)?.[1] : undefined;
    if (outward) {
      for (const part of new Set([outward, outward.replace(/[A-Z]$/, '')])) {
        add('partial-postcode', written(a, { ...a, postcode: part }), { verdict: 'correctable', field: 'postcode', as: ['corrected'], also: { city: ['match'] } });
      }
    }

    // as today → correctable
    const postcodes = (list: readonly CorpusAddress[]) => [...new Set(list.map((o) => o.postcode))].filter((p) => p && p !== a.postcode);
    const wrongPostcode = pick(postcodes(sameCountry(a).filter((o) => o.city === a.city))) ?? pick(postcodes(sameCountry(a)));
    if (wrongPostcode) add('wrong-postcode', written(a, { ...a, postcode: wrongPostcode }), { verdict: 'correctable', field: 'postcode', as: ['corrected', 'mismatch'] });
    // Where each town has its own postcode (LI, MC, SM, VA), the town written stands for it: nothing is missing.
    const townNamesPostcode = ONE_POSTCODE_PER_TOWN.has(a.country) && Boolean(a.city);
    add('missing-postcode', written(a, { ...a, postcode: '' }), townNamesPostcode ? VALID : { verdict: 'correctable', field: 'postcode', as: ['missing'] });
    const cities = [...new Set(sameCountry(a).map((o) => o.city))].filter(
      (c) => c && c !== a.city && !sameCountry(a).some((o) => o.city === c && o.street === a.street),
    );
    const city = pick(cities);
    if (city) add('wrong-city', written(a, { ...a, city }), { verdict: 'correctable', field: 'city', as: ['corrected', 'mismatch'] });

    // (drawn last: the earlier kinds keep their random draws) a unit or a recipient line beside the address → valid for the house, the unit read, the line set aside
    const sp = streetPart(a);
    if (clean.startsWith(`${sp}, `)) {
      const rest = clean.slice(sp.length + 2);
      const forms = UNIT_FORMS[a.country] ?? [];
      const after = pick(forms);
      if (after) {
        const [typed, unit] = after;
        const placed = [`${sp}, ${typed}, ${rest}`, `${sp} ${typed}, ${rest}`, `${sp} ${typed} ${rest.replace(/,/g, '')}`];
        add('unit', placed[Math.floor(rand() * placed.length)]!, { verdict: 'valid', unit });
      }
      const before = pick(forms.filter((f) => f[2] !== 'after'));
      if (before) {
        const [typed, unit] = before;
        add('unit', rand() < 0.5 ? `${typed}, ${clean}` : `${typed} ${clean}`, { verdict: 'valid', unit });
      }
      const line = pick(RECIPIENT_LINES[a.country] ?? DEFAULT_RECIPIENTS)!;
      add('recipient', rand() < 0.5 ? `${line}, ${clean}` : `${line} ${clean}`, { verdict: 'valid', unresolved: line });
      const note = pick(DELIVERY_NOTES)!;
      add('recipient', `${clean}, ${note}`, { verdict: 'valid', unresolved: note });
      if ((a.country === 'AT' || a.country === 'LI') && /^\d+$/.test(a.houseNumber)) {
        // Austria and Liechtenstein write the door after a slash: `Landstrasse 340/3`, `12/3/5` (house 12, door 3/5).
        const door = String(1 + Math.floor(rand() * 12));
        add('austrian-slash', `${a.street} ${a.houseNumber}/${door}, ${rest}`, { verdict: 'valid', unit: door });
        add('austrian-slash', `${a.street} ${a.houseNumber}/2/${door} ${rest.replace(/,/g, '')}`, { verdict: 'valid', unit: `2/${door}` });
      }
    }
  }
  return cases;
}
