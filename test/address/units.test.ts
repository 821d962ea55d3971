import { describe, expect, it } from 'vitest';
import { parseAddress } from '../../src/address/parse.js';
import { stripUnitAndRecipient, unitKey } from '../../src/address/units.js';

/**
 * Issue 27 items 1 and 5: units and recipient lines in every language the reader knows, before
 * and after the house, with and without commas. The house reads exactly as it does without them;
 * the unit comes back in the country's display form, the recipient line as unresolved text.
 */
interface Address {
  country: string;
  /** The street and number as the country writes them, and the rest of the address. */
  house: string;
  rest: string;
}

const ADDRESSES: Record<string, Address> = {
  GB: { country: 'GB', house: '1 Sekforde Street', rest: 'London EC1R 0BE' },
  US: { country: 'US', house: '1932 Eastern Avenue', rest: 'Baltimore, MD 21231' },
  DE: { country: 'DE', house: 'Baaderstraße 22', rest: '80469 München' },
  AT: { country: 'AT', house: 'Stephansplatz 1', rest: '1010 Wien' },
  LI: { country: 'LI', house: 'Landstrasse 340', rest: '9495 Triesen' },
  CH: { country: 'CH', house: 'Bahnhofstrasse 10', rest: '8001 Zürich' },
  FR: { country: 'FR', house: '12 Rue de Rivoli', rest: '75001 Paris' },
  PT: { country: 'PT', house: 'Rua da Alfândega 10', rest: '4050-029 Porto' },
  ES: { country: 'ES', house: 'Calle Mayor 5', rest: '28013 Madrid' },
  AD: { country: 'AD', house: 'Carrer Major 5', rest: 'AD500 Andorra la Vella' },
  IT: { country: 'IT', house: 'Via Roma 10', rest: '00185 Roma' },
  SE: { country: 'SE', house: 'Drottninggatan 5', rest: '111 51 Stockholm' },
  DK: { country: 'DK', house: 'Vesterbrogade 12', rest: '1620 København V' },
  NL: { country: 'NL', house: 'Damrak 1', rest: '1012 LG Amsterdam' },
};

/** [country, typed, display form, positions: both, or only after the house number]. */
const UNITS: [string, string, string, ('before' | 'after')[]?][] = [
  ['GB', 'Flat 3', 'Flat 3'],
  ['GB', 'flat 12', 'Flat 12'],
  ['GB', 'Apartment 2', 'Apartment 2'],
  ['US', 'Apt 3B', 'Apt 3B'],
  ['US', 'Apt. 3B', 'Apt 3B'],
  ['US', 'apt 3b', 'Apt 3B'],
  ['US', '#3B', '#3B'],
  ['US', 'Suite 100', 'Suite 100'],
  ['US', 'Ste 210', 'Ste 210'],
  ['US', 'Unit 5', 'Unit 5'],
  ['US', 'Fl 2', 'Fl 2'],
  ['US', '2nd Floor', '2nd floor'],
  ['DE', 'Whg. 5', 'Whg. 5'],
  ['DE', 'whg 5', 'Whg. 5'],
  ['DE', 'Wohnung 3', 'Wohnung 3'],
  ['DE', 'App. 12', 'App. 12'],
  ['DE', '2. OG links', '2. OG links'],
  ['DE', 'EG rechts', 'EG rechts'],
  ['DE', 'DG Mitte', 'DG Mitte'],
  ['DE', 'Hinterhaus', 'Hinterhaus'],
  ['DE', 'Vorderhaus 1. OG', 'Vorderhaus 1. OG'],
  ['AT', 'Top 3', 'Top 3'],
  ['AT', 'Stiege 2 Top 4', 'Stiege 2 Top 4'],
  ['AT', 'Tür 5', 'Tür 5'],
  ['LI', 'Top 3', 'Top 3'],
  ['LI', 'Wohnung 3', 'Wohnung 3'],
  ['CH', 'Wohnung 4', 'Wohnung 4'],
  ['FR', 'Appt 12', 'Appt 12'],
  ['FR', 'Appartement 4', 'Appartement 4'],
  ['FR', 'Bât. A', 'Bât. A'],
  ['FR', 'Escalier 2', 'Escalier 2'],
  ['FR', 'Étage 3', 'Étage 3'],
  ['FR', '3e étage', '3e étage'],
  ['PT', '2º Esq', '2º Esq.'],
  ['PT', '2º Dto', '2º Dto.'],
  ['PT', '2.º Esq.', '2º Esq.'],
  ['PT', '1º Frente', '1º Frente'],
  ['PT', 'R/C', 'R/C'],
  ['PT', 'R/C Esq.', 'R/C Esq.'],
  ['PT', 'Sala 3', 'Sala 3'],
  ['PT', 'Loja 2', 'Loja 2'],
  ['PT', '1º Andar', '1º andar'],
  ['ES', '3º 2ª', '3º 2ª'],
  ['ES', '2º B', '2º B'],
  ['ES', 'Piso 3', 'Piso 3'],
  ['AD', '2n 1a', '2n 1a'],
  ['IT', 'int. 5', 'Int. 5'],
  ['IT', 'scala A', 'Scala A'],
  ['IT', 'piano 2', 'Piano 2'],
  ['SE', 'lgh 1102', 'Lgh 1102'],
  ['DK', '2. tv', '2. tv', ['after']],
  ['DK', 'st. th', 'st. th', ['after']],
  ['DK', '1.mf', '1.mf', ['after']],
  ['NL', '3hg', '3hg', ['after']],
  ['NL', '3 hoog', '3 hoog', ['after']],
];

