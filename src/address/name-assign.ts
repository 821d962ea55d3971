import { isCardinalWord, languageTable } from './abbreviations.js';
import { countryLanguages } from './languages.js';
import { type PlaceSet, streetSpan } from './name-spans.js';
import { peliasParse } from './pelias.js';
import { freeRuns, type Label, label, type Span, spanText, type Token } from './tokens.js';
import { isUsStateCode } from './us-states.js';

export interface NameReading {
  text: string;
  tokens: readonly Token[];
  labels: (Label | undefined)[];
  country: string | undefined;
  numberFirst: boolean;
  us: boolean;
  places: PlaceSet;
  /** Streets known to exist (a result's): taken as written where the text names them. */
  streets: readonly string[];
  houseNumber: Span | undefined;
}

/** Dutch, German and Danish streets end in their type (`Kalverstraat`, `Hauptstrasse`, `Vesterbrogade`). */
export const COMPOUND_STREET = /(?:straat|strasse|weg|gracht|laan|plein|kade|dijk|singel|steeg|platz|gasse|allee|damm|ufer|gade|vej|straede)$/;

/**
 * Street, town and state from the words the numbers left, in this order:
 * 1. a known street (hints) next to the house number, as written;
 * 2. a known town (hints, listed names) that is a whole run of words, ends one, or follows the postcode;
 * 3. in the US a state code closing its run (`Springfield IL 62701`);
 * 4. the street is the run next to the house number (after it where the number comes first), less
 *    the town words that share its run: after the last street-type word (`10 Downing Street London`)
 *    or, after a postcode, the first word (`1012 LG Amsterdam Damrak 1`);
 * 5. the first run left is the town, a later one the state.
 * Without a house number, pelias-parser tells a street from a place.
 */
export function assignNames(r: NameReading): void {
  const { tokens, labels, houseNumber: hn } = r;
  if (r.streets.length > 0) {
    const runs = freeRuns(tokens, labels).flatMap((run) => {
      if (!hn) return [run];
      if (run.to === hn.from - 1) return [{ ...run, anchor: 'end' as const }];
      if (run.from === hn.to + 1) return [{ ...run, anchor: 'start' as const }];
      return [];
    });
    const span = streetSpan(r.text, tokens, runs, r.streets, r.country);
    if (span) label(labels, span, 'street');
  }
  const place = findPlace(r);
  if (place) label(labels, place, 'city');
  if (r.us) markState(r);

  if (!labels.includes('street')) {
    if (hn) streetNextToNumber(r, hn);
    else withoutNumber(r);
  }
  const rest = freeRuns(tokens, labels);
  if (!labels.includes('city') && rest[0]) label(labels, rest.shift() as Span, 'city');
  if (!labels.includes('state') && rest.length > 0 && (r.us || !place)) label(labels, rest[rest.length - 1] as Span, 'state');
}

/**
 * A known town among the free words: a whole run (rank 3), the end of a run (2) or, in
 * `1012 LG Amsterdam Damrak 1`, the start of the run between postcode and number (2); never
 * inside the run the street stands in (`Avenida de Roma 20`), except where the town follows the
 * street there (`10 Downing Street London`). Ties go to the longer, then the later name.
 */
function findPlace(r: NameReading): Span | undefined {
  const hn = r.houseNumber;
  let best: Span | undefined;
  let bestRank = 0;
  for (const run of freeRuns(r.tokens, r.labels)) {
    const streetBefore = hn !== undefined && !r.numberFirst && run.to === hn.from - 1;
    const streetAfter = hn !== undefined && r.numberFirst && run.from === hn.to + 1;
    let span: Span | undefined;
    let rank: number;
    if (streetBefore) {
      const town = r.labels[run.from - 1] === 'postcode' ? r.places.at(r.text, r.tokens, r.labels, run.from) : undefined;
      span = town ? strict({ from: town.from, to: withDistrict(r, town.to, run) }, run) : undefined;
      rank = 2;
    } else {
      const ending = r.places.endingAt(r.text, r.tokens, r.labels, run.to);
      const whole = ending !== undefined && ending.from === run.from;
      span = whole && streetAfter ? undefined : ending;
      rank = whole ? 3 : 2;
    }
    // Ties go to the longer, then the later name.
    if (span && (!best || rank > bestRank || (rank === bestRank && span.to - span.from >= best.to - best.from))) {
      best = span;
      bestRank = rank;
    }
  }
  return best;
}

/** Danish postal districts follow the town as a letter (`København V`, `Aarhus C`, `København NV`), also folded (`NO`, `NOE`, `Oe`). */
const DISTRICT = /^(?:[a-zæøå]|sv|nv|nø|sø|no|so|oe|noe|soe)$/i;

/** The town's last token, taking the district letter after `at` along when a street still follows it. */
function withDistrict(r: NameReading, at: number, run: Span): number {
  const next = r.tokens[at + 1];
  const danish = r.country === undefined || r.country === 'DK';
  return danish && next && at + 1 < run.to && DISTRICT.test(next.text) ? at + 1 : at;
}

