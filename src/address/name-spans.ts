import { listedCityNames } from './city-aliases.js';
import { compareComponent } from './compare.js';
import { countryLanguages } from './languages.js';
import { expandNameWords } from './street.js';
import { compact, foldDigraphs } from './text.js';
import { type Label, type Span, spanText, type Token } from './tokens.js';

/** Longest name, in words, the reader looks for (`Vila Nova de Gaia`, `Newcastle upon Tyne`). */
const MAX_WORDS = 5;

/** Keys of the listed city names, per language set (built once: every reading consults them). */
const listedKeys = new Map<string, ReadonlySet<string>>();

/**
 * Known place names of one reading, keyed by their formatting-free form (`København V` = `kobenhavn v`):
 * the listed city names (city-aliases.ts) and the reading's own (a result's places).
 */
export class PlaceSet {
  private readonly keys: Set<string>;
  private readonly listed: ReadonlySet<string>;
  private readonly langs: readonly string[];

  /**
   * `keyMemo`: keys already computed for this country's languages (a text read against several
   * results asks about the same spans each time); filled as names are keyed.
   */
  constructor(
    names: Iterable<string>,
    country: string | undefined,
    private readonly keyMemo?: Map<string, string>,
  ) {
    this.langs = countryLanguages(country);
    const id = this.langs.join(',');
    let listed = listedKeys.get(id);
    if (!listed) listedKeys.set(id, (listed = new Set(listedCityNames().map((n) => this.key(n)))));
    this.listed = listed;
    this.keys = new Set([...names].map((n) => this.key(n)).filter(Boolean));
  }

  /** Answers per written span: a reading asks about the same words many times. */
  private readonly answers = new Map<string, boolean>();

  has(name: string): boolean {
    let known = this.answers.get(name);
    if (known === undefined) {
      const key = this.key(name);
      known = this.keys.has(key) || this.listed.has(key);
      this.answers.set(name, known);
    }
    return known;
  }

  private key(name: string): string {
    let key = this.keyMemo?.get(name);
    if (key === undefined) {
      key = compact(foldDigraphs(expandNameWords(name, this.langs), this.langs));
      this.keyMemo?.set(name, key);
    }
    return key;
  }

  /** The longest known place starting at token `i` within free tokens of one section, or undefined. */
  at(text: string, tokens: readonly Token[], labels: readonly (Label | undefined)[], i: number): Span | undefined {
    let found: Span | undefined;
    for (let to = i; to < tokens.length && to < i + MAX_WORDS; to++) {
      if (labels[to] !== undefined || (to > i && tokens[to]?.opens)) break;
      if (this.has(spanText(text, tokens, { from: i, to }))) found = { from: i, to };
    }
    return found;
  }

  /** The longest known place ending at token `i` (read backwards), or undefined. */
  endingAt(text: string, tokens: readonly Token[], labels: readonly (Label | undefined)[], i: number): Span | undefined {
    let found: Span | undefined;
    for (let from = i; from >= 0 && from > i - MAX_WORDS; from--) {
      if (labels[from] !== undefined) break;
      if (this.has(spanText(text, tokens, { from, to: i }))) found = { from, to: i };
      if (tokens[from]?.opens) break;
    }
    return found;
  }
}

/**
 * The span of `run` that names one of `streets` (a candidate result's street): the longest written
 * the same way, else the longest recognisably the same (a typo, an abbreviation); `anchor` pins a
 * run's spans to the edge it shares with the house number. The reading then
 * compares that span, so the words around it are not taken for part of the street.
 */
export function streetSpan(
  text: string,
  tokens: readonly Token[],
  runs: readonly (Span & { anchor?: 'start' | 'end' })[],
  streets: readonly string[],
  country: string | undefined,
): Span | undefined {
  let best: { span: Span; rank: number } | undefined;
  for (const run of runs) {
    // A street beside the house number touches it: spans start (or end) at the run's edge there.
    for (let from = run.from; from <= (run.anchor === 'start' ? run.from : run.to); from++) {
      for (let to = run.anchor === 'end' ? run.to : from; to <= run.to && to < from + MAX_WORDS + 1; to++) {
        const written = spanText(text, tokens, { from, to });
        for (const street of streets) {
          const verdict = compareComponent('street', written, street, country);
          if (verdict === 'mismatch') continue;
          const rank = (verdict === 'match' ? 100 : 0) + (to - from);
          if (!best || rank > best.rank) best = { span: { from, to }, rank };
        }
      }
    }
  }
  return best?.span;
}
