import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AddressComponents } from '../../src/contract/address.js';
import { parseAddress, type ReadHints } from '../../src/address/parse.js';

type Row = [text: string, country: string | undefined, expected: AddressComponents];

const NL: Row[] = [
  ['Damrak 1, 1012 LG Amsterdam', undefined, { street: 'Damrak', houseNumber: '1', postcode: '1012 LG', city: 'Amsterdam' }],
  ['Damrak 1 Amsterdam', undefined, { street: 'Damrak', houseNumber: '1', city: 'Amsterdam' }],
  ['1012LG 1', undefined, { postcode: '1012 LG', houseNumber: '1' }],
  ['Keizersgr. 123-2', 'NL', { street: 'Keizersgr.', houseNumber: '123-2' }],
  ['Keizersgracht 123 2, Amsterdam', 'NL', { street: 'Keizersgracht', houseNumber: '123 2', city: 'Amsterdam' }],
  ['Kalverstraat 12 B Amsterdam', undefined, { street: 'Kalverstraat', houseNumber: '12 B', city: 'Amsterdam' }],
  ['Kalverstraat 12B, 1012 NX Amsterdam', 'NL', { street: 'Kalverstraat', houseNumber: '12B', postcode: '1012 NX', city: 'Amsterdam' }],
  ['Laan van Meerdervoort 12 hs, Den Haag', undefined, { street: 'Laan van Meerdervoort', houseNumber: '12 hs', city: 'Den Haag' }],
  ['3e Binnenvestgracht 23, 2312 NR Leiden', undefined, { street: '3e Binnenvestgracht', houseNumber: '23', postcode: '2312 NR', city: 'Leiden' }],
  ['Damrak 1, Amsterdam, NL', undefined, { street: 'Damrak', houseNumber: '1', city: 'Amsterdam', country: 'NL' }],
  ['Damrak 1 Amsterdam Nederland', undefined, { street: 'Damrak', houseNumber: '1', city: 'Amsterdam', country: 'NL' }],
];

const DE: Row[] = [
  ['Unter den Linden 77, 10117 Berlin', undefined, { street: 'Unter den Linden', houseNumber: '77', postcode: '10117', city: 'Berlin' }],
  ['Unter den Linden 77 10117 Berlin', 'DE', { street: 'Unter den Linden', houseNumber: '77', postcode: '10117', city: 'Berlin' }],
  ['Friedrichstraße 43, 10117 Berlin, DE', undefined, { street: 'Friedrichstraße', houseNumber: '43', postcode: '10117', city: 'Berlin', country: 'DE' }],
  ['Karl-Marx-Str. 12, 12043 Berlin, Germany', undefined, { street: 'Karl-Marx-Str.', houseNumber: '12', postcode: '12043', city: 'Berlin', country: 'DE' }],
  ['Hauptstr. 5a 80331 München', undefined, { street: 'Hauptstr.', houseNumber: '5a', postcode: '80331', city: 'München' }],
  ['10117 Berlin, DE', undefined, { postcode: '10117', city: 'Berlin', country: 'DE' }],
  ['Straße des 17. Juni 135, Berlin', 'DE', { street: 'Straße des 17. Juni', houseNumber: '135', city: 'Berlin' }],
];

const FR: Row[] = [
  ['12 bis Rue de Rivoli, 75001 Paris', undefined, { houseNumber: '12 bis', street: 'Rue de Rivoli', postcode: '75001', city: 'Paris' }],
  ['8 Av. des Champs-Élysées, 75008 Paris, France', undefined, { houseNumber: '8', street: 'Av. des Champs-Élysées', postcode: '75008', city: 'Paris', country: 'FR' }],
  ['55 rue du Faubourg Saint-Honoré 75008 Paris', 'FR', { houseNumber: '55', street: 'rue du Faubourg Saint-Honoré', postcode: '75008', city: 'Paris' }],
  ['12 rue de Rivoli Paris', undefined, { houseNumber: '12', street: 'rue de Rivoli', city: 'Paris' }],
  ['12 Avenue de France, Paris', undefined, { houseNumber: '12', street: 'Avenue de France', city: 'Paris' }],
];

