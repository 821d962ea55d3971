import { describe, expect, it } from 'vitest';
import type { ComponentField } from '../../src/contract/address.js';
import { compareCityWithPlaces, compareComponent, requiredComponents } from '../../src/address/compare.js';

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
  // issue 15: diacritics and their digraphs, both ways, per language
  ['city', 'Kobenhavn V', 'København V', 'DK', 'match'],
  ['city', 'Koebenhavn V', 'København V', 'DK', 'match'],
  ['street', 'Aaboulevard', 'Åboulevard', 'DK', 'match'],
  ['street', 'Soendre Fasanvej', 'Søndre Fasanvej', 'DK', 'match'],
  ['city', 'Dragor', 'Dragør', 'DK', 'match'],
  ['city', 'Muenchen', 'München', 'DE', 'match'],
  ['city', 'Munchen', 'München', 'DE', 'match'],
  ['street', 'Muellerstrasse', 'Müllerstraße', 'DE', 'match'],
  ['street', 'Schlossstr.', 'Schloßstraße', 'DE', 'match'],
  ['street', 'Praca do Comercio', 'Praça do Comércio', 'PT', 'match'],
  ['city', 'Geneve', 'Genève', 'CH', 'match'],
  // street-type and prefix abbreviations as each country writes them
  ['street', 'Sdr. Boulevard', 'Sønder Boulevard', 'DK', 'match'],
  ['street', 'Sdr. Fasanvej', 'Søndre Fasanvej', 'DK', 'match'],
  ['street', 'Gl. Kongevej', 'Gammel Kongevej', 'DK', 'match'],
  ['street', 'Skt. Peders Stræde', 'Sankt Peders Stræde', 'DK', 'match'],
  ['street', 'St. Kongensgade', 'Store Kongensgade', 'DK', 'match'],
  ['street', 'Frederiksberg Alle', 'Frederiksberg Allé', 'DK', 'match'],
  ['street', 'Gedempte Oude Gr.', 'Gedempte Oude Gracht', 'NL', 'match'],
  ['street', '2e Helmersstr.', 'Tweede Helmersstraat', 'NL', 'match'],
  ['street', 'St. Jacobsstraat', 'Sint Jacobsstraat', 'NL', 'match'],
  ['street', 'R. Augusta', 'Rua Augusta', 'PT', 'match'],
  ['street', 'Av. da Liberdade', 'Avenida da Liberdade', 'PT', 'match'],
  ['street', 'Lg. do Chiado', 'Largo do Chiado', 'PT', 'match'],
  ['street', 'N Michigan Ave', 'North Michigan Avenue', 'US', 'match'],
  ['street', 'Peachtree St NE', 'Peachtree Street Northeast', 'US', 'match'],
  ['houseNumber', '12hs', '12-H', 'NL', 'match'],
  ['houseNumber', '12 H', '12-H', 'NL', 'match'],
  ['houseNumber', '12 II', '12-2', 'NL', 'match'],
  ['houseNumber', '231 - 3', '231-3', 'NL', 'match'],
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
  ['street', 'Pennsylvania Avenue', 'Pennsylvania Avenue Northwest', 'US', 'corrected'],
  ['street', 'Bahnhofstrae', 'Bahnhofstraße', 'DE', 'corrected'],
  ['postcode', '1021 LG', '1012 LG', 'NL', 'corrected'],
  ['postcode', '9947', '9497', 'LI', 'corrected'],
  ['city', 'København', 'København V', 'DK', 'corrected'],
  // conflicts → mismatch
  ['street', 'Nieuwe Binnenweg', 'Binnenweg', 'NL', 'mismatch'],
  ['street', 'Begstrasse', 'Hagstrasse', 'LI', 'mismatch'], // two edits, both in the three letters that name it
  ['street', 'Begstrasse', 'Bergstrasse', 'LI', 'corrected'],
  ['street', 'Binnenweg', 'Nieuwe Binnenweg', 'NL', 'mismatch'],
  ['street', 'North Main Street', 'South Main Street', 'US', 'mismatch'],
  ['street', 'Downing Street London', 'Downing Street', 'GB', 'mismatch'],
  ['street', 'Baker Road', 'Baker Street', 'GB', 'mismatch'],
  ['street', 'Koelweg', 'Kolweg', 'NL', 'corrected'], // a typo's distance, not a digraph: Dutch oe is a vowel
  ['houseNumber', '12 hs', '12-2', 'NL', 'mismatch'],
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

describe('compareCityWithPlaces: a town written as any place the result names', () => {
  const places = ['Rotenboden', 'Triesenberg'];
  it.each<[string, 'match' | 'corrected' | 'mismatch', string | undefined]>([
    ['Triesenberg', 'match', 'Triesenberg'],
    ['rotenboden', 'match', 'Rotenboden'],
    ['Triesenbrg', 'corrected', 'Triesenberg'],
    ['Vaduz', 'mismatch', undefined],
  ])('%s → %s', (city, verdict, place) => {
    expect(compareCityWithPlaces(city, places, 'LI')).toEqual({ verdict, ...(place ? { place } : {}) });
  });
});

describe('verdicts are the same whatever was compared before (street and town verdicts are memoized)', () => {
  it('gives the table its verdicts again, in the other order', () => {
    for (const [field, input, result, country, expected] of [...rows].reverse()) {
      expect(compareComponent(field, input, result, country)).toBe(expected);
    }
  });

  it('keeps apart comparisons whose strings run together alike', () => {
    expect(compareComponent('street', 'Kalverstraat', 'Kalverstraat', 'NL')).toBe('match');
    expect(compareComponent('street', 'Kalverstraa', 'tKalverstraat', 'NL')).toBe('corrected');
    expect(compareComponent('street', 'Hauptstr.', 'Hauptstraße', 'DE')).toBe('match');
    expect(compareComponent('street', 'Hauptstr.', 'Hauptstraße', 'NL')).toBe('mismatch');
  });

  it("names a town more precisely only for the result's own town, asked either way round", () => {
    expect(compareCityWithPlaces('London', ['City of London'], 'GB', 'Westminster')).toEqual({ verdict: 'mismatch' });
    expect(compareCityWithPlaces('London', ['City of London'], 'GB', 'City of London')).toEqual({ verdict: 'corrected', place: 'City of London' });
    expect(compareCityWithPlaces('London', ['City of London'], 'GB', 'Westminster')).toEqual({ verdict: 'mismatch' });
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
