import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { foldCase, foldLetters } from '../../src/address/text.js';

/** The whole fold, without the ASCII shortcut foldCase takes: what it must always equal. */
const fullFold = (s: string) => foldLetters(s.toLowerCase());

describe('foldCase', () => {
  it('folds case, diacritics and the letters decomposition keeps', () => {
    expect(foldCase('Champs-Élysées')).toBe('champs-elysees');
    expect(foldCase('Hauptstraße')).toBe('hauptstrasse');
    expect(foldCase('Øster Allé')).toBe('oster alle');
    expect(foldCase('DAMRAK 1')).toBe('damrak 1');
    // The Kelvin sign lower-cases to an ASCII k: the shortcut must still give the full fold's answer.
    expect(foldCase('\u212Aerkstraat')).toBe('kerkstraat');
  });

  it('gives the full fold\'s answer for any text, ASCII or not', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (s) => foldCase(s) === fullFold(s)), { numRuns: 5000 });
    fc.assert(fc.property(fc.string({ maxLength: 40 }), (s) => foldCase(s) === fullFold(s)), { numRuns: 2000 });
  });
});
