import { describe, expect, it } from 'vitest';
import { editDistance, isTypoOf, maxEdits, prefixDistance } from '../../src/local-index/fuzzy.js';
import { Vocabulary } from '../../src/local-index/store/vocabulary.js';

describe('typo tolerance', () => {
  it.each([
    ['damrak', 'damrk', 1],
    ['damrak', 'darmak', 1],
    ['keizersgracht', 'kiezersgracht', 1],
    ['keizersgracht', 'keizrsgrcht', 2],
    ['kerkstraat', 'kerkstraat', 0],
  ])('edit distance %s ~ %s = %i', (a, b, d) => {
    expect(editDistance(a, b, 3)).toBe(d);
  });

  it('gives up past the limit and measures prefixes against the closest prefix', () => {
    expect(editDistance('amsterdam', 'rotterdam', 1)).toBe(2);
    expect(prefixDistance('keizr', 'keizersgracht', 1)).toBe(1);
    expect(prefixDistance('keiz', 'keizersgracht', 1)).toBe(0);
  });

  it('allows no typo in short words, one in medium, two in long ones', () => {
    expect([3, 4, 7, 8].map(maxEdits)).toEqual([0, 1, 1, 2]);
    expect(isTypoOf('dam', 'ham', false)).toBe(false);
    expect(isTypoOf('damrk', 'damrak', false)).toBe(true);
    expect(isTypoOf('damrk', 'damstraat', false)).toBe(false);
    expect(isTypoOf('keizrsgr', 'keizersgracht', true)).toBe(true);
  });

  it('finds typo candidates in the vocabulary, never the word itself', () => {
    const v = new Vocabulary(['damrak', 'damstraat', 'dam', 'keizersgracht', 'kerkstraat', 'amsterdam']);
    expect(v.fuzzy('damrk', false)).toEqual(['damrak']);
    expect(v.fuzzy('kerkstrat', false)).toEqual(['kerkstraat']);
    expect(v.fuzzy('kiezersgr', true)).toEqual(['keizersgracht']);
    expect(v.fuzzy('amsterdam', false)).toEqual([]);
    expect(v.hasPrefix('keiz')).toBe(true);
    expect(v.hasPrefix('keiy')).toBe(false);
  });
});