/** The texts a unit or line can stand in: before or after the house, with and without commas. */
function placements(a: Address, part: string, where: readonly ('before' | 'after')[] = ['before', 'after']): string[] {
  const out: string[] = [];
  if (where.includes('after')) out.push(`${a.house}, ${part}, ${a.rest}`, `${a.house} ${part}, ${a.rest}`, `${a.house} ${part} ${a.rest.replace(/,/g, '')}`);
  if (where.includes('before')) out.push(`${part}, ${a.house}, ${a.rest}`, `${part} ${a.house} ${a.rest.replace(/,/g, '')}`);
  return out;
}

describe('units in every language and position', () => {
  for (const [country, typed, unit, where] of UNITS) {
    const a = ADDRESSES[country]!;
    const plain = parseAddress(`${a.house}, ${a.rest}`, { country });
    it.each(placements(a, typed, where))(`${country} %s: the house as without it, unit ${unit}`, (text) => {
      expect(parseAddress(text, { country })).toEqual({ ...plain, unit });
      expect(stripUnitAndRecipient(text, country)).toMatchObject({ unit, unresolved: [] });
    });
  }

  it.each([
    ['Landstrasse 340/3, 9495 Triesen', 'LI', '340', '3'],
    ['Landstrasse 340/3/5, 9495 Triesen', 'LI', '340', '3/5'],
    ['Landstrasse 340 / 3 9495 Triesen', 'LI', '340', '3'],
    ['Stephansplatz 12/3/5, 1010 Wien', 'AT', '12', '3/5'],
    ['Stephansplatz 12/3, 1010 Wien, Österreich', undefined, '12', '3'],
    ['Baaderstraße 22 / Top 4, 80469 München', 'DE', '22', 'Top 4'],
  ])('%s: the door after the slash is the unit (%s)', (text, country, houseNumber, unit) => {
    expect(parseAddress(text, country ? { country } : {})).toMatchObject({ houseNumber, unit });
  });

  it.each([
    // A BAG addition stays part of the house number (the register writes it so), as before.
    ['Keizersgracht 123-2, 1015 CW Amsterdam', 'NL', '123-2'],
    ['Keizersgracht 12 bis, 1015 CW Amsterdam', 'NL', '12 bis'],
    ['Marnixstraat 250 II, 1016 TL Amsterdam', 'NL', '250 II'],
    ['Prinsengracht 2 H, 1015 DV Amsterdam', 'NL', '2 H'],
    // A slash elsewhere is the house number's (SPEC: `2/B`).
    ['Damrak 2/B, 1012 LG Amsterdam', 'NL', '2/B'],
    ['Hauptstraße 12/3, 10115 Berlin', 'DE', '12/3'],
  ])('%s: no unit, the house number %s as written', (text, country, houseNumber) => {
    const read = parseAddress(text, { country });
    expect(read.houseNumber).toBe(houseNumber);
    expect(read.unit).toBeUndefined();
  });

  it.each([
    // Designator words inside a street's or town's name are the name's.
    ['Via della Scala 5, 50123 Firenze', 'IT', 'Via della Scala'],
    ['Via dela Scala 10, 50123 Firenze', 'IT', 'Via dela Scala'],
    ['Via del Piano 3, 50123 Firenze', 'IT', 'Via del Piano'],
    ['Rua da Loja 2, 4050-029 Porto', 'PT', 'Rua da Loja'],
    ['Rue de la Porte 3, 75001 Paris', 'FR', 'Rue de la Porte'],
    ['Rua 1º de Maio 10, 4050-029 Porto', 'PT', 'Rua 1º de Maio'],
    ['Straße des 17. Juni 5, 10623 Berlin', 'DE', 'Straße des 17. Juni'],
    ['3e Binnenvestgracht 3, 2312 NR Leiden', 'NL', '3e Binnenvestgracht'],
    ['Sankt Peders Stræde 19, 1453 København K', 'DK', 'Sankt Peders Stræde'],
  ])('%s: no unit, the street is %s', (text, country, street) => {
    const read = parseAddress(text, { country });
    expect(read.street).toBe(street);
    expect(read.unit).toBeUndefined();
  });
});

