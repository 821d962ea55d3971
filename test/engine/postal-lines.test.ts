import addressFormatter from '@fragaria/address-formatter';
import { describe, expect, it, vi } from 'vitest';
import { corpusAddresses } from '../../bench/accuracy/corpus.js';
import { createRequire } from 'node:module';
import { formatLines, postalLines } from '../../src/engine/postal-lines.js';

/** Every country OpenCage's templates know. */
const TEMPLATE_COUNTRIES = Object.keys(createRequire(import.meta.url)('@fragaria/address-formatter/src/templates/templates.json') as Record<string, unknown>).filter((k) => /^[A-Z]{2}$/.test(k));

/** One real address of every country of the accuracy corpus, with a unit as that country writes it. */
const CASES = [
  { country: 'NL', street: 'Nieuwe Binnenweg', houseNumber: '150A', postcode: '3015 BH', city: 'Rotterdam', unit: '3hg', lines: ['Nieuwe Binnenweg 150A 3hg', '3015 BH Rotterdam'] },
  { country: 'DE', street: 'Baaderstraße', houseNumber: '22', postcode: '80469', city: 'München', unit: 'Whg. 5', lines: ['Whg. 5', 'Baaderstraße 22', '80469 München'] },
  { country: 'DK', street: 'Vesterbrogade', houseNumber: '12', postcode: '1620', city: 'København V', unit: '2. tv', lines: ['Vesterbrogade 12, 2. tv', '1620 København V'] },
  { country: 'PT', street: 'Rua da Alfândega', houseNumber: '10', postcode: '4050-029', city: 'Porto', unit: '2º Esq.', lines: ['Rua da Alfândega 10, 2º Esq.', '4050-029 Porto'] },
  { country: 'GB', street: 'Sekforde Street', houseNumber: '1', postcode: 'EC1R 0BE', city: 'London', unit: 'Flat 3', lines: ['Flat 3', '1 Sekforde Street', 'London', 'EC1R 0BE'] },
  { country: 'US', street: 'Eastern Avenue', houseNumber: '1932', postcode: '21231', city: 'Baltimore', state: 'MD', unit: 'Apt 3B', lines: ['1932 Eastern Avenue Apt 3B', 'Baltimore, MD 21231'] },
  { country: 'FR', street: 'Boulevard Saint-Germain', houseNumber: '100', postcode: '75005', city: 'Paris', unit: 'Appartement 12', lines: ['Appartement 12', '100 Boulevard Saint-Germain', '75005 Paris'] },
  { country: 'AT', street: 'Mariahilfer Straße', houseNumber: '100', postcode: '1060', city: 'Wien', unit: 'Top 3', lines: ['Mariahilfer Straße 100, Top 3', '1060 Wien'] },
  { country: 'CH', street: 'Bahnhofstrasse', houseNumber: '10', postcode: '8001', city: 'Zürich', unit: 'Wohnung 3', lines: ['Wohnung 3', 'Bahnhofstrasse 10', '8001 Zürich'] },
  { country: 'ES', street: 'Calle Mayor', houseNumber: '10', postcode: '28013', city: 'Madrid', unit: '2º Izda.', lines: ['Calle Mayor, 10, 2º Izda.', '28013 Madrid'] },
  { country: 'IT', street: 'Via del Corso', houseNumber: '100', postcode: '00186', city: 'Roma', unit: 'int. 3', lines: ['Via del Corso 100 int. 3', '00186 Roma'] },
  { country: 'AD', street: 'Avinguda Meritxell', houseNumber: '20', postcode: 'AD500', city: 'Andorra la Vella', unit: '2n 1a', lines: ['20 Avinguda Meritxell, 2n 1a', 'AD500 Andorra la Vella'] },
  { country: 'MC', street: 'Boulevard des Moulins', houseNumber: '12', postcode: '98000', city: 'Monaco', unit: 'Appartement 4', lines: ['Appartement 4', '12 Boulevard des Moulins', '98000 Monaco'] },
  { country: 'LI', street: 'Landstrasse', houseNumber: '340', postcode: '9495', city: 'Triesen', unit: 'Top 3', lines: ['Landstrasse 340, Top 3', '9495 Triesen'] },
] as const;

