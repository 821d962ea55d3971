import { describe, expect, it } from 'vitest';
import { splitTrailingCountry } from '../../src/demo/trailing-country.js';

describe('demo country', () => {
  it('defaults to the Netherlands', () => {
    expect(splitTrailingCountry('Damrak 1, Amsterdam')).toEqual({ query: 'Damrak 1, Amsterdam' });
  });

  it.each([
    ['Unter den Linden 77, Berlin, DE', 'Unter den Linden 77, Berlin', 'DE'],
    ['Rue de Rivoli 99, Paris,fr', 'Rue de Rivoli 99, Paris', 'FR'],
    ['10 Downing Street, London, GB  ', '10 Downing Street, London', 'GB'],
    ['Damrak 1, Amsterdam, NL', 'Damrak 1, Amsterdam', 'NL'],
  ])('honours a trailing ISO code: %s', (text, query, country) => {
    expect(splitTrailingCountry(text)).toEqual({ query, country });
  });

  it('keeps two letters that are no ISO country as part of the query', () => {
    expect(splitTrailingCountry('Hoofdstraat 1, Utrecht, XX')).toEqual({ query: 'Hoofdstraat 1, Utrecht, XX' });
    expect(splitTrailingCountry('Hoofdstraat 1, Utrecht, EU')).toEqual({ query: 'Hoofdstraat 1, Utrecht, EU' });
  });

  it('does not read the letters of a Dutch postcode as a country', () => {
    // AD is Andorra, but `3011 AD` is a Rotterdam postcode.
    expect(splitTrailingCountry('Coolsingel 40, 3011 AD')).toEqual({ query: 'Coolsingel 40, 3011 AD' });
    expect(splitTrailingCountry('Coolsingel 40 3011 AD')).toEqual({ query: 'Coolsingel 40 3011 AD' });
  });

  it('needs an address before the code', () => {
    expect(splitTrailingCountry('DE')).toEqual({ query: 'DE' });
    expect(splitTrailingCountry(', DE')).toEqual({ query: ', DE' });
  });
});
