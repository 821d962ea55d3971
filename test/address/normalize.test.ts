import { describe, expect, it } from 'vitest';
import {
  isValidPostcode,
  normalizeCity,
  normalizeHouseNumber,
  normalizePostcode,
  normalizeStreet,
  normalizeText,
} from '../../src/address/normalize.js';

describe('normalizeText', () => {
  it.each([
    ['Damrak', 'damrak'],
    ['  Champs-Élysées  ', 'champs elysees'],
    ['Hauptstraße', 'hauptstrasse'],
    ["'s-Gravenhage", 's gravenhage'],
    ["O'Connell St.", 'oconnell st'],
    ['Łódź, Øresund, Æble', 'lodz oresund aeble'],
    ['Rue  du\tFaubourg   Saint-Honoré', 'rue du faubourg saint honore'],
  ])('%s → %s', (input, expected) => {
    expect(normalizeText(input)).toBe(expected);
  });
});

describe('normalizeStreet: equal streets give equal strings', () => {
  it.each([
    ['Keizersgr.', 'Keizersgracht', 'NL'],
    ['Kalverstr', 'Kalverstraat', 'NL'],
    ['Burg. de Monchyplein', 'Burgemeester de Monchyplein', 'NL'],
    ['Laan v. Meerdervoort', 'Laan van Meerdervoort', 'NL'],
    ['Hauptstr.', 'Hauptstraße', 'DE'],
    ['Karl-Marx-Str.', 'Karl-Marx-Straße', 'DE'],
    ['Marktpl.', 'Marktplatz', 'DE'],
    ['Av. des Champs-Élysées', 'Avenue des Champs Elysees', 'FR'],
    ['Bd Saint-Germain', 'Boulevard St-Germain', 'FR'],
    ['R. de Rivoli', 'Rue de Rivoli', 'FR'],
    ['Baker St', 'Baker Street', 'GB'],
    ['St John St', 'Saint John Street', 'GB'],
    ['Pennsylvania Ave NW', 'Pennsylvania Avenue Northwest', 'US'],
    ['5th Ave', 'Fifth Avenue', 'US'],
    ['Keizersgr.', 'Keizersgracht', undefined],
    ['Main St', 'Main Street', undefined],
  ])('%s = %s (%s)', (a, b, country) => {
    expect(normalizeStreet(a, country)).toBe(normalizeStreet(b, country));
  });

  it('expands to the full canonical word', () => {
    expect(normalizeStreet('Keizersgr.', 'NL')).toBe('keizersgracht');
    expect(normalizeStreet('Hauptstr.', 'DE')).toBe('hauptstrasse');
    expect(normalizeStreet('Baker St', 'GB')).toBe('baker street');
    expect(normalizeStreet('Av. Foch', 'FR')).toBe('avenue foch');
  });

  it('keeps different streets different', () => {
    expect(normalizeStreet('Damrak', 'NL')).not.toBe(normalizeStreet('Rokin', 'NL'));
    expect(normalizeStreet('Unter den Linden', 'DE')).toBe('unter den linden');
    // `St` is Saint where it does not stand in the street-type position.
    expect(normalizeStreet('St Mary Road', 'GB')).toBe('saint mary road');
  });
});

describe('normalizeCity', () => {
  it.each([
    ['St. Albans', 'Saint Albans', 'GB'],
    ['St-Denis', 'Saint-Denis', 'FR'],
    ['St. Gallen', 'Sankt Gallen', 'CH'],
    ['MÜNCHEN', 'München', 'DE'],
  ])('%s = %s', (a, b, country) => {
    expect(normalizeCity(a, country)).toBe(normalizeCity(b, country));
  });
});

describe('normalizePostcode', () => {
  it.each([
    ['1012lg', undefined, '1012 LG'],
    ['1012 lg', 'NL', '1012 LG'],
    ['1012LG', 'NL', '1012 LG'],
    ['sw1a2aa', undefined, 'SW1A 2AA'],
    ['sw1a 2aa', 'GB', 'SW1A 2AA'],
    ['nw16xe', 'GB', 'NW1 6XE'],
    ['10117', 'DE', '10117'],
    ['D-10117', 'DE', '10117'],
    ['75008', undefined, '75008'],
    ['205000003', 'US', '20500-0003'],
    ['k1a0b1', 'CA', 'K1A 0B1'],
  ])('%s (%s) → %s', (input, country, expected) => {
    expect(normalizePostcode(input, country)).toBe(expected);
  });
});

describe('isValidPostcode', () => {
  it.each([
    ['1012 LG', 'NL', true],
    ['1012lg', 'NL', true],
    ['0123 AB', 'NL', false], // first digit is never 0
    ['1234 SA', 'NL', false], // SA, SD, SS are not issued
    ['1234 SS', 'NL', false],
    ['1234 sd', 'NL', false],
    ['1234', 'NL', false],
    ['10117', 'DE', true],
    ['1011', 'DE', false],
    ['75008', 'FR', true],
    ['SW1A 2AA', 'GB', true],
    ['sw1a2aa', 'GB', true],
    ['SW1A', 'GB', false],
    ['20500', 'US', true],
    ['20500-0003', 'US', true],
    ['2050', 'US', false],
  ])('%s in %s → %s', (postcode, country, expected) => {
    expect(isValidPostcode(postcode, country)).toBe(expected);
  });
});

describe('normalizeHouseNumber: exact comparison form', () => {
  it.each([
    ['12 B', '12b'],
    ['12b', '12b'],
    ['12-B', '12b'],
    ['2/B', '2b'],
    ['12-2', '12-2'],
    ['12 2', '12-2'],
    ['123-2', '123-2'],
    ['12 bis', '12bis'],
    ['12Bis', '12bis'],
    ['12 hs', '12h'],
    ['12hs', '12h'],
    ['12-H', '12h'],
    ['12 II', '12-2'],
    ['12-III', '12-3'],
    ['12B-2', '12b-2'],
    ['12 B 2', '12b-2'],
    ['012', '12'],
  ])('%s → %s', (input, expected) => {
    expect(normalizeHouseNumber(input)).toBe(expected);
  });

  it('keeps a huisletter and a toevoeging distinct', () => {
    expect(normalizeHouseNumber('12-2')).not.toBe(normalizeHouseNumber('12b'));
    expect(normalizeHouseNumber('12')).not.toBe(normalizeHouseNumber('12b'));
    expect(normalizeHouseNumber('12 bis')).not.toBe(normalizeHouseNumber('12 ter'));
  });
});
