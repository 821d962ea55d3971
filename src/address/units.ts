import { isStreetTypeWord } from './abbreviations.js';
import { findCountry } from './country-find.js';
import { countryLanguages, streetTypePosition } from './languages.js';
import { isParticle } from './particles.js';
import { recipientSpans } from './recipients.js';
import { numberMarks } from './number-marks.js';
import { foldCase } from './text.js';
import { isNameWord, type Span, spanText, type Token, tokenize } from './tokens.js';
import { DK_DOOR, DK_FLOOR, DK_FLOOR_DOOR, FLOOR_WORDS, SIDE_WORDS, STANDALONE, UNIT_WORDS, wordKey } from './unit-words.js';

/** The text with what is not the house set aside (issue 27): the unit within it and the parts no component uses. */
export interface SetAside {
  /** The text without unit and recipient parts; the text itself when it has none. */
  text: string;
  /** The unit in display form, normalized as the country writes it (`Apt 3B`, `2º Esq.`, `Whg. 5`). */
  unit?: string;
  /** Recipient lines and delivery notes as written, in input order (`c/o Müller`, `door code 1234`). */
  unresolved: string[];
}

/**
 * Free text with its unit and recipient parts removed (for provider queries, autocomplete and the
 * reader: a unit never changes how the house is read), the unit in display form and the
 * unresolved parts in input order. `country` is the request's; without it, a country the text
 * names decides the forms only some countries write (`340/3`: house 340, door 3 in AT and LI).
 */
export function stripUnitAndRecipient(text: string, country?: string): SetAside {
  const clean = text.replace(/\s+/g, ' ').trim();
  const tokens = tokenize(clean);
  const notes = recipientSpans(tokens, country);
  const taken = new Set<number>();
  for (const s of notes) for (let i = s.from; i <= s.to; i++) taken.add(i);
  const ctx = new UnitContext(tokens, taken, country);
  const units = ctx.find();
  const inUnits = new Set(taken);
  for (const u of units) for (let i = u.from; i <= u.to; i++) inUnits.add(i);
  // `Nr. 32`, `nº 103`, `"32"`: the number without what announces it (number-marks.ts).
  const marks = numberMarks(tokens, inUnits);
  if (units.length === 0 && notes.length === 0 && marks.size === 0) return { text: clean, unresolved: [] };
  const parts: string[] = [];
  const removed = new Set(taken);
  for (const u of units) {
    if (u.keep !== undefined) continue;
    for (let i = u.from; i <= u.to; i++) removed.add(i);
  }
  for (const [i, kept] of marks) if (kept === '') removed.add(i);
  let pendingOpen = false;
  tokens.forEach((t, i) => {
    pendingOpen ||= t.opens;
    if (removed.has(i)) return;
    const kept = units.find((u) => u.keep !== undefined && u.from === i)?.keep ?? marks.get(i) ?? t.text;
    if (parts.length > 0) parts.push(pendingOpen ? ', ' : ' ');
    parts.push(kept);
    pendingOpen = false;
  });
  const unit = units.map((u) => u.display).filter(Boolean).join(' ');
  return {
    text: parts.join(''),
    ...(unit ? { unit } : {}),
    unresolved: notes.map((s) => spanText(clean, tokens, s).replace(/[,;]+$/, '')),
  };
}

/**
 * The unit's identifier for comparison with the units the data lists: case, punctuation and the
 * designator words dropped (`Apt 3B` → `3b`, `Whg. 5` → `5`, `2º Esq.` → `2 esq`, `Top 3` → `3`).
 */
export function unitKey(unit: string): string {
  const words = foldCase(unit.replace(/[ºª°]/g, ' '))
    .split(/[^\p{L}\p{N}/]+/u)
    .filter(Boolean);
  const kept = words.filter((w) => !DESIGNATORS_DROPPED.has(w));
  return (kept.length > 0 ? kept : words).join(' ').replace(/\/+/g, '/').replace(/^\/|\/$/g, '');
}

/** Words that name the kind of unit, not which one: dropped from its key. */
const DESIGNATORS_DROPPED = new Set([
  'apt', 'apartment', 'flat', 'unit', 'suite', 'ste', 'room', 'rm', 'whg', 'wohnung', 'app', 'appt', 'appartement', 'top',
  'tur', 'tuer', 'door', 'lgh', 'lagenhet', 'int', 'interno', 'porte', 'sala', 'loja', 'no', 'nr',
]);