describe('postalLines', () => {
  it('has a case for every country of the accuracy corpus', () => {
    expect(CASES.map((c) => c.country).sort()).toEqual([...new Set(corpusAddresses().map((a) => a.country))].sort());
  });

  it.each(CASES)('writes $country in its own order, unit included', ({ lines, ...address }) => {
    expect(postalLines(address, address.country)).toEqual({ lines, formatted: lines.join(', ') });
  });

  it.each(CASES)('writes $country without a unit as the formatter does', ({ lines, unit, ...address }) => {
    const withoutUnit = postalLines(address, address.country).lines;
    expect(withoutUnit).toEqual(
      lines.flatMap((line) => (line === unit ? [] : [line.replace(new RegExp(`,? ${unit.replace('.', '\\.')}$`), '')])),
    );
  });

  it('adds the country line only when the request names another country', () => {
    const address = { street: 'Landstrasse', houseNumber: '340', postcode: '9495', city: 'Triesen', country: 'LI' };
    expect(postalLines(address).lines).toEqual(['Landstrasse 340', '9495 Triesen']);
    expect(postalLines(address, 'li').lines).toEqual(['Landstrasse 340', '9495 Triesen']);
    // Liechtenstein by its own name, though OpenCage writes it with Switzerland's template.
    expect(postalLines(address, 'CH').lines).toEqual(['Landstrasse 340', '9495 Triesen', 'Liechtenstein']);
  });

  it.each([
    ['AT', '3', 'Mariahilfer Straße 100/3'],
    ['AT', '3/5', 'Mariahilfer Straße 100/3/5'],
    ['LI', '3', 'Mariahilfer Straße 100/3'],
    ['AT', 'Top 3', 'Mariahilfer Straße 100, Top 3'],
    ['PT', '3', 'Mariahilfer Straße 100, 3'],
  ])('in %s writes the bare door %s as the post does: %s', (country, unit, line) => {
    const address = { street: 'Mariahilfer Straße', houseNumber: '100', postcode: '1060', city: 'Wien', country, unit };
    expect(postalLines(address).lines[0]).toBe(line);
  });

  it('writes every corpus address with any plain number exactly as the formatter writes it (the number goes through as a token)', () => {
    const addresses = corpusAddresses();
    expect(addresses.length).toBeGreaterThan(200);
    for (const a of addresses) {
      for (const houseNumber of [a.houseNumber, '1', '7a', '1234', '99999', undefined]) {
        for (const request of [a.country, 'FR']) {
          const address = { street: a.street, houseNumber, postcode: a.postcode, city: a.city, state: a.state, country: a.country };
          const country = a.country.toUpperCase();
          const direct = formatLines(address, houseNumber, country, request !== country);
          expect(postalLines(address, request).lines, `${a.country} ${a.street} ${houseNumber}`).toEqual(direct);
        }
      }
    }
  });

  it('writes streets, postcodes, towns and numbers the templates rewrite exactly as the formatter does, though other addresses of the country share its layout', () => {
    // Streets, postcodes, towns and numbers go through as tokens (postal-tokens.ts); each value below is one a
    // template rule rewrites, one the formatter drops as a repeat, or one a replacement pattern
    // would misread, and every template country is asked with each in turn.
    const streets = ['Hauptstraße', 'Stadtteil Mitte', 'Borough of Camden Road', 'Main St', 'London', 'Berlin', 'constructor', 'A$&B straat', 'Town of Babylon Road', 'Localidad Suba', 'Dublin', '1234ab straat', '12345 Road', '- Dash Street', 'New York', 'Gemeinde Platz', 'toString'];
    const postcodes = ['1234 AB', '1234AB', '12345', '123 45', '12345678', '00-950', 'SW1A 1AA', 'K1A0B1', 'D02X285', '1234567', 'PNI 96941', 'A1234BCD', '12345-6789', 'Berlin', undefined];
    const cities = ['Springfield', 'London', 'Berlin', 'Dublin', 'Wellington', 'New York', undefined, 'Stadtteil Mitte', 'Dublin City', 'Localidad Suba', 'Town of Babylon', 'Alt-Berlin', 'Panama', 'Paris 5e Arrondissement', 'Bogotá', 'constructor', '- Dash', 'Praia', 'Wellington City', 'Hauptstraße', '12345'];
    const states = [undefined, 'Berlin', 'Curaçao', 'County Dublin', 'Wellington City'];
    const countries = [...TEMPLATE_COUNTRIES, 'UK', 'ZZ'];
    expect(countries.length).toBeGreaterThan(200);
    for (const country of countries) {
      for (let i = 0; i < 24; i++) {
        const at = (list: readonly unknown[], step: number) => (i * step + country.charCodeAt(0) + country.charCodeAt(1)) % list.length;
        const base = { street: streets[at(streets, 7)], postcode: postcodes[at(postcodes, 3)], city: cities[at(cities, 1)], state: states[at(states, 5)], country };
        for (const houseNumber of ['12', ['37-3', '12 bis', '4/2', 'constructor', '1234AB', 'Springfield'][i % 6], undefined]) {
          for (const request of [country, 'FR']) {
            const address = { ...base, houseNumber };
            const direct = formatLines(address, houseNumber, country, request !== country);
            expect(postalLines(address, request).lines, JSON.stringify([address, request])).toEqual(direct);
          }
        }
      }
    }
    // ~29,000 addresses through the formatter twice: ~14 s of CPU alone on this 2-core machine, over
    // the default 30 s when the suite's other files share the cores (it timed out once in CI). A
    // budget for CPU, not a wait: nothing here sleeps or races.
  }, 120_000);

  it('writes a postcode the way its country\'s post does when the formatter rewrites it, after other addresses of the street were written', () => {
    expect(postalLines({ street: 'Storgatan', houseNumber: '1', postcode: '111 22', city: 'Stockholm', country: 'SE' }, 'SE').lines).toEqual(['Storgatan 1', '111 22 Stockholm']);
    expect(postalLines({ street: 'Storgatan', houseNumber: '2', postcode: '11122', city: 'Stockholm', country: 'SE' }, 'SE').lines).toEqual(['Storgatan 2', '111 22 Stockholm']);
    expect(postalLines({ street: 'Damrak', houseNumber: '1', postcode: '1012 LG', city: 'Amsterdam', country: 'NL' }, 'NL').lines).toEqual(['Damrak 1', '1012 LG Amsterdam']);
    expect(postalLines({ street: 'Damrak', houseNumber: '2', postcode: '1012LG', city: 'Amsterdam', country: 'NL' }, 'NL').lines).toEqual(['Damrak 2', '1012 LG Amsterdam']);
  });

  it('writes the houses of towns not seen before without formatting each town again (one layout per country)', () => {
    // Autocomplete across a country shows towns one after the other; each used to cost the formatter a call.
    const towns = ['Oberwaldheim', 'Unterbachfeld', 'Mittelried', 'Neuhausen am Stein'];
    const houses = towns.map((city, i) => ({ street: `Lindenallee ${String.fromCharCode(65 + i)}`, houseNumber: String(i + 3), postcode: `0${7100 + i}`, city, state: 'Testland', country: 'DE' }));
    const format = vi.spyOn(addressFormatter, 'format');
    try {
      const written = houses.map((h) => postalLines(h, 'DE').lines);
      expect(format.mock.calls.length).toBeLessThanOrEqual(1);
      expect(written).toEqual(houses.map((h) => formatLines(h, h.houseNumber, 'DE', false)));
    } finally {
      format.mockRestore();
    }
  });

  it('writes a street kept with its values written in as the formatter does, house after house and for the street itself', () => {
    // The street's values are written into its kept layout once; a value holding the private-use
    // characters the layout uses for the number, street, postcode or town keeps them as text.
    const streets = [
      { street: 'Lindenallee', postcode: '07100', city: 'Oberwaldheim' },
      { street: 'Linden\uE000allee', postcode: '07101', city: 'Ober\uE001waldheim' },
      { street: 'Kirchweg', postcode: '0710\uE000', city: 'Unterbach' },
      { street: 'Hauptstraße', postcode: '10115', city: 'Berlin', state: 'Berlin' },
      { street: 'Hauptstraße', postcode: '10117', city: 'Bremen', state: 'Bremen' },
    ];
    for (const s of streets) {
      for (const houseNumber of [undefined, '3', '12a', undefined, '3', '7']) {
        const address = { ...s, houseNumber, country: 'DE' };
        expect(postalLines(address, 'DE').lines, JSON.stringify(address)).toEqual(formatLines(address, houseNumber, 'DE', false));
      }
    }
  });

  it('leads with the unit where there is no street line to attach it to', () => {
    expect(postalLines({ city: 'Triesen', country: 'LI', unit: 'Top 3' }, 'LI')).toEqual({ lines: ['Top 3', 'Triesen'], formatted: 'Top 3, Triesen' });
  });

  it('writes nothing for an address that names only its own country', () => {
    expect(postalLines({ country: 'NL' }, 'NL')).toEqual({ lines: [], formatted: '' });
    expect(postalLines({ country: 'NL' }, 'DE').lines).toEqual(['Netherlands']);
  });
});
