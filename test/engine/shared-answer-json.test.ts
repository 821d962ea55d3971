import { describe, expect, it } from 'vitest';
import { responseJson, withSharedField, withSharedPart } from '../../src/engine/shared-answer-json.js';

describe('a response made of a shared answer and its call\'s own fields', () => {
  const shared = {
    verdict: 'valid',
    confidence: 97,
    address: { street: 'Damrak', houseNumber: '1', postcode: '1012 LG', city: 'Amsterdam', country: 'NL', inferred: [] },
    postalLines: ['Damrak 1', '1012 LG Amsterdam'],
    note: 'quote " backslash \\ newline \n ü 🏠',
    missing: undefined,
  };

  it('is the text JSON.stringify gives the whole, hit after hit', () => {
    for (const own of [{ cached: true, responseId: 'rsp_abc' }, { cached: true, responseId: 'rsp_"x"' }, { cached: false }, {}]) {
      const response = withSharedPart(shared, own);
      expect(response).toEqual({ ...shared, ...own });
      expect(responseJson(response)).toBe(JSON.stringify({ ...shared, ...own }));
      // The shared part's text is kept, the own fields are the call's.
      expect(responseJson(response)).toBe(JSON.stringify({ ...shared, ...own }));
    }
    expect(responseJson(withSharedPart({}, { cached: true }))).toBe('{"cached":true}');
  });

  it('a call field that is also a shared key takes the shared key\'s place, as a spread does', () => {
    const response = withSharedPart({ cached: false, verdict: 'valid' }, { cached: true, responseId: 'rsp_1' });
    expect(responseJson(response)).toBe(JSON.stringify({ cached: true, verdict: 'valid', responseId: 'rsp_1' }));
  });

  it('the shared part as one field (an autocomplete\'s suggestions) is the text JSON.stringify gives', () => {
    const suggestions = [{ label: 'Damrak 1, 1012 LG Amsterdam', provider: 'local', address: { street: 'Damrak' } }];
    for (const own of [{ cached: true, sessionToken: null }, { cached: false, sessionToken: 'tok"1' }, {}]) {
      const response = withSharedField('suggestions', suggestions, own);
      expect(response).toEqual({ suggestions, ...own });
      expect(responseJson(response)).toBe(JSON.stringify({ suggestions, ...own }));
    }
    expect(responseJson(withSharedField('suggestions', [], { cached: true }))).toBe('{"suggestions":[],"cached":true}');
    // An own field of the same name wins, as in an object literal, and the response is written whole.
    expect(responseJson(withSharedField('suggestions', suggestions, { suggestions: [] }))).toBe('{"suggestions":[]}');
  });

  it('any other object is written whole', () => {
    expect(responseJson({ ...shared, cached: true })).toBe(JSON.stringify({ ...shared, cached: true }));
  });
});