const GB: Row[] = [
  ['10 Downing Street, London SW1A 2AA', undefined, { houseNumber: '10', street: 'Downing Street', postcode: 'SW1A 2AA', city: 'London' }],
  ['221B Baker Street, London NW1 6XE, United Kingdom', undefined, { houseNumber: '221B', street: 'Baker Street', postcode: 'NW1 6XE', city: 'London', country: 'GB' }],
  ['Flat 2, 15 High St, Oxford OX1 4AA', 'GB', { unit: 'Flat 2', houseNumber: '15', street: 'High St', postcode: 'OX1 4AA', city: 'Oxford' }],
  ['10 Downing Street London sw1a2aa', undefined, { houseNumber: '10', street: 'Downing Street', postcode: 'SW1A 2AA', city: 'London' }],
];

const US: Row[] = [
  ['1600 Pennsylvania Ave NW, Washington, DC 20500', undefined, { houseNumber: '1600', street: 'Pennsylvania Ave NW', city: 'Washington', state: 'DC', postcode: '20500' }],
  ['350 5th Ave Apt 12, New York, NY 10118, US', undefined, { unit: 'Apt 12', houseNumber: '350', street: '5th Ave', city: 'New York', state: 'NY', postcode: '10118', country: 'US' }],
  ['123 Main St, Springfield, IL 62701', undefined, { houseNumber: '123', street: 'Main St', city: 'Springfield', state: 'IL', postcode: '62701' }],
  // `DE` after a US-style address is Delaware, not Germany.
  ['123 Main St, Dover, DE', undefined, { houseNumber: '123', street: 'Main St', city: 'Dover', state: 'DE' }],
  ['1 Main St Boston MA', 'US', { houseNumber: '1', street: 'Main St', city: 'Boston', state: 'MA' }],
  ['12345 Main St, Springfield', 'US', { houseNumber: '12345', street: 'Main St', city: 'Springfield' }],
  ['2/B Main Street, Springfield', undefined, { houseNumber: '2/B', street: 'Main Street', city: 'Springfield' }],
];

