import type { AddressComponents, ComponentVerdicts } from '../contract/address.js';
import type { Reason, Verdict } from '../contract/enums.js';
import type { ScoredCandidate, Thresholds } from './types.js';

/**
 * Verdict and reasons (DESIGN §3, SPEC "Verdict").
 *
 * Reasons: every one that applies, in this order:
 * - no_results: no usable result;
 * - low_confidence: confidence below the valid threshold (so also with no result, where it is 0);
 * - no_house_number_match: the input has a house number and the best result lacks it or has another;
 * - components_incomplete: some component is `missing` (the result completed the input);
 * - components_corrected: some component is `corrected`, or a component other than the house number is a
 *   `mismatch` that the standardized address replaces (a wrong postcode): SPEC has no reason of its own
 *   for that, and a `correctable` answer must say what was fixed.
 *
 * Verdict:
 * - invalid: no result, confidence below the correctable threshold, or no_house_number_match;
 * - valid: confidence at or above the valid threshold and every checked component `match`
 *   (`not-checked` does not count against it; `missing` does: the address was completed);
 * - correctable: everything else.
 */
export function decideVerdict(args: {
  input: AddressComponents;
  selected: ScoredCandidate | null;
  confidence: number;
  thresholds: Thresholds;
}): { verdict: Verdict; reasons: Reason[] } {
  const { input, selected, confidence, thresholds } = args;
  if (!selected) {
    return { verdict: 'invalid', reasons: confidence < thresholds.valid ? ['no_results', 'low_confidence'] : ['no_results'] };
  }
  const verdicts: ComponentVerdicts = selected.componentVerdicts;
  const values = Object.values(verdicts);
  const houseNumberUnmatched = Boolean(input.houseNumber?.trim()) && verdicts.houseNumber !== 'match';

  const reasons: Reason[] = [];
  if (confidence < thresholds.valid) reasons.push('low_confidence');
  if (houseNumberUnmatched) reasons.push('no_house_number_match');
  if (values.includes('missing')) reasons.push('components_incomplete');
  const replaced = (Object.entries(verdicts) as [string, string][]).some(
    ([field, v]) => v === 'corrected' || (v === 'mismatch' && field !== 'houseNumber'),
  );
  if (replaced) reasons.push('components_corrected');

  let verdict: Verdict = 'correctable';
  if (confidence < thresholds.correctable || houseNumberUnmatched) verdict = 'invalid';
  else if (confidence >= thresholds.valid && values.every((v) => v === 'match' || v === 'not-checked')) verdict = 'valid';
  return { verdict, reasons };
}
