import { describe, expect, it } from 'vitest';
import { WidgetAutocompleteResponse, WidgetSuggestion } from '../../src/contract/autocomplete.js';
import { parseSuggestions } from '../../src/widget/response-guard.js';

const good = {
  id: 'svc_s_abc',
  label: 'Damrak 1, 1012 LG Amsterdam',
  provider: 'pdok',
  address: { street: 'Damrak', houseNumber: '1', postcode: '1012 LG', city: 'Amsterdam', country: 'NL' },
  type: 'address',
  matches: [{ offset: 0, length: 6 }],
};

describe('the widget reads responses exactly as the contract defines them', () => {
  it('accepts what the Zod contract accepts, with the same content', () => {
    const body = { suggestions: [good, { ...good, id: 'svc_s_2', address: {} }], sessionToken: 's', cached: false };
    expect(WidgetAutocompleteResponse.safeParse(body).success).toBe(true);
    expect(parseSuggestions(body)).toEqual(WidgetAutocompleteResponse.parse(body).suggestions);
  });

  it('reads the unit and the add_unit action as the contract defines them (issue 27)', () => {
    const withUnit = { ...good, id: 'svc_s_u', address: { ...good.address, unit: 'Apt 3B' } };
    const body = { suggestions: [withUnit, { ...good, action: 'add_unit' }], sessionToken: null, cached: false };
    expect(parseSuggestions(body)).toEqual(WidgetAutocompleteResponse.parse(body).suggestions);
    // An action of a later version is no reason to lose the address.
    expect(parseSuggestions({ suggestions: [{ ...good, action: 'call_home' }] })).toEqual([good]);
  });

  it.each([
    ['id without the svc_s_ prefix', { ...good, id: 'photon:123' }],
    ['missing label', { ...good, label: undefined }],
    ['numeric provider', { ...good, provider: 3 }],
    ['address not an object', { ...good, address: 'Damrak 1' }],
    ['empty component', { ...good, address: { street: '' } }],
    ['non-string component', { ...good, address: { houseNumber: 1 } }],
    // Issue 35: the kind and the matched parts of the label.
    ['unknown type', { ...good, type: 'house' }],
    ['missing matches', { ...good, matches: undefined }],
    ['negative offset', { ...good, matches: [{ offset: -1, length: 2 }] }],
    ['empty match', { ...good, matches: [{ offset: 0, length: 0 }] }],
    ['fractional offset', { ...good, matches: [{ offset: 0.5, length: 2 }] }],
  ])('drops a suggestion the contract rejects: %s', (_name, item) => {
    expect(WidgetSuggestion.safeParse(item).success).toBe(false);
    expect(parseSuggestions({ suggestions: [item, good], sessionToken: null, cached: false })).toEqual([good]);
  });

  it('treats a body without a suggestions array as a failure, not as "no results"', () => {
    for (const body of [null, 'x', { message: 'Widget autocomplete rate limit reached' }, { suggestions: {} }]) {
      expect(parseSuggestions(body)).toBeNull();
    }
    expect(parseSuggestions({ suggestions: [], sessionToken: null, cached: true })).toEqual([]);
  });

  it('never passes on fields the contract does not define (provider payloads stay out)', () => {
    const [s] = parseSuggestions({ suggestions: [{ ...good, raw: { osm_id: 1 }, address: { ...good.address, lat: 52 }, matches: [{ offset: 0, length: 6, text: 'Damrak' }] }] }) ?? [];
    expect(s).toEqual(good);
  });
});
