import { describe, expect, it } from 'vitest';
import type { ComponentField } from '../../src/contract/address.js';
import { compareComponent } from '../../src/address/compare.js';

/**
 * Issue 21: what a postal clerk of each country accepts as the same street, town or postcode.
 * Name particles dropped, added or swapped, Danish folded letters both ways and Danish
 * abbreviations are formatting (`match`); the rules that keep other streets apart still hold.
 */
type Row = [country: string, field: ComponentField, typed: string, found: string, expected: 'match' | 'corrected' | 'mismatch'];

const particles: Row[] = [
  ['PT', 'street', 'Rua Liberdade', 'Rua da Liberdade', 'match'],
  ['PT', 'street', 'Avenida Aliados', 'Avenida dos Aliados', 'match'],
  ['PT', 'street', 'Rua São Bento', 'Rua de São Bento', 'match'],
  ['PT', 'street', 'Rua das Flores', 'Rua Flores', 'match'], // added
  ['PT', 'street', 'Rua do Carmo', 'Rua da Carmo', 'match'], // swapped
  ['PT', 'street', 'R. Cândido Reis', 'Rua Cândido dos Reis', 'match'],
  ['PT', 'street', 'Rua do Ouro', 'Rua do Carmo', 'mismatch'],
  ['ES', 'street', 'Calle Alcalá', 'Calle de Alcalá', 'match'],
  ['ES', 'street', 'Calle Príncipe', 'Calle del Príncipe', 'match'],
  ['ES', 'street', 'Plaza Villa', 'Plaza de la Villa', 'match'],
  ['ES', 'street', 'Calle de Alcalá', 'Calle de Atocha', 'mismatch'],
  ['FR', 'street', 'Rue République', 'Rue de la République', 'match'],
  ['FR', 'street', 'Rue Faubourg Saint-Honoré', 'Rue du Faubourg Saint-Honoré', 'match'],
  ['FR', 'street', 'Place Vosges', 'Place des Vosges', 'match'],
  ['FR', 'street', 'Rue de la Paix', 'Rue de la Pompe', 'mismatch'],
  ['DE', 'street', 'Straße 17. Juni', 'Straße des 17. Juni', 'match'],
  ['DE', 'street', 'Platz der Republik', 'Platz Republik', 'match'],
  ['DE', 'street', 'Am Markt', 'Markt', 'corrected'], // a preposition is not a particle: two squares in many towns
  ['IT', 'street', 'Via Corso', 'Via del Corso', 'match'],
  ['IT', 'street', 'Via Condotti', 'Via dei Condotti', 'match'],
  ['IT', 'street', 'Piazza Signoria', 'Piazza della Signoria', 'match'],
  ['IT', 'street', 'Via del Corso', 'Via della Scala', 'mismatch'],
  ['AD', 'street', 'Avinguda Meritxell', 'Avinguda de Meritxell', 'match'],
  ['AD', 'street', 'Carrer Unió', 'Carrer de la Unió', 'match'],
  ['MC', 'street', 'Boulevard Moulins', 'Boulevard des Moulins', 'match'],
  ['MC', 'street', 'Avenue Princesse Grace', 'Avenue de la Princesse Grace', 'match'],
  ['GB', 'street', 'Mall', 'The Mall', 'match'],
  ['US', 'street', 'Avenue Americas', 'Avenue of the Americas', 'match'],
  // not a particle: Dutch `van` is part of a family name, so never a match
  ['NL', 'street', 'Welderenstraat', 'Van Welderenstraat', 'corrected'],
];

const danish: Row[] = [
  // folded letters, both ways
  ['DK', 'street', 'Hoejbro Plads', 'Højbro Plads', 'match'],
  ['DK', 'street', 'Hojbro Plads', 'Højbro Plads', 'match'],
  ['DK', 'street', 'Højbro Plads', 'Hoejbro Plads', 'match'],
  ['DK', 'street', 'Blaagaardsgade', 'Blågårdsgade', 'match'],
  ['DK', 'street', 'Blågårdsgade', 'Blaagaardsgade', 'match'],
  ['DK', 'street', 'Faelledvej', 'Fælledvej', 'match'],
  ['DK', 'street', 'Fælledvej', 'Faelledvej', 'match'],
  ['DK', 'city', 'Århus C', 'Aarhus C', 'match'],
  ['DK', 'city', 'Aalborg', 'Ålborg', 'match'],
  ['DK', 'city', 'Koege', 'Køge', 'match'],
  ['DK', 'city', 'Kobenhavn Ø', 'København Ø', 'match'],
  // abbreviations
  ['DK', 'street', 'Skt. Annæ Plads', 'Sankt Annæ Plads', 'match'],
  ['DK', 'street', 'Gl. Kongevej', 'Gammel Kongevej', 'match'],
  ['DK', 'street', 'Ndr. Frihavnsgade', 'Nordre Frihavnsgade', 'match'],
  ['DK', 'street', 'Sdr. Boulevard', 'Sønder Boulevard', 'match'],
  ['DK', 'street', 'Kgs. Nytorv', 'Kongens Nytorv', 'match'],
  ['DK', 'street', 'Frederiksberg Alle', 'Frederiksberg Allé', 'match'],
  ['DK', 'street', 'Ll. Kongensgade', 'Lille Kongensgade', 'match'],
  ['DK', 'street', 'Nr. Voldgade', 'Nørre Voldgade', 'match'],
  // still other streets
  ['DK', 'street', 'Ndr. Frihavnsgade', 'Sdr. Frihavnsgade', 'mismatch'],
  ['DK', 'street', 'Store Kongensgade', 'Lille Kongensgade', 'mismatch'],
];

const postcodes: Row[] = [
  // a British outward code the found postcode starts with: a partial postcode the result completes
  ['GB', 'postcode', 'EC4', 'EC4M 7DX', 'corrected'],
  ['GB', 'postcode', 'EC4M', 'EC4M 7DX', 'corrected'],
  ['GB', 'postcode', 'SW1A', 'SW1A 2AA', 'corrected'],
  ['GB', 'postcode', 'EC2', 'EC4M 7DX', 'mismatch'],
  ['GB', 'postcode', 'ec4m7dx', 'EC4M 7DX', 'match'],
];

describe('equivalences per country (issue 21)', () => {
  it.each([...particles, ...danish, ...postcodes])('%s %s "%s" vs "%s" → %s', (country, field, typed, found, expected) => {
    expect(compareComponent(field, typed, found, country)).toBe(expected);
  });
});
