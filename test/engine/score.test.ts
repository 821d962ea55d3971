import { describe, expect, it } from 'vitest';
import type { AddressComponents } from '../../src/contract/address.js';
import { scoreCandidate } from '../../src/engine/score.js';
import type { Precision } from '../../src/providers/provider.js';

const full: AddressComponents = { street: 'Damrak', houseNumber: '1', postcode: '1012 LG', city: 'Amsterdam', country: 'NL' };

function score(input: AddressComponents, result: AddressComponents, precision: Precision = 'address', providerConfidence?: number) {
  return scoreCandidate(
    input,
    { provider: 'pdok', components: result, precision, ...(providerConfidence !== undefined ? { providerConfidence } : {}) },
    { country: 'NL' },
  );
}

describe('scoreCandidate: the confidence formula', () => {
  it.each([
    ['address', 100],
    ['street', 75],
    ['postcode', 60],
    ['locality', 45],
    ['region', 25],
    ['country', 10],
  ] as [Precision, number][])('a fully matching %s result scores %d', (precision, expected) => {
    expect(score(full, full, precision).confidence).toBe(expected);
  });

  it('blends in the provider confidence at 20 %', () => {
    expect(score(full, full, 'address', 1).confidence).toBe(100);
    expect(score(full, full, 'address', 0.5).confidence).toBe(90);
    expect(score(full, full, 'address', 0).confidence).toBe(80);
    expect(score(full, { ...full, street: 'Rokin', houseNumber: '9', postcode: '1011 AA', city: 'Zaandam', country: 'BE' }, 'address', 1).confidence).toBe(20);
  });

  it('weighs house number and street most', () => {
    const wrongNumber = score(full, { ...full, houseNumber: '3' }).confidence;
    const wrongStreet = score(full, { ...full, street: 'Rokin' }).confidence;
    const wrongPostcode = score(full, { ...full, postcode: '3011 AA' }).confidence;
    const wrongCity = score(full, { ...full, city: 'Rotterdam' }).confidence;
    const wrongCountry = score(full, { ...full, country: 'BE' }).confidence;
    expect([wrongNumber, wrongStreet, wrongPostcode, wrongCity, wrongCountry]).toEqual([70, 70, 80, 85, 95]);
  });

  it('credits a correction at 0.7 and a completed (missing) component at 0.5', () => {
    expect(score(full, { ...full, street: 'Damrk' }).confidence).toBe(91); // 100 − 30 × 0.3
    const noPostcode = { ...full };
    delete noPostcode.postcode;
    expect(score(noPostcode, full).confidence).toBe(90); // 100 − 20 × 0.5
  });

  it('takes a typed number or postcode the result lacks for a mismatch where its data knows every one (the local index)', () => {
    const input = { street: 'Damrak', houseNumber: '99', postcode: '1012 XX', city: 'Amsterdam' };
    const result = { street: 'Damrak', city: 'Amsterdam', country: 'NL' };
    const known = scoreCandidate(input, { provider: 'local', components: result, precision: 'street', houseNumbersKnown: true, postcodesKnown: true }, { country: 'NL' });
    expect(known.componentVerdicts).toEqual({ street: 'match', houseNumber: 'mismatch', postcode: 'mismatch', city: 'match' });
    // A street-level answer that cannot know (Photon, Nominatim) leaves them unchecked.
    expect(score(input, result, 'street').componentVerdicts).toEqual({ street: 'match', houseNumber: 'not-checked', postcode: 'not-checked', city: 'match' });
  });

  it('leaves not-checked components out instead of counting them against the result', () => {
    const out = score({ street: 'Damrak', houseNumber: '1', city: 'Amsterdam' }, { street: 'Damrak', city: 'Amsterdam', country: 'NL' });
    expect(out.componentVerdicts).toEqual({ street: 'match', houseNumber: 'not-checked', city: 'match' });
    expect(out.confidence).toBe(100);
  });

  it('has keys only for checked components; missing only for fields the country requires', () => {
    const out = score({ street: 'Damrak' }, { ...full, state: 'Noord-Holland' });
    expect(out.componentVerdicts).toEqual({ street: 'match', houseNumber: 'missing', postcode: 'missing', city: 'missing' });
  });

  it('gives 0 when nothing of the input could be compared', () => {
    expect(score({}, full).componentVerdicts).toEqual({ street: 'missing', houseNumber: 'missing', postcode: 'missing', city: 'missing' });
    expect(score({}, full).confidence).toBe(0);
    expect(score({ houseNumber: '1' }, { street: 'Damrak' }, 'street').confidence).toBe(0); // only not-checked + missing
  });

  it('earns nothing for a house number the input never gave', () => {
    // city 15 + street 0.5 × 30 + postcode 0.5 × 20 + house number 0 → 40 / 95
    expect(score({ city: 'Amsterdam' }, full).confidence).toBe(42);
  });

  it('keeps the candidate and returns integers in 0-100', () => {
    const out = score({ street: 'Damrak', houseNumber: '1', city: 'Amsterdam' }, full, 'street', 0.37);
    expect(out.provider).toBe('pdok');
    expect(out.components).toEqual(full);
    expect(Number.isInteger(out.confidence)).toBe(true);
    expect(out.confidence).toBeGreaterThanOrEqual(0);
    expect(out.confidence).toBeLessThanOrEqual(100);
  });

  it('counts the city as given in any place the result names, and standardizes to the one written', () => {
    const li = { street: 'Rossbodastrasse', houseNumber: '6', postcode: '9497', city: 'Rotenboden', country: 'LI' };
    const out = scoreCandidate(
      { ...li, city: 'Triesenberg' },
      { provider: 'nominatim', components: li, precision: 'address', placeNames: ['Rotenboden', 'Triesenberg'] },
      { country: 'LI' },
    );
    expect(out.componentVerdicts.city).toBe('match');
    expect(out.components.city).toBe('Triesenberg');
    expect(out.confidence).toBe(100);
    const elsewhere = scoreCandidate({ ...li, city: 'Vaduz' }, { provider: 'nominatim', components: li, precision: 'address', placeNames: ['Rotenboden', 'Triesenberg'] }, { country: 'LI' });
    expect(elsewhere.componentVerdicts.city).toBe('mismatch');
    expect(elsewhere.components.city).toBe('Rotenboden');
  });
});
