import { describe, expect, it } from 'vitest';
import type { AddressComponents } from '../../src/contract/address.js';
import { parseAddress } from '../../src/address/parse.js';

/**
 * Issue 21: numbers inside street names are the street's, not the house number: the reader tries
 * the readings where the number belongs to the street, guided by the country's order (the house
 * number closes the street where the street comes first) and by a result's street (hints).
 * Also a British outward code alone (`EC4`) is read as a (partial) postcode, not as part of the town.
 */
type Row = [text: string, country: string, streets: string[] | undefined, expected: AddressComponents];

const rows: Row[] = [
  // the country's order alone
  ['Rua 25 de Abril 10, 1000-001 Lisboa', 'PT', undefined, { street: 'Rua 25 de Abril', houseNumber: '10', postcode: '1000-001', city: 'Lisboa' }],
  ['Rua 25 de Abril 10 Lisboa', 'PT', undefined, { street: 'Rua 25 de Abril', houseNumber: '10', city: 'Lisboa' }],
  ['Avenida 5 de Outubro 120, 1050-060 Lisboa', 'PT', undefined, { street: 'Avenida 5 de Outubro', houseNumber: '120', postcode: '1050-060', city: 'Lisboa' }],
  ['Calle 10 de Agosto 5, 28001 Madrid', 'ES', undefined, { street: 'Calle 10 de Agosto', houseNumber: '5', postcode: '28001', city: 'Madrid' }],
  ['Via 20 Settembre 12, 00187 Roma', 'IT', undefined, { street: 'Via 20 Settembre', houseNumber: '12', postcode: '00187', city: 'Roma' }],
  ['Straße des 17. Juni 100, 10623 Berlin', 'DE', undefined, { street: 'Straße des 17. Juni', houseNumber: '100', postcode: '10623', city: 'Berlin' }],
  ['20 5th Avenue, New York, NY 10011', 'US', undefined, { street: '5th Avenue', houseNumber: '20', city: 'New York', state: 'NY', postcode: '10011' }],
  ['5th Avenue 20, New York', 'US', undefined, { street: '5th Avenue', houseNumber: '20', city: 'New York' }],
  ['3 Avenue du 8 Mai 1945, 69008 Lyon', 'FR', undefined, { street: 'Avenue du 8 Mai 1945', houseNumber: '3', postcode: '69008', city: 'Lyon' }],
  ['Avenue du 8 Mai 1945 3, 69008 Lyon', 'FR', undefined, { street: 'Avenue du 8 Mai 1945', houseNumber: '3', postcode: '69008', city: 'Lyon' }],
  ['Rue du 4 Septembre 20, 75002 Paris', 'FR', undefined, { street: 'Rue du 4 Septembre', houseNumber: '20', postcode: '75002', city: 'Paris' }],
  // a result's street decides where the words are ambiguous
  ['Avenue du 8 Mai 1945 3, 69008 Lyon', 'FR', ['Avenue du 8 Mai 1945'], { street: 'Avenue du 8 Mai 1945', houseNumber: '3', postcode: '69008', city: 'Lyon' }],
  ['avenida 24 de julho 2 1200-480 lisboa', 'PT', ['Avenida 24 de Julho'], { street: 'avenida 24 de julho', houseNumber: '2', postcode: '1200-480', city: 'lisboa' }],
  ['Carrer 1 de Maig 4, AD500 Andorra la Vella', 'AD', ['Carrer 1 de Maig'], { street: 'Carrer 1 de Maig', houseNumber: '4', postcode: 'AD500', city: 'Andorra la Vella' }],
  // numbers that are not in the street stay the house number
  ['Hauptstraße 5a Heidelberg', 'DE', undefined, { street: 'Hauptstraße', houseNumber: '5a', city: 'Heidelberg' }],
  ['Keizersgracht 123 2 Amsterdam', 'NL', undefined, { street: 'Keizersgracht', houseNumber: '123 2', city: 'Amsterdam' }],
  ['Vesterbrogade 12 1620 København V', 'DK', undefined, { street: 'Vesterbrogade', houseNumber: '12', postcode: '1620', city: 'København V' }],
  // British outward codes
  ['10 Downing Street, London SW1A', 'GB', undefined, { street: 'Downing Street', houseNumber: '10', postcode: 'SW1A', city: 'London' }],
  ['1 Poultry London EC2R', 'GB', undefined, { street: 'Poultry', houseNumber: '1', postcode: 'EC2R', city: 'London' }],
  ['100 Fleet Street, London EC4', 'GB', undefined, { street: 'Fleet Street', houseNumber: '100', postcode: 'EC4', city: 'London' }],
];

describe('numbers inside street names and partial postcodes (issue 21)', () => {
  it.each(rows)('%s (%s, street hint %j)', (text, country, streets, expected) => {
    expect(parseAddress(text, { country, ...(streets ? { hints: { streets } } : {}) })).toEqual(expected);
  });
});
