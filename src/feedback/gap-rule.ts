import type { AddressComponents, ComponentVerdicts, ResolvedAddress } from '../contract/address.js';
import type { Reason, Verdict } from '../contract/enums.js';

/** The only parts of an address a gap keeps: never a name, a unit or a recipient (issue 29). */
export const GAP_FIELDS = ['street', 'houseNumber', 'postcode', 'city', 'country'] as const;
export type GapField = (typeof GAP_FIELDS)[number];
export type GapFields = Partial<Record<GapField, string>>;

/** One side of a gap on one line: `street number, postcode town, country` (the CLI and the console). */
export function gapText(f: GapFields): string {
  return [[f.street, f.houseNumber].filter(Boolean).join(' '), [f.postcode, f.city].filter(Boolean).join(' '), f.country].filter(Boolean).join(', ');
}

/** `street`: no street like the one typed exists; `house`: the street does, the number does not. */
export type GapKind = 'street' | 'house';

export interface GapAddress {
  kind: GapKind;
  /** The five fields as the customer sent them (free text as our reader split it). */
  typed: GapFields;
  /** The fields of the address our answer gave (none when it found none; no number for a missing one). */
  read: GapFields;
}

export interface AnswerForGap {
  verdict: Verdict;
  reasons: readonly Reason[];
  components: ComponentVerdicts;
  address: ResolvedAddress | null;
}

/**
 * Could this answer reveal a hole in the data, should the customer insist on what they typed?
 * Only an `invalid` or `correctable` answer that did not find the street (no result at all for a
 * typed street) or found the street but not the house number (a number the data does not have, or
 * only the street known). Never a typo: an answer that corrected the street or the number read
 * the input as something the data has. Never an answer no provider gave (nothing was checked).
 */
export function gapOf(answer: AnswerForGap, input: AddressComponents, unverified: boolean): GapAddress | undefined {
  if (unverified || answer.verdict === 'valid' || !input.street?.trim()) return undefined;
  const c = answer.components;
  if (c.street === 'corrected' || c.houseNumber === 'corrected') return undefined;
  let kind: GapKind | undefined;
  if (answer.address === null && answer.reasons.includes('no_results')) kind = 'street';
  else if (
    answer.reasons.includes('no_house_number_match') &&
    c.street === 'match' &&
    (c.houseNumber === 'mismatch' || c.houseNumber === 'not-checked')
  ) {
    kind = 'house';
  }
  if (!kind) return undefined;
  const read = answer.address ? pick(answer.address) : {};
  // The answer's number is a neighbour's, not a reading of the one typed: the gap is that number.
  if (kind === 'house') delete read.houseNumber;
  return { kind, typed: pick(input), read };
}

function pick(from: Partial<Record<GapField, string | undefined>>): GapFields {
  const out: GapFields = {};
  for (const field of GAP_FIELDS) {
    const value = from[field]?.trim();
    if (value) out[field] = value;
  }
  return out;
}
