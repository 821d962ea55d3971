import { compareComponent } from './compare.js';
import { countryLanguages } from './languages.js';
import { expandNameWords } from './street.js';
import { compact, foldDigraphs } from './text.js';
import { type Label, type Span, spanText, type Token } from './tokens.js';

/** Longest name, in words, the reader looks for (`Vila Nova de Gaia`, `Newcastle upon Tyne`). */
const MAX_WORDS = 5;

/** Known place names of one reading, keyed by their formatting-free form (`København V` = `kobenhavn v`). */
export class PlaceSet {
  private readonly keys: Set<string>;
  private readonly langs: readonly string[];

  constructor(
    names: Iterable<string>,
    private readonly country: string | undefined,
  ) {
    this.langs = countryLanguages(country);
    this.keys = new Set([...names].map((n) => this.key(n)).filter(Boolean));
  }

  has(name: string): boolean {
    return this.keys.has(this.key(name));
  }

  private key(name: string): string {
    return compact(foldDigraphs(expandNameWords(name, this.langs), this.langs));
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
 * the same way, else the longest recognisably the same (a typo, an abbreviation). The reading then
 * compares that span, so the words around it are not taken for part of the street.
 */
export function streetSpan(text: string, tokens: readonly Token[], runs: readonly Span[], streets: readonly string[], country: string | undefined): Span | undefined {
  let best: { span: Span; rank: number } | undefined;
  for (const run of runs) {
    for (let from = run.from; from <= run.to; from++) {
      for (let to = from; to <= run.to && to < from + MAX_WORDS + 1; to++) {
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