interface UnitSpan extends Span {
  display: string;
  /** For a number with its door after a slash (`340/3`): the house number kept in the text. */
  keep?: string;
}

/** Countries that write the door after the house number and a slash (`Landstrasse 340/3`, `12/3/5`). */
const SLASH_DOOR_COUNTRIES = new Set(['AT', 'LI']);

/**
 * Whether knowing the country would read this text differently: a number with a slash (`340/3`) in
 * a country that writes its door after one. The engine reads such text again once the data names
 * the country the request did not (validate-input.ts `forCountry`).
 */
export function slashDoorReading(text: string, country: string): boolean {
  return SLASH_DOOR_COUNTRIES.has(country.toUpperCase()) && /\d\s*\/\s*(?:\d|top\b)/i.test(text);
}
const SLASH_DOOR = /^(\d{1,5}[a-z]?)\/(\d{1,4}[a-z]?(?:\/\d{1,4}[a-z]?)*)$/i;
/** What follows a designator: a number (`3B`, `100`, `3/5`), one letter (`Bât. A`) or a Roman numeral. */
const IDENTIFIER = /^#?(?:[\p{L}\p{N}]{0,5}\d[\p{L}\p{N}/-]{0,6}|\p{L}|[IVX]{1,4})\.?$/u;
/** An ordinal floor (`2nd`, `3e`, `3ème`, `2.`, `1º`, `2.º`, `2n`) before a floor word; a bare number only before Dutch `hoog`. */
const ORDINAL_FLOOR = /^\d{1,2}(?:st|nd|rd|th|e|er|ère|re|ème|eme|\.|\.?[ºo°]|n|r|t)$/i;
/** Iberian floor and door (`2º Esq`, `3º 2ª`, `2n 1a`): the floor is an ordinal, the door a feminine ordinal, letter or side. */
const IBERIAN_FLOOR = /^\d{1,2}(?:\.?[ºo°]|n|r|t|er)$/i;
const IBERIAN_DOOR = /^(?:\d{1,2}\.?[aª]|[A-Z])$/;
/** German floors (`EG`, `2. OG`, `1.OG`, `DG`), written in capitals (`UG` is also a company form). */
const GERMAN_FLOOR = /^(?:\d{1,2}\.)?(?:EG|OG|DG)$/;
/** Dutch floors (`3hg`, `3-hoog`): the storey, not a BAG addition. */
const DUTCH_FLOOR = /^\d{1,2}(?:hg|-?hoog)$/i;
/** Portuguese ground floor (`R/C`). */
const RC = /^r\/c\.?$/i;

/** Reads the units of one tokenized text, skipping the tokens recipients took. */
class UnitContext {
  private readonly langs: readonly string[];
  private named: string | undefined | null = null;

  constructor(
    private readonly tokens: readonly Token[],
    private readonly taken: ReadonlySet<number>,
    private readonly country: string | undefined,
  ) {
    this.langs = countryLanguages(country);
  }

  find(): UnitSpan[] {
    const out: UnitSpan[] = [];
    for (let i = 0; i < this.tokens.length; i++) {
      if (this.taken.has(i)) continue;
      const found = this.slashDoor(i) ?? this.unitAt(i);
      if (!found) continue;
      out.push(found);
      i = found.to;
    }
    return out;
  }

  private text(i: number): string {
    return this.tokens[i]?.text ?? '';
  }

  private free(i: number): boolean {
    return i >= 0 && i < this.tokens.length && !this.taken.has(i);
  }

  /** The country for the forms only some countries write: the request's, else the one the text names. */
  private slashCountry(): string | undefined {
    if (this.country) return this.country.toUpperCase();
    if (this.named === null) this.named = findCountry(this.tokens, false)?.country;
    return this.named;
  }

