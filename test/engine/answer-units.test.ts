import { describe, expect, it } from 'vitest';
import type { ComponentVerdict, NextAction, Verdict } from '../../src/contract/enums.js';
import type { Granularity } from '../../src/contract/enums.js';
import type { ProviderCandidate } from '../../src/providers/provider.js';
import { answeringEngine } from './support/answering-engine.js';

const HOUSE = { street: 'Sekforde Street', houseNumber: '1', postcode: 'EC1R 0BE', city: 'London', country: 'GB' } as const;

function house(units?: string[], houseNumber = '1'): ProviderCandidate {
  return {
    components: { ...HOUSE, houseNumber },
    location: { lat: 51.5246, lng: -0.1036 },
    precision: 'address',
    ...(units ? { units } : {}),
  };
}

type Row = [
  rule: string,
  units: string[] | undefined,
  typed: string | undefined,
  expected: { unit?: ComponentVerdict; verdict: Verdict; action: NextAction; validated: Granularity },
];

/** Issue 27 item 1, the verdict side: one row per rule of unit-verdict.ts and next-action.ts. */
const ROWS: Row[] = [
  ['a typed unit the data lists is a match', ['Flat 1', 'Flat 2', 'Flat 3'], 'Flat 3', { unit: 'match', verdict: 'valid', action: 'accept', validated: 'unit' }],
  ['compared by its identifier, not its writing', ['3', '4'], 'flat 3', { unit: 'match', verdict: 'valid', action: 'accept', validated: 'unit' }],
  ['a unit the data does not list is a mismatch: never valid', ['Flat 1', 'Flat 2'], 'Flat 9', { unit: 'mismatch', verdict: 'correctable', action: 'confirm', validated: 'house' }],
  ['no unit typed where the house has two or more: ask for it', ['Flat 1', 'Flat 2'], undefined, { verdict: 'valid', action: 'add_unit', validated: 'house' }],
  ['no unit typed where the house has one: nothing to ask', ['Flat 1'], undefined, { verdict: 'valid', action: 'accept', validated: 'house' }],
  ['the data knows no units: carried, not checked', undefined, 'Flat 3', { unit: 'not-checked', verdict: 'valid', action: 'accept', validated: 'house' }],
  ['an empty list is no list', [], 'Flat 3', { unit: 'not-checked', verdict: 'valid', action: 'accept', validated: 'house' }],
  ['nothing typed, nothing known', undefined, undefined, { verdict: 'valid', action: 'accept', validated: 'house' }],
];

describe('the unit in the validate answer', () => {
  it.each(ROWS)('%s', async (_rule, units, typed, expected) => {
    const ask = answeringEngine({ local: [house(units)] });
    const answer = await ask({ components: { ...HOUSE, ...(typed ? { unit: typed } : {}) } });
    expect(answer.components.unit).toBe(expected.unit);
    expect(answer).toMatchObject({ verdict: expected.verdict, action: expected.action, granularity: { validated: expected.validated } });
    expect(answer.address?.unit).toBe(typed);
  });

  it('never moves the confidence, the reasons or the other components', async () => {
    const ask = answeringEngine({ local: [house(['Flat 1', 'Flat 2'])] });
    const bare = await ask({ components: HOUSE });
    for (const unit of ['Flat 1', 'Flat 9']) {
      const withUnit = await ask({ components: { ...HOUSE, unit } });
      expect({ ...withUnit.components, unit: undefined }).toEqual({ ...bare.components, unit: undefined });
      expect([withUnit.confidence, withUnit.reasons, withUnit.consensus]).toEqual([bare.confidence, bare.reasons, bare.consensus]);
    }
  });

  it('is carried into the postal lines in the country\'s place', async () => {
    const ask = answeringEngine({ local: [house(['Flat 3'])] });
    const answer = await ask({ components: { ...HOUSE, unit: 'Flat 3' }, country: 'GB' });
    expect(answer.address).toMatchObject({
      unit: 'Flat 3',
      lines: ['Flat 3', '1 Sekforde Street', 'London', 'EC1R 0BE'],
      formatted: 'Flat 3, 1 Sekforde Street, London, EC1R 0BE',
    });
    expect(answer.granularity).toEqual({ input: 'unit', validated: 'unit', geocode: 'house' });
  });

  it('is not checked against another house\'s units', async () => {
    const ask = answeringEngine({ local: [house(['Flat 1', 'Flat 3'], '3')] });
    const answer = await ask({ components: { ...HOUSE, unit: 'Flat 3' } });
    expect(answer).toMatchObject({ verdict: 'invalid', action: 'fix', components: { houseNumber: 'mismatch', unit: 'not-checked' } });
  });

  // Issue 34 item 7: a list gathered from single `addr:unit` values of a building's shops is not the house's list.
  it.each([
    ['a unit absent from a partial list is not-checked, the house valid', ['1'], '2º Esq.', { unit: 'not-checked', verdict: 'valid', action: 'accept', validated: 'house' }],
    ['a unit in a partial list is a match (1º is the house\'s 1)', ['1', 'A'], '1º', { unit: 'match', verdict: 'valid', action: 'accept', validated: 'unit' }],
    ['two shops\' units ask for no flat', ['1', 'A'], undefined, { verdict: 'valid', action: 'accept', validated: 'house' }],
  ] as Row[])('%s', async (_rule, units, typed, expected) => {
    const ask = answeringEngine({ local: [{ ...house(units), unitsPartial: true }] });
    const answer = await ask({ components: { ...HOUSE, ...(typed ? { unit: typed } : {}) } });
    expect(answer.components.unit).toBe(expected.unit);
    expect(answer).toMatchObject({ verdict: expected.verdict, action: expected.action, granularity: { validated: expected.validated } });
  });
});