/** Issue 15: any order, case and punctuation; the country named anywhere; letters and additions in every form. */
const TYPED: Row[] = [
  ['vesterbrogade 12 1620 københavn v', 'DK', { street: 'vesterbrogade', houseNumber: '12', postcode: '1620', city: 'københavn v' }],
  ['1620 København V, Vesterbrogade 12', 'DK', { street: 'Vesterbrogade', houseNumber: '12', postcode: '1620', city: 'København V' }],
  ['1620 København V Vesterbrogade 12', 'DK', { street: 'Vesterbrogade', houseNumber: '12', postcode: '1620', city: 'København V' }],
  ['1012 LG Amsterdam, Damrak 1', 'NL', { street: 'Damrak', houseNumber: '1', postcode: '1012 LG', city: 'Amsterdam' }],
  ['1012lg amsterdam damrak 1', undefined, { street: 'damrak', houseNumber: '1', postcode: '1012 LG', city: 'amsterdam' }],
  ['damrak 1 1012 lg amsterdam nl', undefined, { street: 'damrak', houseNumber: '1', postcode: '1012 LG', city: 'amsterdam', country: 'NL' }],
  ['Nederland, Damrak 1, 1012 LG Amsterdam', undefined, { street: 'Damrak', houseNumber: '1', postcode: '1012 LG', city: 'Amsterdam', country: 'NL' }],
  ['Vesterbrogade 12, 1620 København V DK', undefined, { street: 'Vesterbrogade', houseNumber: '12', postcode: '1620', city: 'København V', country: 'DK' }],
  ['mariahilfer straße 100 1060 wien', 'AT', { street: 'mariahilfer straße', houseNumber: '100', postcode: '1060', city: 'wien' }],
  ['Rua Augusta 100 1100-053 Lisboa', undefined, { street: 'Rua Augusta', houseNumber: '100', postcode: '1100-053', city: 'Lisboa' }],
  // A 4-digit number after the street is its house number, even where postcodes have 4 digits.
  ['Avenida da República 1000, Vila Nova de Gaia', 'PT', { street: 'Avenida da República', houseNumber: '1000', city: 'Vila Nova de Gaia' }],
  ['Landstraße 1234 4020 Linz', 'AT', { street: 'Landstraße', houseNumber: '1234', postcode: '4020', city: 'Linz' }],
  // A postcode no area has (a transposed one) is still read as the postcode, to be corrected.
  ['Rossbodastrasse 6, 9947 Triesenberg', 'LI', { street: 'Rossbodastrasse', houseNumber: '6', postcode: '9947', city: 'Triesenberg' }],
  ['1600 pennsylvania avenue northwest washington dc 20500', 'US', { houseNumber: '1600', street: 'pennsylvania avenue northwest', city: 'washington', state: 'dc', postcode: '20500' }],
  ['20500 Washington, 1600 Pennsylvania Avenue Northwest', 'US', { houseNumber: '1600', street: 'Pennsylvania Avenue Northwest', city: 'Washington', postcode: '20500' }],
  ['191 Peachtree St NE, Atlanta, GA 30303', 'US', { houseNumber: '191', street: 'Peachtree St NE', city: 'Atlanta', state: 'GA', postcode: '30303' }],
  ['10 downing street london sw1a 2aa', 'GB', { houseNumber: '10', street: 'downing street', city: 'london', postcode: 'SW1A 2AA' }],
  ['221 B Baker Street, London NW1 6XE', 'GB', { houseNumber: '221 B', street: 'Baker Street', city: 'London', postcode: 'NW1 6XE' }],
  ['200 N Main St, Concord, NH 03301', 'US', { houseNumber: '200', street: 'N Main St', city: 'Concord', state: 'NH', postcode: '03301' }],
  ['Prinsengracht 2 H, 1015 DV Amsterdam', 'NL', { street: 'Prinsengracht', houseNumber: '2 H', postcode: '1015 DV', city: 'Amsterdam' }],
  ['Prinsengracht 2hs 1015 DV Amsterdam', 'NL', { street: 'Prinsengracht', houseNumber: '2hs', postcode: '1015 DV', city: 'Amsterdam' }],
  ['Marnixstraat 250 II, 1016 TL Amsterdam', 'NL', { street: 'Marnixstraat', houseNumber: '250 II', postcode: '1016 TL', city: 'Amsterdam' }],
  ['Oudegracht 231 - 3, 3511 NK Utrecht', 'NL', { street: 'Oudegracht', houseNumber: '231 - 3', postcode: '3511 NK', city: 'Utrecht' }],
  ['Istedgade 12 B 1650 København V', 'DK', { street: 'Istedgade', houseNumber: '12 B', postcode: '1650', city: 'København V' }],
  // Units are set aside from the house and kept (issue 27): Danish floor and door, US suites.
  ['Vesterbrogade 12, 2. tv, 1620 København V', 'DK', { unit: '2. tv', street: 'Vesterbrogade', houseNumber: '12', postcode: '1620', city: 'København V' }],
  ['vesterbrogade 12 st. th 1620 københavn v', 'DK', { unit: 'st. th', street: 'vesterbrogade', houseNumber: '12', postcode: '1620', city: 'københavn v' }],
  ['1500 Pike St Suite 100 Seattle WA 98101', 'US', { unit: 'Suite 100', houseNumber: '1500', street: 'Pike St', city: 'Seattle', state: 'WA', postcode: '98101' }],
  ['2514 EE Den Haag, Lange Voorhout 34', 'NL', { street: 'Lange Voorhout', houseNumber: '34', postcode: '2514 EE', city: 'Den Haag' }],
];

