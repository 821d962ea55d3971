import { describe, expect, it } from 'vitest';
import type { ComponentField } from '../../src/contract/address.js';
import { compareComponent, requiredComponents } from '../../src/address/compare.js';

type Row = [field: ComponentField, input: string, result: string, country: string | undefined, expected: 'match' | 'corrected' | 'mismatch'];

const rows: Row[] = [
  // formatting only → match
  ['street', 'keizersgr.', 'Keizersgracht', 'NL', 'match'],
  ['street', 'Friedrich Straße', 'Friedrichstraße', 'DE', 'match'],
  ['street', 'Hauptstr.', 'Hauptstraße', undefined, 'match'],
  ['street', 'BAKER ST', 'Baker Street', 'GB', 'match'],
  ['street', 'Pres. Kennedylaan', 'President Kennedylaan', 'NL', 'match'], // listed abbreviation
  ['street', 'Champs-Elysees Av.', 'Champs Élysées Avenue', 'US', 'match'],
  ['city', 'AMSTERDAM', 'Amsterdam', 'NL', 'match'],
  ['city', 'St. Albans', 'Saint Albans', 'GB', 'match'],
  ['postcode', '1012lg', '1012 LG', 'NL', 'match'],
  ['postcode', 'sw1a2aa', 'SW1A 2AA', 'GB', 'match'],
  ['postcode', '20500', '20500-0003', 'US', 'match'],
  ['houseNumber', '12 B', '12b', 'NL', 'match'],
  ['houseNumber', '2/B', '2B', undefined, 'match'],
  ['houseNumber', '12 bis', '12bis', 'FR', 'match'],
  ['country', 'uk', 'GB', undefined, 'match'],
  ['state', 'NY', 'New York', 'US', 'match'],
  // recognisably the same → corrected
  ['street', 'Damrk', 'Damrak', 'NL', 'corrected'],
  ['street', 'Keizergracht', 'Keizersgracht', 'NL', 'corrected'],
  ['street', 'Champs Elysees', 'Avenue des Champs-Élysées', 'FR', 'corrected'],
  ['street', 'Joh. Verhulststraat', 'Johannes Verhulststraat', 'NL', 'corrected'],
  ['city', 'Den Haag', "'s-Gravenhage", 'NL', 'corrected'],
  ['city', 'Munich', 'München', 'DE', 'corrected'],
  ['city', 'Amsterdm', 'Amsterdam', 'NL', 'corrected'],
  ['postcode', '1012', '1012 LG', 'NL', 'corrected'],
  ['postcode', '10177', '10117', 'DE', 'corrected'],
  // conflicts → mismatch
  ['street', 'Dam', 'Damrak', 'NL', 'mismatch'],
  ['street', 'Kalverstraat', 'Damrak', 'NL', 'mismatch'],
  ['street', 'Baker Street', 'Oxford Street', 'GB', 'mismatch'],
  ['city', 'Rotterdam', 'Amsterdam', 'NL', 'mismatch'],
  ['postcode', '1012 LG', '3011 AB', 'NL', 'mismatch'],
  ['houseNumber', '12', '12B', 'NL', 'mismatch'],
  ['houseNumber', '12-2', '12B', 'NL', 'mismatch'],
  ['houseNumber', '12', '13', undefined, 'mismatch'],
  ['houseNumber', '12 bis', '12 ter', 'FR', 'mismatch'],
  ['country', 'NL', 'BE', undefined, 'mismatch'],
];

describe('compareComponent', () => {
  it.each(rows)('%s: %s vs %s (%s) → %s', (field, input, result, country, expected) => {
    expect(compareComponent(field, input, result, country)).toBe(expected);
  });

  it('never fuzzy-matches house numbers', () => {
    expect(compareComponent('houseNumber', '123', '132', 'NL')).toBe('mismatch');
    expect(compareComponent('houseNumber', '1234', '1243', 'NL')).toBe('mismatch');
  });
});

describe('requiredComponents', () => {
  it('requires a postcode where the country has a postcode system', () => {
    for (const country of ['NL', 'DE', 'FR', 'GB', 'US']) {
      expect(requiredComponents(country)).toEqual(['street', 'houseNumber', 'postcode', 'city']);
    }
  });

  it('does not require a postcode when the country is unknown', () => {
    expect(requiredComponents(undefined)).toEqual(['street', 'houseNumber', 'city']);
  });
});