/** [country, recipient line or note, where it may stand]. */
const LINES: [string, string, ('before' | 'after')[]?][] = [
  ['DE', 'c/o Müller'],
  ['DE', 'z. Hd. Frau Berg'],
  ['DE', 'z.Hd. Herrn Meier'],
  ['DE', 'bei Schmidt', ['before']],
  ['AT', 'z. Hd. Frau Gruber'],
  ['LI', 'c/o Büchel'],
  ['GB', 'c/o Jane Doe'],
  ['GB', 'FAO Mr Smith'],
  ['US', 'Attn: John Miller'],
  ['US', 'Attn John Miller'],
  ['FR', 'Chez Dupont', ['before']],
  ['FR', "À l'attention de M. Martin"],
  ['NL', 't.a.v. de heer Jansen'],
  ['NL', 'p/a Bakker'],
  ['NL', 'c/o De Vries'],
  ['PT', 'A/C Sr. Silva'],
  ['ES', 'A/A Sr. García'],
  ['AD', 'c/o Vidal'],
  ['IT', 'c/o Rossi'],
  ['IT', 'presso Bianchi', ['before']],
  ['DK', 'c/o Hansen'],
  ['DK', 'att. Jens Hansen', ['before']],
  ['SE', 'c/o Andersson'],
];

describe('recipient lines and notes: set aside, never a street, unit or place', () => {
  for (const [country, line, where] of LINES) {
    const a = ADDRESSES[country]!;
    const plain = parseAddress(`${a.house}, ${a.rest}`, { country });
    const texts = [...placements(a, line, where ?? ['before']), ...(where ? [] : [`${a.house}, ${a.rest}, ${line}`])];
    it.each(texts)(`${country} %s: the house as without it`, (text) => {
      expect(parseAddress(text, { country })).toEqual(plain);
      const aside = stripUnitAndRecipient(text, country);
      expect({ unit: aside.unit, unresolved: aside.unresolved }).toEqual({ unit: undefined, unresolved: [line] });
    });
  }

  it('lists every part no component used, in input order, beside the unit', () => {
    expect(stripUnitAndRecipient('Attn: John Miller, 1932 Eastern Avenue Apt 3B, Baltimore, MD 21231, door code 1234', 'US')).toEqual({
      text: '1932 Eastern Avenue, Baltimore, MD 21231',
      unit: 'Apt 3B',
      unresolved: ['Attn: John Miller', 'door code 1234'],
    });
  });

  it('keeps `bei` and `chez` inside names where they do not open a section', () => {
    expect(parseAddress('Hauptstraße 5, 96465 Neustadt bei Coburg', { country: 'DE' })).toMatchObject({ city: 'Neustadt bei Coburg' });
    expect(stripUnitAndRecipient('Hauptstraße 5, 96465 Neustadt bei Coburg', 'DE').unresolved).toEqual([]);
  });
});

describe('unitKey', () => {
  it.each([
    ['Apt 3B', '3b'],
    ['apt. 3b', '3b'],
    ['#3B', '3b'],
    ['Flat 3', '3'],
    ['Top 3', '3'],
    ['Whg. 5', '5'],
    ['Wohnung 5', '5'],
    ['2º Esq.', '2 esq'],
    ['2.º esq', '2 esq'],
    ['3/5', '3/5'],
  ])('%s → %s', (unit, key) => {
    expect(unitKey(unit)).toBe(key);
  });
});
