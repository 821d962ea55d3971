import { describe, expect, it } from 'vitest';
import { currentLayout, RESULT_COLUMNS, resultFields } from '../../src/cli/bulk/output.js';
import type { ValidateResponse } from '../../src/contract/validate.js';

/** `--resume` of a journal an earlier version wrote: its rows come out in today's columns. */
describe('currentLayout', () => {
  const at = (fields: string[], column: (typeof RESULT_COLUMNS)[number]) => fields[RESULT_COLUMNS.indexOf(column)];
  const before27 = ['valid', '97', '', 'Damrak', '1', '1012 LG', 'Amsterdam', '', 'NL', '52.37', '4.89', 'local', '', 'yes'];

  it('leaves issue 27 columns empty for rows journaled before them', () => {
    const row = currentLayout(before27);
    expect(row).toHaveLength(RESULT_COLUMNS.length);
    expect(row.slice(0, before27.length)).toEqual(before27);
    expect([at(row, 'unit'), at(row, 'formatted'), at(row, 'action'), at(row, 'granularity')]).toEqual(['', '', '', '']);
  });

  it('still adds `verified` to rows journaled before it', () => {
    const row = currentLayout([...before27.slice(0, -2), 'no provider answered: not verified']);
    expect(row).toHaveLength(RESULT_COLUMNS.length);
    expect(at(row, 'verified')).toBe('no');
    expect(at(row, 'action')).toBe('');
  });

  it('leaves issue 34\'s `inferred` empty for rows journaled before it', () => {
    const before34 = [...before27, 'Apt 2', 'Damrak 1 Apt 2, 1012 LG Amsterdam', 'accept', 'house'];
    const row = currentLayout(before34);
    expect(row.slice(0, before34.length)).toEqual(before34);
    expect(at(row, 'inferred')).toBe('');
  });

  it('keeps a row of today\'s layout as it is', () => {
    const today = [...before27, 'Apt 2', 'Damrak 1 Apt 2, 1012 LG Amsterdam', 'accept', 'house', 'postcode'];
    expect(currentLayout(today)).toBe(today);
  });

  it('writes what the data derived as address.inferred joined by |', () => {
    const response: ValidateResponse = {
      verdict: 'correctable',
      confidence: 86,
      address: {
        street: 'Wangerbergstrasse', houseNumber: '64', postcode: '9497', city: 'Triesenberg', country: 'LI', lat: 47.118, lng: 9.545,
        lines: ['Wangerbergstrasse 64', '9497 Triesenberg'], formatted: 'Wangerbergstrasse 64, 9497 Triesenberg', inferred: ['city', 'postcode'],
      },
      components: { street: 'match', houseNumber: 'match', postcode: 'missing', city: 'missing', country: 'match' },
      provider: 'local',
      reasons: ['components_incomplete'],
      consensus: { status: 'single-provider', score: null, baseConfidence: 86, confidenceDelta: 0, supportingProviders: ['local'], conflictingProviders: [], disagreements: [] },
      granularity: { input: 'house', validated: 'house', geocode: 'house' },
      action: 'confirm',
      unresolved: [],
      alternatives: [],
      cached: false,
      responseId: '',
    };
    const row = resultFields(response);
    expect(at(row, 'inferred')).toBe('city|postcode');
    expect(at(row, 'formatted')).toBe('Wangerbergstrasse 64, 9497 Triesenberg');
    expect(at(resultFields({ ...response, address: { ...response.address!, inferred: [] } }), 'inferred')).toBe('');
  });
});
