import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { labelMatcher, labelMatches } from '../../src/address/label-matches.js';

/** The marked parts of the label, as the widget would show them in bold. */
function marked(query: string, label: string, country?: string): string[] {
  return labelMatches(query, label, country).map((m) => label.slice(m.offset, m.offset + m.length));
}

// Issue 35: `matches` are UTF-16 ranges of the label (as Google's matchedSubstrings), marking what a person sees as matched.
describe('labelMatches', () => {
  it.each([
    // typed, label, country, marked
    ['Muhlenweg 5', 'Mühlenweg 56, 10000 Oberbach', 'DE', ['Mühlenweg', '5']],
    ['56 muehlenweg', 'Mühlenweg 56, 10000 Oberbach', 'DE', ['Mühlenweg', '56']],
    ['sao paulo', 'Rua São Paulo 1, São Paulo', 'BR', ['São', 'Paulo']],
    ['Hauptstr 5', 'Hauptstraße 5, 10115 Berlin', 'DE', ['Hauptstr', '5']],
    ['hauptstrasse 5', 'Hauptstr. 5, 10115 Berlin', 'DE', ['Hauptstr', '5']],
    ['str', 'Straße des 17. Juni 5, 10623 Berlin', 'DE', ['Str']],
    ['10 downing rd', '10 Downing Road, London SW1A 2AA', 'GB', ['10', 'Downing', 'Road']],
    ['Baaderstr 22 whg 5', 'Baaderstraße 22 Whg. 5, 80469 München', 'DE', ['Baaderstr', '22', 'Whg', '5']],
    ['1932 eastern ave apt 3b', '1932 Eastern Avenue Apt 3B, Baltimore, MD 21231', 'US', ['1932', 'Eastern', 'Ave', 'Apt', '3B']],
    ['1012lg', 'Damrak 1, 1012 LG Amsterdam', 'NL', ['1012', 'LG']],
    ['friedrich str', 'Friedrichstraße 12, 10117 Berlin', 'DE', ['Friedrich', 'str']],
  ])('%s in %s', (typed, label, country, expected) => {
    expect(marked(typed, label, country)).toEqual(expected);
  });

  it('marks the same word where each label of a list has it (a street word first in one, a town word later in the next)', () => {
    const match = labelMatcher('berg', 'DE');
    const labels = ['Berg 5, 80331 Bergen', 'Hauptstraße 5, 80331 Berg', 'Bergweg 2, 80331 München', 'Hauptstraße 7, 80331 Berg'];
    expect(labels.map((label) => match(label).map((m) => label.slice(m.offset, m.offset + m.length)))).toEqual([['Berg'], ['Berg'], ['Berg'], ['Berg']]);
    expect(labels.map((label) => match(label))).toEqual(labels.map((label) => labelMatches('berg', label, 'DE')));
    expect(match(labels[1]!)).toEqual([{ offset: 21, length: 4 }]);
  });

  it('reads a word by the languages of the label\'s country, whichever country read it before', () => {
    // Words' shapes and expansions are kept per set of languages: `St` is `Street` in English only,
    // `Hauptstr.` is `Hauptstrasse` in German only.
    for (let round = 0; round < 2; round++) {
      expect(marked('Main Street', 'Main St 1, Springfield', 'US')).toEqual(['Main', 'St']);
      expect(marked('Main Street', 'Main St 1, Springfield', 'DE')).toEqual(['Main']);
      expect(marked('hauptstrasse', 'Hauptstr. 1, 10115 Berlin', 'DE')).toEqual(['Hauptstr']);
      expect(marked('hauptstrasse', 'Hauptstr. 1, 10115 Berlin', 'US')).toEqual([]);
    }
  });

  it('marks a typed number as itself, not as the start of a longer number', () => {
    expect(labelMatches('Damrak 10', 'Damrak 10, 1012 LG Amsterdam', 'NL')).toEqual([
      { offset: 0, length: 6 },
      { offset: 7, length: 2 },
    ]);
  });

  it('counts in UTF-16 code units: a decomposed ü and an astral character before the match move the offsets', () => {
    const decomposed = 'Mu\u0308hlenweg 5';
    expect(labelMatches('muhlenweg', decomposed, 'DE')).toEqual([{ offset: 0, length: 10 }]);
    const astral = '𝔸 Hauptstraße 5';
    expect(labelMatches('haupt', astral, 'DE')).toEqual([{ offset: 3, length: 5 }]);
  });

  it('covers the whole ß when a typed s stops inside it, and never marks it twice', () => {
    expect(marked('gros', 'Große Straße 1', 'DE')).toEqual(['Groß']);
    expect(labelMatches('gros se', 'Große Straße 1', 'DE')).toEqual([{ offset: 0, length: 5 }]);
  });

  it('marks nothing for words the label does not have, and each label word at most once', () => {
    expect(labelMatches('Kerkstraat', 'Damrak 1, 1012 LG Amsterdam', 'NL')).toEqual([]);
    expect(marked('1 1', 'Damrak 1, 1012 LG Amsterdam', 'NL')).toEqual(['1', '1']);
  });
});

describe('labelMatches on any text', () => {
  it('gives sorted, non-overlapping ranges inside the label, whatever is typed', () => {
    const text = fc.string({ unit: fc.constantFrom('a', 'e', 'g', 'ü', 'u\u0308', 'ß', 's', 'S', '1', ' ', ',', '.', '-', '𝔸', 'Ø', 'İ', 'ǆ'), maxLength: 24 });
    fc.assert(
      fc.property(text, text, fc.constantFrom(undefined, 'DE', 'NL', 'GB', 'DK'), (query, label, country) => {
        const matches = labelMatches(query, label, country);
        let end = 0;
        for (const m of matches) {
          expect(m.length).toBeGreaterThanOrEqual(1);
          expect(m.offset).toBeGreaterThanOrEqual(end);
          end = m.offset + m.length;
          expect(end).toBeLessThanOrEqual(label.length);
        }
      }),
      { numRuns: 2000 },
    );
  });
});
