import { normalizeText } from './text.js';

/** One written word of an address: as typed, normalized, where it stands. */
export interface Token {
  text: string;
  /** normalizeText of it. */
  norm: string;
  start: number;
  end: number;
  /** A comma or semicolon comes before it, or it starts the text: it opens a section. */
  opens: boolean;
}

/** Words split at spaces, commas and semicolons; the separators only mark where sections open. */
export function tokenize(text: string): Token[] {
  const out: Token[] = [];
  let opens = true;
  for (const m of text.matchAll(/[^\s,;]+|[,;]/g)) {
    if (m[0] === ',' || m[0] === ';') {
      opens = true;
      continue;
    }
    out.push({ text: m[0], norm: normalizeText(m[0]), start: m.index, end: m.index + m[0].length, opens });
    opens = false;
  }
  return out;
}

/** What a token was read as; undefined while it is still free. */
export type Label = 'country' | 'postcode' | 'houseNumber' | 'street' | 'city' | 'state';

/** Inclusive token range. */
export interface Span {
  from: number;
  to: number;
}

/** The text a span covers, as written (inner spacing and punctuation kept, edge dashes dropped). */
export function spanText(text: string, tokens: readonly Token[], span: Span): string {
  const first = tokens[span.from];
  const last = tokens[span.to];
  if (!first || !last) return '';
  return text.slice(first.start, last.end).replace(/^[\s\-–]+|[\s\-–]+$/g, '');
}

/** A word of a name: letters and no digits (`Damrak`, `St.`), or an ordinal (`3e`, `42nd`, `17.`). */
export function isNameWord(token: Token | undefined): boolean {
  if (!token) return false;
  return (/\p{L}/u.test(token.text) && !/\d/.test(token.text)) || ORDINAL.test(token.text);
}

/** Ordinals that open or sit inside street names (`3e Binnenvestgracht`, `West 42nd Street`, `Straße des 17. Juni`). */
export const ORDINAL = /^\d+(?:e|ste|de|th|st|nd|rd|er|re|eme|ème|\.)$/i;

/** Free tokens in runs: maximal stretches of unlabeled tokens not broken by a comma. */
export function freeRuns(tokens: readonly Token[], labels: readonly (Label | undefined)[]): Span[] {
  const runs: Span[] = [];
  let current: Span | undefined;
  tokens.forEach((t, i) => {
    if (labels[i] !== undefined) {
      current = undefined;
      return;
    }
    if (current && !t.opens && current.to === i - 1) current.to = i;
    else runs.push((current = { from: i, to: i }));
  });
  return runs;
}

export function label(labels: (Label | undefined)[], span: Span, as: Label): void {
  for (let i = span.from; i <= span.to; i++) labels[i] = as;
}
