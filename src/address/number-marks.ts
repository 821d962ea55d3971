import type { Token } from './tokens.js';

/**
 * Signs and words that announce the house number (issue 34): `Städtle Nr. 32`, `Main Street No. 5`,
 * `Rua Chã nº 103`, `Via Roma n. 5`, `#12 Main Street`, and a number in quotes (`Städtle "32"`).
 * Without them taken off, the number is lost (`"32"` is no number) or the word joins the street.
 */
const MARK = /^(?:nr|no|n|nº|n°|n\.º|num|núm|nro|#)\.?$/iu;
const NUMBER = /^\d{1,5}[a-z]?$/i;
/** The mark written against its number: `Nr.32`, `nº103`, `#12`. */
const GLUED = /^(?:nr\.?|no\.|nº|n°|n\.º|#)(\d{1,5}[a-z]?)$/iu;
/** A number in quotes of any kind: `"32"`, `„32“`, `«32»`, `'32'`. */
const QUOTED = /^["'„“”«»‚‘’]+(\d{1,5}[a-z]?)["'„“”«»‚‘’]+$/u;

/**
 * What each marked token becomes: `''` for a mark standing before its number (dropped), the bare
 * number for a mark or quotes around it; tokens in `taken` (units, recipient lines) are left alone.
 * A lone `n` is a mark only with its dot (`n. 5`): as a word it may be an initial.
 */
export function numberMarks(tokens: readonly Token[], taken: ReadonlySet<number>): Map<number, string> {
  const out = new Map<number, string>();
  tokens.forEach((t, i) => {
    if (taken.has(i)) return;
    const glued = GLUED.exec(t.text) ?? QUOTED.exec(t.text);
    if (glued) {
      out.set(i, glued[1] as string);
      return;
    }
    const next = tokens[i + 1];
    if (!MARK.test(t.text) || (t.text.toLowerCase() === 'n' && !t.text.endsWith('.'))) return;
    if (!next || next.opens || taken.has(i + 1)) return;
    const number = NUMBER.test(next.text) ? next.text : QUOTED.exec(next.text)?.[1];
    if (number === undefined) return;
    out.set(i, '');
    out.set(i + 1, number);
  });
  return out;
}
