import { describe, expect, it } from 'vitest';
import type { AddressComponents, ComponentVerdicts } from '../../src/contract/address.js';
import type { Granularity, NextAction, Verdict } from '../../src/contract/enums.js';
import { answerGranularity, GEOCODE_LEVEL } from '../../src/engine/granularity.js';
import { nextAction } from '../../src/engine/next-action.js';
import type { ScoredCandidate } from '../../src/engine/types.js';
import type { Precision } from '../../src/providers/provider.js';

const candidate = (precision: Precision = 'address'): ScoredCandidate => ({
  provider: 'local', components: {}, precision, confidence: 90, componentVerdicts: {}, reading: {},
});

describe('answerGranularity', () => {
  const INPUT: [AddressComponents, Granularity][] = [
    [{ street: 'Damrak', houseNumber: '1', unit: 'Apt 3B' }, 'unit'],
    [{ street: 'Damrak', houseNumber: '1', city: 'Amsterdam' }, 'house'],
    [{ postcode: '1012 LG', houseNumber: '1' }, 'house'],
    [{ street: 'Damrak', city: 'Amsterdam' }, 'street'],
    [{ postcode: '1012 LG', city: 'Amsterdam' }, 'postcode'],
    [{ city: 'Amsterdam', country: 'NL' }, 'place'],
    [{ state: 'Noord-Holland' }, 'region'],
    [{ country: 'NL' }, 'country'],
    [{ street: '  ' }, 'none'],
  ];
  it.each(INPUT)('input %j names %s', (input, level) => {
    expect(answerGranularity(input, null, {}).input).toBe(level);
  });

  const VALIDATED: [ComponentVerdicts, Granularity][] = [
    [{ unit: 'match', houseNumber: 'match', street: 'match' }, 'unit'],
    [{ unit: 'not-checked', houseNumber: 'match', street: 'match' }, 'house'],
    [{ unit: 'mismatch', houseNumber: 'match', street: 'match' }, 'house'],
    [{ houseNumber: 'mismatch', street: 'corrected', postcode: 'match' }, 'street'],
    [{ houseNumber: 'not-checked', street: 'missing', postcode: 'corrected' }, 'postcode'],
    [{ street: 'missing', postcode: 'missing', city: 'match' }, 'place'],
    [{ city: 'mismatch', country: 'match' }, 'country'],
    [{ houseNumber: 'missing', street: 'not-checked' }, 'none'],
  ];
  it.each(VALIDATED)('verdicts %j confirm %s', (verdicts, level) => {
    expect(answerGranularity({}, candidate(), verdicts).validated).toBe(level);
  });

  it.each(Object.entries(GEOCODE_LEVEL))('coordinates of precision %s are %s', (precision, level) => {
    expect(answerGranularity({}, candidate(precision as Precision), {}).geocode).toBe(level);
  });

  it('no result: nothing validated, no coordinates', () => {
    expect(answerGranularity({ street: 'Damrak', houseNumber: '1' }, null, {})).toEqual({ input: 'house', validated: 'none', geocode: 'none' });
  });
});

describe('nextAction', () => {
  const ROWS: [Verdict, boolean, boolean, NextAction][] = [
    ['valid', false, false, 'accept'],
    ['valid', true, true, 'accept'],
    ['valid', false, true, 'add_unit'],
    ['correctable', false, true, 'confirm'],
    ['correctable', false, false, 'confirm'],
    ['invalid', false, true, 'fix'],
    ['invalid', true, false, 'fix'],
  ];
  it.each(ROWS)('%s, unit given %s, data lists units %s → %s', (verdict, unitGiven, listsUnits, action) => {
    expect(nextAction(verdict, { unitGiven, listsUnits })).toBe(action);
  });
});
