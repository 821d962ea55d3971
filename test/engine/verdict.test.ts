import { describe, expect, it } from 'vitest';
import type { AddressComponents, ComponentVerdicts } from '../../src/contract/address.js';
import type { Reason, Verdict } from '../../src/contract/enums.js';
import { DEFAULT_THRESHOLDS } from '../../src/engine/types.js';
import type { ScoredCandidate } from '../../src/engine/types.js';
import { decideVerdict, recognisable } from '../../src/engine/verdict.js';

const input: AddressComponents = { street: 'Damrak', houseNumber: '1', postcode: '1012 LG', city: 'Amsterdam' };

function selected(componentVerdicts: ComponentVerdicts, reading: AddressComponents = input): ScoredCandidate {
  return { provider: 'pdok', components: {}, precision: 'address', confidence: 0, componentVerdicts, reading };
}

const allMatch: ComponentVerdicts = { street: 'match', houseNumber: 'match', postcode: 'match', city: 'match' };

/** One row per rule of decideVerdict's comment. */
type Row = [rule: string, verdicts: ComponentVerdicts, confidence: number, verdict: Verdict, reasons: Reason[]];
const rows: Row[] = [
  ['all match at 80 is valid', allMatch, 80, 'valid', []],
  ['all match at 79 is correctable', allMatch, 79, 'correctable', ['low_confidence']],
  ['all match at 50 is correctable', allMatch, 50, 'correctable', ['low_confidence']],
  ['all match at 49 is invalid', allMatch, 49, 'invalid', ['low_confidence']],
  ['not-checked does not count against valid', { ...allMatch, city: 'not-checked' }, 90, 'valid', []],
  ['missing counts against valid', { ...allMatch, postcode: 'missing' }, 95, 'correctable', ['components_incomplete']],
  ['a corrected street (typo) is correctable', { ...allMatch, street: 'corrected' }, 95, 'correctable', ['components_corrected']],
  ['a corrected postcode (transposed digits) is correctable', { ...allMatch, postcode: 'corrected' }, 95, 'correctable', ['components_corrected']],
  ['a wrong city with the right street and number stays correctable', { ...allMatch, city: 'mismatch' }, 90, 'correctable', ['components_corrected']],
  ['a wrong postcode with the right street and number stays correctable', { ...allMatch, postcode: 'mismatch' }, 90, 'correctable', ['components_corrected']],
  ['a corrected street and a wrong town: one identifying component replaced', { ...allMatch, street: 'corrected', city: 'mismatch' }, 85, 'correctable', ['components_corrected']],
  ['a corrected street and a completed postcode: nothing else replaced', { ...allMatch, street: 'corrected', postcode: 'missing' }, 85, 'correctable', ['components_incomplete', 'components_corrected']],
  ['house number different → invalid', { ...allMatch, houseNumber: 'mismatch' }, 90, 'invalid', ['no_house_number_match']],
  ['house number absent from result → invalid', { ...allMatch, houseNumber: 'not-checked' }, 90, 'invalid', ['no_house_number_match']],
  ['every reason that applies, in order', { street: 'match', houseNumber: 'mismatch', postcode: 'missing', city: 'corrected' }, 60, 'invalid', ['low_confidence', 'no_house_number_match', 'components_incomplete', 'components_corrected']],
  ['another street is never the fix: no result', { ...allMatch, street: 'mismatch' }, 75, 'invalid', ['no_results', 'low_confidence']],
  ['street and postcode replaced at once: no result', { ...allMatch, street: 'corrected', postcode: 'corrected' }, 85, 'invalid', ['no_results']],
  ['postcode and house number replaced at once: no result', { ...allMatch, postcode: 'mismatch', houseNumber: 'mismatch' }, 70, 'invalid', ['no_results', 'low_confidence']],
];

describe('decideVerdict', () => {
  it.each(rows)('%s', (_rule, verdicts, confidence, verdict, reasons) => {
    expect(decideVerdict({ selected: selected(verdicts), confidence, thresholds: DEFAULT_THRESHOLDS })).toEqual({ verdict, reasons });
  });

  it('no result → invalid with no_results and low_confidence', () => {
    expect(decideVerdict({ selected: null, confidence: 0, thresholds: DEFAULT_THRESHOLDS })).toEqual({
      verdict: 'invalid',
      reasons: ['no_results', 'low_confidence'],
    });
  });

  it('no house number in the input: its absence in the result is no reason', () => {
    const noNumber = { street: 'Damrak', city: 'Amsterdam' };
    const out = decideVerdict({ selected: selected({ street: 'match', city: 'match' }, noNumber), confidence: 85, thresholds: DEFAULT_THRESHOLDS });
    expect(out).toEqual({ verdict: 'valid', reasons: [] });
  });

  it('uses the account thresholds', () => {
    const strict = { valid: 95, correctable: 70 };
    expect(decideVerdict({ selected: selected(allMatch), confidence: 90, thresholds: strict })).toEqual({ verdict: 'correctable', reasons: ['low_confidence'] });
    expect(decideVerdict({ selected: selected(allMatch), confidence: 65, thresholds: strict }).verdict).toBe('invalid');
    const lenient = { valid: 60, correctable: 30 };
    expect(decideVerdict({ selected: selected(allMatch), confidence: 65, thresholds: lenient })).toEqual({ verdict: 'valid', reasons: [] });
  });
});

describe('recognisable: whether a candidate may stand for the address asked for', () => {
  it.each<[string, ComponentVerdicts, boolean]>([
    ['everything matches', allMatch, true],
    ['one identifying component corrected', { ...allMatch, street: 'corrected' }, true],
    ['a wrong postcode alone', { ...allMatch, postcode: 'mismatch' }, true],
    ['another house number alone (invalid, but the same street)', { ...allMatch, houseNumber: 'mismatch' }, true],
    ['a street-level result', { street: 'match', houseNumber: 'not-checked', city: 'match' }, true],
    ['a wrong town does not count', { ...allMatch, street: 'corrected', city: 'mismatch' }, true],
    ['another street', { ...allMatch, street: 'mismatch' }, false],
    ['street and postcode replaced', { ...allMatch, street: 'corrected', postcode: 'mismatch' }, false],
    ['postcode and house number replaced', { ...allMatch, postcode: 'corrected', houseNumber: 'mismatch' }, false],
    ['street and house number replaced', { ...allMatch, street: 'corrected', houseNumber: 'mismatch' }, false],
  ])('%s → %s', (_name, verdicts, expected) => {
    expect(recognisable(verdicts)).toBe(expected);
  });

  it('a street-level result whose data knows the typed number is absent replaces no house number', () => {
    const verdicts: ComponentVerdicts = { street: 'match', houseNumber: 'mismatch', postcode: 'corrected', city: 'match' };
    expect(recognisable(verdicts, 'street')).toBe(true);
    expect(recognisable(verdicts, 'address')).toBe(false);
  });
});