  /** `340/3`, `340 / 3`, `340 /3`, `22 / Top 4`: the door after the house number's slash (AT, LI). */
  private slashDoor(i: number): UnitSpan | undefined {
    const t = this.text(i);
    if (!/\d\/|^\//.test(t)) return undefined;
    const m = SLASH_DOOR.exec(t);
    const prevIsNumber = /^\d{1,5}[a-z]?$/i.test(this.text(i - 1)) && !this.tokens[i]?.opens;
    if (m && this.isSlashCountry()) return { from: i, to: i, keep: m[1], display: m[2] as string };
    if (!prevIsNumber) return undefined;
    if (t === '/' && this.free(i + 1) && !this.tokens[i + 1]?.opens) {
      // `22 / Top 4`: a designated unit after the slash, wherever it is written; `340 / 3` only where doors follow slashes.
      const unit = this.unitAt(i + 1, true);
      if (unit) return { ...unit, from: i };
      if (this.isSlashCountry() && /^\d{1,4}[a-z]?(?:\/\d{1,4}[a-z]?)*$/i.test(this.text(i + 1))) return { from: i, to: i + 1, display: this.text(i + 1) };
    }
    if (/^\/\d{1,4}[a-z]?(?:\/\d{1,4}[a-z]?)*$/i.test(t) && this.isSlashCountry()) return { from: i, to: i, display: t.slice(1) };
    return undefined;
  }

  private isSlashCountry(): boolean {
    const c = this.slashCountry();
    return c !== undefined && SLASH_DOOR_COUNTRIES.has(c);
  }

  /** The unit that starts at token `i`, with the unit words that follow it in its section. */
  private unitAt(i: number, continuing = false): UnitSpan | undefined {
    const end = this.unitEnd(i, continuing);
    if (end === undefined) return undefined;
    let to = end;
    // Sides and further parts in the same section (`2. OG links`, `Stiege 2 Top 4`, `Hinterhaus 1. OG`).
    for (;;) {
      const next = to + 1;
      if (!this.free(next) || this.tokens[next]?.opens) break;
      if (SIDE_WORDS.has(wordKey(this.text(next)))) {
        to = next;
        continue;
      }
      const more = this.unitEnd(next, true);
      if (more === undefined) break;
      to = more;
    }
    return { from: i, to, display: this.display(i, to) };
  }

  /**
   * The last token of one unit part starting at `i` (designator and identifier, floor, side), or
   * undefined. `continuing`: right after another part of the unit (`int. 5 scala A`).
   */
  private unitEnd(i: number, continuing = false): number | undefined {
    if (!this.free(i)) return undefined;
    const t = this.text(i);
    const key = wordKey(t);
    const next = this.free(i + 1) && !this.tokens[i + 1]?.opens ? this.text(i + 1) : undefined;
    const danish = this.country === undefined || this.country === 'DK';
    if (/^#[\p{L}\p{N}-]+$/u.test(t)) return this.hashNumber(i) ? undefined : i;
    if (this.bareFloor(i)) return i;
    if (danish && i > 0 && DK_FLOOR_DOOR.test(t)) return i;
    if (danish && i > 0 && DK_FLOOR.test(t) && next !== undefined && DK_DOOR.test(next)) return i + 1;
    if (GERMAN_FLOOR.test(t)) return i;
    if (/^\d{1,2}\.$/.test(t) && next !== undefined && GERMAN_FLOOR.test(next)) return i + 1;
    if (DUTCH_FLOOR.test(t) && this.dutch()) return i;
    if (RC.test(t)) return i;
    if (STANDALONE.has(key) && !this.insideName(i)) return i;
    if (next !== undefined && ORDINAL_FLOOR.test(t) && FLOOR_WORDS.has(wordKey(next)) && wordKey(next) !== 'hoog') return i + 1;
    if (next !== undefined && /^\d{1,2}$/.test(t) && wordKey(next) === 'hoog' && this.dutch()) return i + 1;
    if (next !== undefined && IBERIAN_FLOOR.test(t) && (IBERIAN_DOOR.test(next) || SIDE_WORDS.has(wordKey(next)))) return i + 1;
    if ((UNIT_WORDS.has(key) || (t === '#' && !this.hashNumber(i))) && next !== undefined && !this.insideName(i) && (continuing || !this.wordLike(i, key))) {
      if (IDENTIFIER.test(next)) return i + 1;
      // `Suite # 100`: the sign between designator and identifier.
      const after = this.free(i + 2) && !this.tokens[i + 2]?.opens ? this.text(i + 2) : '';
      if (next === '#' && t !== '#' && IDENTIFIER.test(after)) return i + 2;
    }
    return undefined;
  }

  /**
   * `#` before a number is the house number's sign (`#12 Main Street`, `Städtle #32`) where no
   * number comes before it and a word of the street stands beside it in its section; else it is a
   * unit (`12 Main Street #3B`, `#3B, 1932 Eastern Avenue`: issue 27's form).
   */
  private hashNumber(i: number): boolean {
    for (let j = 0; j < i; j++) if (!this.taken.has(j) && /^\d{1,5}[a-z]?$/i.test(this.text(j))) return false;
    const identifier = this.text(i) === '#' ? i + 1 : i;
    if (!/^#?\d{1,5}[a-z]?$/i.test(this.text(identifier))) return false;
    const next = this.tokens[identifier + 1];
    const wordAfter = next !== undefined && !next.opens && isNameWord(next);
    const wordBefore = i > 0 && !this.tokens[i]?.opens && isNameWord(this.tokens[i - 1]);
    return wordAfter || wordBefore;
  }

  /**
   * A floor written alone (issue 34): `1º` or `2.º` as a section of its own or closing the house
   * number's section (`Rua de Santa Catarina 269 1º`), `2.` only as a section of its own
   * (`Baaderstraße 22, 2., 80469 München`): inside a section it is a street's ordinal (`17. Juni`).
   */
  private bareFloor(i: number): boolean {
    const t = this.text(i);
    const alone = this.tokens[i]?.opens === true && (i + 1 >= this.tokens.length || this.tokens[i + 1]?.opens === true);
    if (/^\d{1,2}\.$/.test(t)) return alone && i > 0;
    if (!/^\d{1,2}\.?[º°]$/.test(t)) return false;
    const closes = i + 1 >= this.tokens.length || this.tokens[i + 1]?.opens === true;
    return (alone && i > 0) || (closes && !this.tokens[i]?.opens && /^\d{1,5}[a-z]?$/i.test(this.text(i - 1)));
  }

  /**
   * A designator that is also a word of names (`Scala`, `Piano`, `Sala`, `Top`) counts only where a
   * unit starts: opening a section or right after the house number (`Via dela Scala 10` is a street).
   */
  private wordLike(i: number, key: string): boolean {
    if (!WORD_LIKE.has(key) || i === 0 || this.tokens[i]?.opens) return false;
    return !/\d/.test(this.text(i - 1));
  }

  private dutch(): boolean {
    return this.country === undefined || this.country === 'NL' || this.country === 'BE';
  }

  /**
   * A designator word inside a street's name rather than a unit: after a particle (`Via della
   * Scala 5`, `Rue de la Porte 3`) or right after the street type that opens the name (`Rua Loja 2`).
   */
  private insideName(i: number): boolean {
    if (i === 0 || this.tokens[i]?.opens) return false;
    const prev = this.tokens[i - 1] as Token;
    if (isParticle(prev.norm, ALL_PARTICLE_LANGS) || NAME_JOINERS.has(prev.norm)) return true;
    // Only a type that opens its street's name (`Rua`, `Via`, `Rue`): after `Street` or `Avenue` the street has ended.
    const opensName = prev.opens || /^\d{1,5}[a-z]?$/i.test(this.text(i - 2));
    return opensName && this.langs.some((l) => streetTypePosition(l) === 'first' && isStreetTypeWord(prev.norm, [l]));
  }

  /** The unit as the country writes it: designators in their usual spelling, identifiers in capitals. */
  private display(from: number, to: number): string {
    const words: string[] = [];
    for (let i = from; i <= to; i++) {
      const t = this.text(i);
      if (t === '/' || (t === '#' && i > from)) continue;
      const prev = i > from ? this.text(i - 1) : '';
      // A door after an Iberian floor stays as written (`2n 1a`); a floor word after its ordinal in lower case (`3e étage`).
      if (IBERIAN_FLOOR.test(prev) && /^\d{1,2}a$/i.test(t)) words.push(t.toLowerCase());
      else if ((ORDINAL_FLOOR.test(prev) || /^\d{1,2}$/.test(prev)) && FLOOR_WORDS.has(wordKey(t)) && !/^(?:OG|EG|DG)$/.test(t)) words.push(displayWord(t, this.country).toLowerCase());
      // After a designator the sign is only a separator (`Apt #3B` → `Apt 3B`).
      else if (i > from && t.startsWith('#')) words.push(displayWord(t.slice(1), this.country));
      else words.push(displayWord(t, this.country));
    }
    return words.join(' ').replace(/^# /, '#');
  }
}

/** Designators that are also words of street and place names. */
const WORD_LIKE = new Set(['scala', 'piano', 'sala', 'loja', 'porte', 'planta', 'andar', 'piso', 'puerta', 'escalera', 'top', 'level', 'stock']);

const ALL_PARTICLE_LANGS = ['pt', 'es', 'fr', 'it', 'de', 'en'];
/** Joining words of names that are not among the particles (`Am Top 3`, `Zum Hinterhaus`, `Van Flat`). */
const NAME_JOINERS = new Set(['am', 'an', 'im', 'zum', 'zur', 'auf', 'van', 'het', 'op', 'al', 'alla', 'sul', 'sulla', 'y', 'e', 'and', 'et']);

/** One word of a unit in display form: a known word in its usual spelling, an identifier in capitals. */
function displayWord(word: string, country: string | undefined): string {
  const canonical = CANONICAL_BY_COUNTRY[country?.toUpperCase() ?? '']?.[wordKey(word)] ?? CANONICAL[wordKey(word)];
  if (canonical) return canonical;
  // `2.º`, `2o`, `2°` → `2º`; `2a` → `2ª` in a pair; `3b` → `3B`.
  const floor = /^(\d{1,2})\.?[ºo°]$/i.exec(word);
  if (floor) return `${floor[1]}º`;
  const door = /^(\d{1,2})\.?[ª]$/.exec(word);
  if (door) return `${door[1]}ª`;
  if (/^#?[\p{L}\p{N}/-]{1,8}$/u.test(word) && /\d/.test(word) && !/^\d{1,2}(?:st|nd|rd|th|e|er|ème|eme|n|r|t|hg)$/i.test(word)) return word.toUpperCase();
  if (/^\p{Ll}$/u.test(word)) return word.toUpperCase();
  return word;
}

/** Designators and sides in their usual written form (`apt.` → `Apt`, `whg` → `Whg.`, `esq` → `Esq.`). */
const CANONICAL: Readonly<Record<string, string>> = {
  apt: 'Apt', apartment: 'Apartment', flat: 'Flat', unit: 'Unit', suite: 'Suite', ste: 'Ste', room: 'Room', rm: 'Rm',
  fl: 'Fl', floor: 'Floor', level: 'Level', bldg: 'Bldg', building: 'Building',
  whg: 'Whg.', wohnung: 'Wohnung', app: 'App.', top: 'Top', stiege: 'Stiege', stg: 'Stg.', tur: 'Tür', tuer: 'Tür',
  stock: 'Stock', etage: 'Étage', og: 'OG', eg: 'EG', dg: 'DG', links: 'links', rechts: 'rechts', mitte: 'Mitte', li: 'li.', re: 're.',
  hinterhaus: 'Hinterhaus', vorderhaus: 'Vorderhaus', seitenflugel: 'Seitenflügel', gartenhaus: 'Gartenhaus', quergebaude: 'Quergebäude',
  appt: 'Appt', appartement: 'Appartement', bat: 'Bât.', batiment: 'Bâtiment', escalier: 'Escalier', esc: 'Esc.', porte: 'Porte',
  esq: 'Esq.', esquerdo: 'Esq.', esqo: 'Esq.', dto: 'Dto.', dt: 'Dto.', direito: 'Dto.', dta: 'Dta.', dir: 'Dir.', frente: 'Frente', fte: 'Frente', tras: 'Trás',
  rc: 'R/C', sala: 'Sala', loja: 'Loja', andar: 'Andar', piso: 'Piso', puerta: 'Puerta', planta: 'Planta', escalera: 'Escalera',
  izq: 'Izq.', izda: 'Izda.', izquierda: 'Izq.', dcha: 'Dcha.', derecha: 'Dcha.', centro: 'Centro',
  int: 'Int.', interno: 'Interno', scala: 'Scala', piano: 'Piano',
  lgh: 'Lgh', lagenhet: 'Lgh',
  tv: 'tv', th: 'th', mf: 'mf', sal: 'sal', st: 'st.', kl: 'kl.', stuen: 'st.',
  hoog: 'hoog', verdieping: 'verdieping',
};

/** Where a country writes a word its own way (`Etage` in German, `etage` in Dutch). */
const CANONICAL_BY_COUNTRY: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  DE: { etage: 'Etage' }, AT: { etage: 'Etage' }, CH: { etage: 'Etage' }, LI: { etage: 'Etage' },
  NL: { etage: 'etage' }, BE: { etage: 'etage' }, GB: { flat: 'Flat' },
};