/** The span unless it covers the whole run (the street needs words of its own). */
function strict(span: Span | undefined, run: Span): Span | undefined {
  return span && span.to < run.to ? span : undefined;
}

function markState(r: NameReading): void {
  for (const run of freeRuns(r.tokens, r.labels)) {
    const last = r.tokens[run.to] as Token;
    const next = r.tokens[run.to + 1];
    const closes = !next || next.opens || r.labels[run.to + 1] === 'postcode' || r.labels[run.to + 1] === 'country';
    // `Peachtree St NE`: after a street type, NE is a direction.
    const afterType = run.to > run.from && isWay(r, r.tokens[run.to - 1]?.norm ?? '');
    if (closes && !afterType && /^[A-Za-z]{2}$/.test(last.text) && isUsStateCode(last.text) && (run.to > run.from || run.from > 0)) r.labels[run.to] = 'state';
  }
}

function streetNextToNumber(r: NameReading, hn: Span): void {
  const runs = freeRuns(r.tokens, r.labels);
  const before = runs.find((run) => run.to === hn.from - 1);
  const after = runs.find((run) => run.from === hn.to + 1);
  // Beside the number within its section first: `5th Avenue 20, New York` ends a section with the
  // number, so its street is the words before it even where the number usually comes first.
  const run =
    inOrder(r.numberFirst, r.tokens[hn.from]?.opens ? undefined : before, r.tokens[hn.to + 1]?.opens ? undefined : after) ??
    inOrder(r.numberFirst, before, after);
  if (!run) return;
  const alone = !r.labels.includes('city') && runs.length === 1;
  let street = run;
  if (alone && run === after && r.numberFirst) street = { from: run.from, to: streetEnd(r, run) };
  else if (alone && run === before && r.labels[run.from - 1] === 'postcode' && run.to > run.from) {
    street = { from: withDistrict(r, run.from, run) + 1, to: run.to };
  }
  label(r.labels, street, 'street');
}

/** The run before the number or the one after it, in the order the country writes them. */
function inOrder(numberFirst: boolean, before: Span | undefined, after: Span | undefined): Span | undefined {
  return numberFirst ? (after ?? before) : (before ?? after);
}

/** Where a street that the town follows without a comma ends: its last type word and the directions after it, else pelias's reading. */
function streetEnd(r: NameReading, run: Span): number {
  const langs = r.country ? countryLanguages(r.country) : ['en', 'fr'];
  let end = -1;
  for (let i = run.from; i <= run.to; i++) {
    const norm = r.tokens[i]?.norm ?? '';
    if (isWay(r, norm)) end = i;
  }
  if (end >= run.from) {
    while (end < run.to && isCardinalWord(r.tokens[end + 1]?.norm ?? '', langs)) end++;
    return end;
  }
  const written = spanText(r.text, r.tokens, run);
  const street = peliasParse(written).street?.value;
  if (street && written.startsWith(street) && street.length < written.length) {
    const stop = r.tokens.findIndex((t, i) => i >= run.from && t.end - (r.tokens[run.from] as Token).start >= street.length);
    if (stop >= run.from && stop < run.to) return stop;
  }
  return run.to;
}

/** No house number: a first part beside others (or beside a known town) is the street unless pelias calls it a place; one part is split by pelias. */
function withoutNumber(r: NameReading): void {
  const runs = freeRuns(r.tokens, r.labels);
  const first = runs[0];
  if (!first) return;
  const written = runs.map((run) => spanText(r.text, r.tokens, run));
  // The first parts decide; pelias's cost grows with the text.
  const pelias = peliasParse(written.slice(0, 3).join(', '));
  if (runs.length >= 2 || r.labels.includes('city')) {
    if (runs.length >= 2 && (pelias.locality?.value === written[0] || pelias.region?.value === written[0])) return;
    label(r.labels, first, 'street');
    return;
  }
  const one = written[0] as string;
  if (pelias.street && one.startsWith(pelias.street.value)) {
    const stop = r.tokens.findIndex((t, i) => i >= first.from && t.end - (r.tokens[first.from] as Token).start >= pelias.street!.value.length);
    label(r.labels, { from: first.from, to: stop >= first.from ? Math.min(stop, first.to) : first.to }, 'street');
    return;
  }
  if (pelias.locality && pelias.locality.start > 0) {
    const stop = r.tokens.findIndex((t, i) => i >= first.from && t.start - (r.tokens[first.from] as Token).start >= pelias.locality!.start) - 1;
    if (stop >= first.from) label(r.labels, { from: first.from, to: stop }, 'street');
    return;
  }
  const words = r.tokens.slice(first.from, first.to + 1);
  if (words.some((t) => isWay(r, t.norm) || COMPOUND_STREET.test(t.norm))) label(r.labels, first, 'street');
}

/** A street-type word (`street`, `st`, `rue`, `vej`) in the country's languages (English and French when unknown). */
function isWay(r: NameReading, norm: string): boolean {
  const langs = r.country ? countryLanguages(r.country) : ['en', 'fr', 'nl', 'de'];
  return langs.some((l) => languageTable(l).words.get(norm)?.some((e) => e.way) ?? false);
}