/** Read against a candidate result: its street, places and postcode are taken as written where the text has them. */
const HINTED: [text: string, country: string, hints: ReadHints, expected: AddressComponents][] = [
  ['frederiksberg allé 1 1820 frederiksberg c', 'DK', { streets: ['Frederiksberg Allé'], places: ['Frederiksberg C', 'Frederiksberg'] }, { street: 'frederiksberg allé', houseNumber: '1', postcode: '1820', city: 'frederiksberg c' }],
  ['75007 Paris, 5 Avenue Anatole France', 'FR', { streets: ['Avenue Anatole France'], places: ['Paris'] }, { houseNumber: '5', street: 'Avenue Anatole France', postcode: '75007', city: 'Paris' }],
  ['100 deansgate manchester m3 2gp', 'GB', { streets: ['Deansgate'], places: ['Manchester'] }, { houseNumber: '100', street: 'deansgate', city: 'manchester', postcode: 'M3 2GP' }],
  ['Rossbodastrasse 6 Triesenberg', 'LI', { streets: ['Rossbodastrasse'], places: ['Rotenboden', 'Triesenberg'] }, { street: 'Rossbodastrasse', houseNumber: '6', city: 'Triesenberg' }],
  // A typo in the street: the known street is still found, the words after it are the town.
  ['10 downing street london', 'GB', { streets: ['Downing Street'], places: ['London'] }, { houseNumber: '10', street: 'downing street', city: 'london' }],
];

const NO_NUMBER: Row[] = [
  ['Amsterdam', undefined, { city: 'Amsterdam' }],
  ['Unter den Linden, Berlin', undefined, { street: 'Unter den Linden', city: 'Berlin' }],
  ['Kalverstraat', undefined, { street: 'Kalverstraat' }],
  ['sw1a2aa', undefined, { postcode: 'SW1A 2AA' }],
];

describe('parseAddress', () => {
  it.each([...NL, ...DE, ...FR, ...GB, ...US, ...TYPED, ...NO_NUMBER])('%s (hint %s)', (text, country, expected) => {
    expect(parseAddress(text, country ? { country } : {})).toEqual(expected);
  });

  it.each(HINTED)('%s, read against a result (%s)', (text, country, hints, expected) => {
    expect(parseAddress(text, { country, hints })).toEqual(expected);
  });

  it('sets country only when the text names one, never from the hint', () => {
    expect(parseAddress('Damrak 1, Amsterdam', { country: 'NL' }).country).toBeUndefined();
  });

  it('returns components within the contract bounds, even for very long text', () => {
    const parsed = parseAddress(`${'Lange '.repeat(60)}straat 1, ${'Groot '.repeat(30)}dorp`, { country: 'NL' });
    expect(AddressComponents.safeParse(parsed).success).toBe(true);
    expect(parsed.houseNumber).toBe('1');
  });

  it('does not take an invalid Dutch postcode as one', () => {
    expect(parseAddress('Damrak 1, 0123 AB Amsterdam', { country: 'NL' }).postcode).toBeUndefined();
  });
});

describe('parseAddress on anything', () => {
  const words = ['Damrak', 'straat', 'Str.', '12', '12B', '12 b', '-', '2/B', 'hs', 'II', '1012', 'LG', '1620', 'København', 'V', 'NL', 'dk', 'Apt', '#4', '2.', 'tv', 'SW1A', '2AA', '20500', 'DC', 'Nederland', 'St', 'N', ',', ';', '1100-053', 'de', ''];
  const typed = fc.array(fc.constantFrom(...words), { maxLength: 14 }).map((w) => w.join(' '));
  const country = fc.option(fc.constantFrom('NL', 'DK', 'DE', 'GB', 'US', 'PT', 'LI', 'FR', 'XX'), { nil: undefined });
  const hints = fc.option(fc.record({ streets: fc.array(fc.constantFrom('Damrak', 'Vesterbrogade', 'Main Street')), places: fc.array(fc.constantFrom('København V', 'Amsterdam')) }), { nil: undefined });

  it('never throws and stays within the contract bounds, hints or not', () => {
    fc.assert(
      fc.property(fc.oneof(typed, fc.string({ maxLength: 300 })), country, hints, (text, cc, h) => {
        const parsed = parseAddress(text, { ...(cc ? { country: cc } : {}), ...(h ? { hints: h } : {}) });
        expect(AddressComponents.safeParse(parsed).success).toBe(true);
      }),
      { numRuns: 400, seed: 15 },
    );
  });
});
