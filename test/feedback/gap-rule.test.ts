import { describe, expect, it } from 'vitest';
import type { AnswerForGap } from '../../src/feedback/gap-rule.js';
import { gapOf } from '../../src/feedback/gap-rule.js';

const INPUT = { street: 'Damrak', houseNumber: '999', postcode: '1012 LG', city: 'Amsterdam', state: 'Noord-Holland', country: 'NL' };
const FOUND = { street: 'Damrak', houseNumber: '1', postcode: '1012 LG', city: 'Amsterdam', state: 'Noord-Holland', country: 'NL', lat: 52.37, lng: 4.89, lines: ['Damrak 1', '1012 LG Amsterdam'], formatted: 'Damrak 1, 1012 LG Amsterdam', inferred: [] };
const answer = (over: Partial<AnswerForGap>): AnswerForGap => ({
  verdict: 'invalid',
  reasons: ['low_confidence', 'no_house_number_match'],
  components: { street: 'match', houseNumber: 'mismatch', postcode: 'match', city: 'match', country: 'match' },
  address: FOUND,
  ...over,
});

/** Which answers could reveal an index gap (issue 29 item 4): not found, never a typo, never unchecked. */
describe('gapOf', () => {
  it.each([
    ['a number the street does not have', answer({}), false, 'house'],
    ['only the street known (the number not checked)', answer({ components: { street: 'match', houseNumber: 'not-checked' } }), false, 'house'],
    ['no street like the one typed', answer({ reasons: ['no_results', 'low_confidence'], components: {}, address: null }), false, 'street'],
    ['the same, but no provider answered (nothing was checked)', answer({ reasons: ['no_results', 'low_confidence'], components: {}, address: null }), true, undefined],
    ['a typo in the street, corrected', answer({ verdict: 'correctable', reasons: ['components_corrected'], components: { street: 'corrected', houseNumber: 'match' } }), false, undefined],
    ['a corrected street and an unknown number', answer({ components: { street: 'corrected', houseNumber: 'mismatch' } }), false, undefined],
    ['a wrong postcode only', answer({ verdict: 'correctable', reasons: ['components_corrected'], components: { street: 'match', houseNumber: 'match', postcode: 'mismatch' } }), false, undefined],
    ['a valid answer', answer({ verdict: 'valid', reasons: [], components: { street: 'match', houseNumber: 'match' } }), false, undefined],
  ] as const)('%s', (_, given, unverified, kind) => {
    expect(gapOf(given, INPUT, unverified)?.kind).toBe(kind);
  });

  it('keeps street, number, postcode, town and country only; the read side without the neighbour number', () => {
    expect(gapOf(answer({}), { ...INPUT }, false)).toEqual({
      kind: 'house',
      typed: { street: 'Damrak', houseNumber: '999', postcode: '1012 LG', city: 'Amsterdam', country: 'NL' },
      read: { street: 'Damrak', postcode: '1012 LG', city: 'Amsterdam', country: 'NL' },
    });
  });

  it('needs a typed street: a postcode alone reveals no street or house gap', () => {
    expect(gapOf(answer({ reasons: ['no_results'], components: {}, address: null }), { postcode: '1012 LG', country: 'NL' }, false)).toBeUndefined();
  });
});
