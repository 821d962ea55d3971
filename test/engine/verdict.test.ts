import { describe, expect, it } from 'vitest';
import type { AddressComponents, ComponentVerdicts } from '../../src/contract/address.js';
import type { Reason, Verdict } from '../../src/contract/enums.js';
import { DEFAULT_THRESHOLDS } from '../../src/engine/types.js';
import type { ScoredCandidate } from '../../src/engine/types.js';
import { decideVerdict } from '../../src/engine/verdict.js';

const input: AddressComponents = { street: 'Damrak', houseNumber: '1', postcode: '1012 LG', city: 'Amsterdam' };

function selected(componentVerdicts: ComponentVerdicts): ScoredCandidate {
  return { provider: 'pdok', components: {}, precision: 'address', confidence: 0, componentVerdicts };
}

const allMatch: ComponentVerdicts = { street: 'match', houseNumber: 'match', postcode: 'match', city: 'match' };

type Row = [name: string, verdicts: ComponentVerdicts, confidence: number, verdict: Verdict, reasons: Reason[]];
const rows: Row[] = [
  ['all match at 80 is valid', allMatch, 80, 'valid', []],
  ['all match at 79 is correctable', allMatch, 79, 'correctable', ['low_confidence']],
  ['all match at 50 is correctable', allMatch, 50, 'correctable', ['low_confidence']],
  ['all match at 49 is invalid', allMatch, 49, 'invalid', ['low_confidence']],
  ['not-checked does not count against valid', { ...allMatch, city: 'not-checked' }, 90, 'valid', []],
  ['missing counts against valid', { ...allMatch, postcode: 'missing' }, 95, 'correctable', ['components_incomplete']],
  ['corrected counts against valid', { ...allMatch, street: 'corrected' }, 95, 'correctable', ['components_corrected']],
  ['a replaced mismatch elsewhere is a correction, never valid', { ...allMatch, city: 'mismatch' }, 90, 'correctable', ['components_corrected']],
  ['house number different → invalid', { ...allMatch, houseNumber: 'mismatch' }, 90, 'invalid', ['no_house_number_match']],
  ['house number absent from result → invalid', { ...allMatch, houseNumber: 'not-checked' }, 90, 'invalid', ['no_house_number_match']],
  ['every reason that applies, in order', { street: 'corrected', houseNumber: 'mismatch', postcode: 'missing', city: 'match' }, 60, 'invalid', ['low_confidence', 'no_house_number_match', 'components_incomplete', 'components_corrected']],
];

describe('decideVerdict', () => {
  it.each(rows)('%s', (_name, verdicts, confidence, verdict, reasons) => {
    expect(decideVerdict({ input, selected: selected(verdicts), confidence, thresholds: DEFAULT_THRESHOLDS })).toEqual({ verdict, reasons });
  });

  it('no result → invalid with no_results and low_confidence', () => {
    expect(decideVerdict({ input, selected: null, confidence: 0, thresholds: DEFAULT_THRESHOLDS })).toEqual({
      verdict: 'invalid',
      reasons: ['no_results', 'low_confidence'],
    });
  });

  it('no house number in the input: its absence in the result is no reason', () => {
    const noNumber = { street: 'Damrak', city: 'Amsterdam' };
    const out = decideVerdict({ input: noNumber, selected: selected({ street: 'match', city: 'match' }), confidence: 85, thresholds: DEFAULT_THRESHOLDS });
    expect(out).toEqual({ verdict: 'valid', reasons: [] });
  });

  it('uses the account thresholds', () => {
    const strict = { valid: 95, correctable: 70 };
    expect(decideVerdict({ input, selected: selected(allMatch), confidence: 90, thresholds: strict })).toEqual({ verdict: 'correctable', reasons: ['low_confidence'] });
    expect(decideVerdict({ input, selected: selected(allMatch), confidence: 65, thresholds: strict }).verdict).toBe('invalid');
    const lenient = { valid: 60, correctable: 30 };
    expect(decideVerdict({ input, selected: selected(allMatch), confidence: 65, thresholds: lenient })).toEqual({ verdict: 'valid', reasons: [] });
  });
});
