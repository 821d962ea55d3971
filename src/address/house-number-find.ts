import { isNameWord, type Label, ORDINAL, type Span, type Token } from './tokens.js';

/** A token that starts a house number: `12`, `12B`, `12hs`, `12bis`, `123-2`, `2/B`, `12-14`. */
const NUMBER = /^\d{1,5}(?:[a-z]|bis|ter|quater|hs|huis|bg)?(?:[-/][\p{L}\p{N}]{1,4})*$/iu;
/** Words that may follow the number and belong to it: `12 B`, `12 bis`, `12 hs`, `12 II`, `12 -2`, `2 /B`. */
const SUFFIX = /^(?:[a-z]|bis|ter|quater|hs|huis|bg|ii|iii|iv|[-/][\p{L}\p{N}]{1,4})$/iu;
/** A lone letter after a leading number is a direction there (`200 N Main St`), not a house letter. */
const DIRECTION = /^[nsew]$/i;
/** A bare 1-3 digit toevoeging (`Keizersgracht 123 2`): only the Dutch convention. */
const BARE_ADDITION = /^\d{1,3}$/;
const DASH = /^[-–/]$/;

export interface HouseNumberCandidate extends Span {
  score: number;
}

/**
 * Every token that may be the house number, extended by the words that belong to it, with its
 * evidence: where the country puts it, right after the street's words (+3, `Damrak 1`), or before
 * them (+3 where the number comes first, `10 Downing Street`, +1 elsewhere); opening a section
 * +1 where the number comes first; any number 0.5; words on both sides −2 (a number inside a name,
 * `Rua 25 de Abril 10`); where the number comes first but the section opens with the street's words,
 * closing the section +2 (`Rue du 4 Septembre 20,`) or right after `word number` +3
 * (`Avenue du 8 Mai 1945 3`). Ordinals (`3e`, `42nd`, `17.`) are street words.
 */
export function houseNumberCandidates(
  tokens: readonly Token[],
  labels: readonly (Label | undefined)[],
  opts: { numberFirst: boolean; dutch: boolean },
): HouseNumberCandidate[] {
  const out: HouseNumberCandidate[] = [];
  tokens.forEach((token, i) => {
    if (labels[i] !== undefined || !NUMBER.test(token.text) || ORDINAL.test(token.text)) return;
    const to = extend(tokens, labels, i, opts);
    const prev = tokens[i - 1];
    const next = tokens[to + 1];
    // A street already known (a result's, read first) counts as the words beside the number.
    const afterWords = !token.opens && ((labels[i - 1] === undefined && isNameWord(prev)) || labels[i - 1] === 'street');
    const beforeWords = next !== undefined && !next.opens && ((labels[to + 1] === undefined && isNameWord(next)) || labels[to + 1] === 'street');
    let score = 0.5;
    // Right after a known street it is the number whatever the country's order (`Avenue du 8 Mai 1945 3`).
    if (afterWords) score += opts.numberFirst && labels[i - 1] !== 'street' ? 1 : 3;
    if (beforeWords) score += opts.numberFirst ? 3 : 1;
    if (opts.numberFirst && token.opens && beforeWords) score += 1;
    // Where the number usually comes first but the street was written first (`Rue du 4 Septembre 20,`,
    // `Avenue du 8 Mai 1945 3`): the number that closes the street's section after its words, or
    // right after `word number`, is the house number, not one inside the name.
    if (opts.numberFirst && !token.opens && writtenStreetFirst(tokens, labels, i)) {
      const prev2 = tokens[i - 2];
      if (afterWords && (!next || next.opens)) score += 2;
      else if (prev && !prev.opens && /^\d+$/.test(prev.text) && labels[i - 1] === undefined && labels[i - 2] === undefined && isNameWord(prev2)) score += 3;
    }
    // Words on both sides within one section: a number inside the street's name (`Rua 25 de Abril 10`,
    // `Calle 10 de Agosto 5`) rather than the house number, when another number can be that.
    // Between two such numbers, the later one where the street comes first (`Rua 25 de Abril 10 Lisboa`).
    if (afterWords && beforeWords) score -= opts.numberFirst ? 2 : 2 - i / 1000;
    out.push({ from: i, to, score });
  });
  return out;
}

/** The section of token `i` opens with a word (`Rue du 4 Septembre 20`), not with a number (`20 Rue …`). */
function writtenStreetFirst(tokens: readonly Token[], labels: readonly (Label | undefined)[], i: number): boolean {
  let start = i;
  while (start > 0 && !tokens[start]?.opens) start--;
  while (start < i && labels[start] !== undefined) start++;
  return start < i && isNameWord(tokens[start]);
}

/** The last token of the house number that starts at `i`: its letter, addition, unit or floor words. */
function extend(tokens: readonly Token[], labels: readonly (Label | undefined)[], i: number, opts: { numberFirst: boolean; dutch: boolean }): number {
  let to = i;
  for (;;) {
    const next = tokens[to + 1];
    if (!next || next.opens || labels[to + 1] !== undefined) return to;
    const after = tokens[to + 2];
    if (DASH.test(next.text) && after && !after.opens && labels[to + 2] === undefined && /^[\p{L}\p{N}]{1,4}$/u.test(after.text)) {
      to += 2;
      continue;
    }
    const letter = /^[a-z]$/i.test(next.text);
    if (SUFFIX.test(next.text) && !(letter && opts.numberFirst && DIRECTION.test(next.text))) {
      to += 1;
      continue;
    }
    if (opts.dutch && to === i && BARE_ADDITION.test(next.text)) return to + 1;
    return to;
  }
}
