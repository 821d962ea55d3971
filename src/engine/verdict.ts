import type { ComponentVerdicts, VerdictField } from '../contract/address.js';
import type { Precision } from '../providers/provider.js';
import type { ComponentVerdict, Reason, Verdict } from '../contract/enums.js';
import type { ScoredCandidate, Thresholds } from './types.js';

/**
 * Verdict and reasons (DESIGN §3, SPEC "Verdict", issue 15).
 *
 * What counts as what, per component (address/compare.ts):
 * - formatting is a `match`, never a correction: case, punctuation, spacing, diacritics and their
 *   digraphs, both ways (`ø`/`o`/`oe`, `å`/`aa`, `æ`/`ae`, `ß`/`ss`, `ü`/`ue`/`u`), street-type and
 *   prefix abbreviations (`Str.`, `gr.`, `Sdr.`, `Ndr.`, `Gl.`, `Skt.`, `Kgs.`, `R.`, `Av.`, `C/`,
 *   `P.za`, `St`, `N`), name particles dropped, added or swapped, per language (`Rua Liberdade` =
 *   `Rua da Liberdade`, `Straße des 17. Juni`, `Rue de la République`, `Calle de Alcalá`, `Via del
 *   Corso`; not Dutch `van`, not German `Am`), postcode layout (`1012lg`), the ways a house letter or
 *   addition is written (`12 b` = `12B`, `12hs` = `12-H`, `12 II` = `12-2`), a town written as any of
 *   the places the result names (village, municipality, parish, district, suburb, quarter, county;
 *   a city-state's own name: `98000 Monaco`);
 * - `not-checked`: a component the result does not carry, never a mismatch; so also a town where the
 *   result names no place at the town level (only a district, suburb or quarter: a city cut in
 *   pieces, an extract without the city's boundary) and none of its places is the one typed;
 * - `corrected` only for a value recognisably the same: a typo within a small edit distance for its
 *   length (none up to 3 characters, 1 up to 7, 2 up to 14, then 3), a transposed or mistyped postcode
 *   character, an abbreviation or listed alternative name, a street the result completes with its type
 *   (`Champs-Élysées` → `Avenue des Champs-Élysées`), a partial postcode (`1012` → `1012 LG`, a
 *   British outward code `EC4`/`EC4Y` → `EC4Y 1DE`), a town the result names more precisely
 *   (`Paris` → `Paris 8e`: only its own town, never a district's longer name, `London` ≠ `City of London`);
 * - anything else is a `mismatch`; house numbers are never fuzzy: another number, letter or addition,
 *   or none where the result has one (`12` for `12B`), is a `mismatch`.
 *
 * A candidate is not the address asked for (recognisable() is false, and it is never selected) when:
 * - its street is a `mismatch`: the service never presents another street as the fix;
 * - two identifying components (street, house number, postcode) would both be replaced: that is
 *   another address, not a correction. A result without a house number (a street) replaces none,
 *   even where its data knows the typed one is absent (`mismatch`: no_house_number_match says so).
 * With no recognisable candidate the answer is the one for no result (`address: null`, `no_results`).
 *
 * Reasons: every one that applies, in this order:
 * - no_results: no usable, recognisable result;
 * - low_confidence: confidence below the valid threshold (so also with no result, where it is 0);
 * - no_house_number_match: the input has a house number and the best result lacks it or has another;
 * - components_incomplete: some component is `missing` (the result completed the input);
 * - components_corrected: some component is `corrected`, or a component other than the house number is a
 *   `mismatch` that the standardized address replaces (a wrong postcode or town): SPEC has no reason of its
 *   own for that, and a `correctable` answer must say what was fixed.
 *
 * Verdict:
 * - invalid: no recognisable result, confidence below the correctable threshold, or no_house_number_match
 *   (a house number, letter or addition that does not exist is never `valid`);
 * - valid: confidence at or above the valid threshold and every checked component `match`
 *   (`not-checked` does not count against it; `missing` does: the address was completed);
 * - correctable: everything else, so a wrong town or a wrong postcode with the right street and number.
 * After this, answer-shape.ts may only lower `valid` to `correctable` (a typed unit the data does not
 * list, or another place that fits nearly as well: `alternatives`); it never moves the confidence.
 */
export function decideVerdict(args: { selected: ScoredCandidate | null; confidence: number; thresholds: Thresholds }): {
  verdict: Verdict;
  reasons: Reason[];
} {
  const { selected, confidence, thresholds } = args;
  if (!selected || !recognisable(selected.componentVerdicts, selected.precision)) {
    return { verdict: 'invalid', reasons: confidence < thresholds.valid ? ['no_results', 'low_confidence'] : ['no_results'] };
  }
  const verdicts: ComponentVerdicts = selected.componentVerdicts;
  const values = Object.values(verdicts);
  const houseNumberUnmatched = Boolean(selected.reading.houseNumber?.trim()) && verdicts.houseNumber !== 'match';

  const reasons: Reason[] = [];
  if (confidence < thresholds.valid) reasons.push('low_confidence');
  if (houseNumberUnmatched) reasons.push('no_house_number_match');
  if (values.includes('missing')) reasons.push('components_incomplete');
  const replaced = (Object.entries(verdicts) as [VerdictField, ComponentVerdict][]).some(
    ([field, v]) => v === 'corrected' || (v === 'mismatch' && field !== 'houseNumber'),
  );
  if (replaced) reasons.push('components_corrected');

  let verdict: Verdict = 'correctable';
  if (confidence < thresholds.correctable || houseNumberUnmatched) verdict = 'invalid';
  else if (confidence >= thresholds.valid && values.every((v) => v === 'match' || v === 'not-checked')) verdict = 'valid';
  return { verdict, reasons };
}

/** Components that, together, name one address. */
const IDENTIFYING: readonly VerdictField[] = ['street', 'houseNumber', 'postcode'];

/** Whether a candidate may stand for the input's address at all (see decideVerdict's comment). */
export function recognisable(verdicts: ComponentVerdicts, precision: Precision = 'address'): boolean {
  if (verdicts.street === 'mismatch') return false;
  const replaces = (f: VerdictField) => (verdicts[f] === 'corrected' || verdicts[f] === 'mismatch') && (f !== 'houseNumber' || precision === 'address');
  return IDENTIFYING.filter(replaces).length < 2;
}
