import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addressReader, parseAddress, type ReadHints } from '../../src/address/parse.js';

/**
 * addressReader prepares a text once and reads it against each candidate result's hints (the
 * engine's readings, issue 19): every reading must be the one parseAddress gives for the same
 * text, country and hints read from scratch, whatever readings came before it on the same reader.
 */
type Case = [text: string, country: string | undefined, hints: ReadHints[]];

const cases: Case[] = [
  // hints that only weigh the postcode and the town
  ['Rozenstraat 45, 6320 SV Vlaarzand', 'NL', [{ streets: ['Rozenstraat'], places: ['Vlaarzand'], postcodes: ['6320 SV'] }, {}]],
  ['Tulpenweg 5, 2941 SS Alkveen', 'NL', [{ streets: ['Tulpenweg'], places: ['Alkveen'], postcodes: ['2941 SS'] }]],
  ['frederiksberg allé 1 1820 frederiksberg c', 'DK', [{ streets: ['Frederiksberg Allé'], places: ['Frederiksberg C', 'Frederiksberg'] }, { places: ['København V'] }]],
  ['Vesterbrogade 12 1620 København V', 'DK', [{ streets: ['Vesterbrogade'], places: ['København V'], postcodes: ['1620'] }, { streets: ['Vesterbrogade'], postcodes: ['1621'] }]],
  ['1620 København V Vesterbrogade 12', undefined, [{ streets: ['Vesterbrogade'], places: ['København V', 'København'] }]],
  ['Rossbodastrasse 6 Triesenberg', 'LI', [{ streets: ['Rossbodastrasse'], places: ['Rotenboden', 'Triesenberg'] }]],
  ['10 downing street london', 'GB', [{ streets: ['Downing Street'], places: ['London'] }, { streets: ['Downing Street'], places: ['City of Westminster'] }]],
  ['100 deansgate manchester m3 2gp', 'GB', [{ streets: ['Deansgate'], places: ['Manchester'], postcodes: ['M3 2GP'] }]],
  ['Damrak 1, 1012 LG Amsterdam', undefined, [{ streets: ['Damrak'], places: ['Amsterdam'], postcodes: ['1012 LG'] }, { postcodes: ['1012 LH'] }]],
  // the text names its country: a street that may hold the name gets a reading of its own
  ['75007 Paris, 5 Avenue Anatole France', 'FR', [{ streets: ['Avenue Anatole France'], places: ['Paris'] }, { places: ['Paris'] }]],
  ['5 Avenue Anatole France', undefined, [{ streets: ['Avenue Anatole France'] }, {}, { streets: ['Rue de France'] }]],
  ['Damrak 1 Amsterdam Nederland', undefined, [{ streets: ['Damrak'], places: ['Amsterdam'] }]],
  // numbers inside a known street's name
  ['Avenue du 8 Mai 1945 3, 69008 Lyon', 'FR', [{}, { streets: ['Avenue du 8 Mai 1945'], places: ['Lyon'] }, { streets: ['Avenue du 8 Mai'] }]],
  ['avenida 24 de julho 2 1200-480 lisboa', 'PT', [{ streets: ['Avenida 24 de Julho'], places: ['Lisboa'], postcodes: ['1200-480'] }, {}]],
  ['Carrer 1 de Maig 4, AD500 Andorra la Vella', 'AD', [{ streets: ['Carrer 1 de Maig'] }, { places: ['Andorra la Vella'] }]],
  // units, states, no house number
  ['123 Main St Apt 4B, Springfield IL 62701', undefined, [{ streets: ['Main Street'], places: ['Springfield'], postcodes: ['62701'] }]],
  ['Vesterbrogade 12, 2. tv, 1620 København V', 'DK', [{ streets: ['Vesterbrogade'], places: ['København V'] }]],
  ['Unter den Linden, Berlin', undefined, [{ streets: ['Unter den Linden'], places: ['Berlin'] }, { places: ['Mitte'] }]],
];

describe('addressReader', () => {
  it.each(cases)('%s (%s): each reading is parseAddress with the same hints', (text, country, hintSets) => {
    const read = addressReader(text, country ? { country } : {});
    const opts = country ? { country } : {};
    expect(read()).toEqual(parseAddress(text, opts));
    for (const hints of hintSets) expect(read(hints)).toEqual(parseAddress(text, { ...opts, hints }));
    // Again, in the other order: a reading never depends on the ones before it.
    for (const hints of [...hintSets].reverse()) expect(read(hints)).toEqual(parseAddress(text, { ...opts, hints }));
  });

  it('gives parseAddress readings for any text and any sequence of hints', () => {
    const words = ['Damrak', 'straat', 'Str.', '12', '12B', '12 b', '2/B', 'hs', '1012', 'LG', '1620', 'København', 'V', 'NL', 'dk', 'Apt', '#4', '2.', 'tv', 'SW1A', '2AA', 'DC', 'Nederland', 'France', 'Avenue', '8', 'Mai', '1945', 'St', ',', 'de', 'Amsterdam'];
    const typed = fc.array(fc.constantFrom(...words), { maxLength: 12 }).map((w) => w.join(' '));
    const country = fc.option(fc.constantFrom('NL', 'DK', 'GB', 'US', 'FR', 'PT'), { nil: undefined });
    const hints = fc.record(
      {
        streets: fc.array(fc.constantFrom('Damrak', 'Vesterbrogade', 'Avenue du 8 Mai 1945', 'Avenue de France', 'Damstraat')),
        places: fc.array(fc.constantFrom('København V', 'Amsterdam', 'Nederland', 'LG')),
        postcodes: fc.array(fc.constantFrom('1012 LG', '1620', 'SW1A 2AA', '1945')),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(typed, country, fc.array(hints, { minLength: 1, maxLength: 4 }), (text, cc, hintSets) => {
        const opts = cc ? { country: cc } : {};
        const read = addressReader(text, opts);
        for (const h of hintSets) expect(read(h)).toEqual(parseAddress(text, { ...opts, hints: h }));
      }),
      { numRuns: 500, seed: 19 },
    );
  });
});
