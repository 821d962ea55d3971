import { describe, expect, it } from 'vitest';
import { parseAddress } from '../../src/address/parse.js';
import { stripUnitAndRecipient, unitKey } from '../../src/address/units.js';

/**
 * Issue 34 items 6 and 7: a number in quotes or after `Nr.`, `No.`, `nº`, `n.`, `#` is the house
 * number (it was dropped, or its sign joined the street); `#` after a house number stays a unit
 * (issue 27's `#3B`); a floor written alone (`1º`, `2.`, `EG`) is the unit.
 */
describe('house numbers announced by a sign or in quotes', () => {
  it.each([
    ['Städtle "32", 9490 Vaduz', 'LI', 'Städtle', '32'],
    ['Städtle „32“, 9490 Vaduz', 'LI', 'Städtle', '32'],
    ['Städtle Nr. 32', 'LI', 'Städtle', '32'],
    ['Städtle Nr.32, 9490 Vaduz', 'LI', 'Städtle', '32'],
    ['Main Street No. 5, Springfield', 'US', 'Main Street', '5'],
    ['Rua Chã nº 103, 4000-175 Porto', 'PT', 'Rua Chã', '103'],
    ['Rua Chã, nº 103, 4000-175 Porto', 'PT', 'Rua Chã', '103'],
    ['Via Roma n. 5, 00185 Roma', 'IT', 'Via Roma', '5'],
    ['#12 Main Street, Springfield', 'US', 'Main Street', '12'],
    ['Städtle #32, 9490 Vaduz', 'LI', 'Städtle', '32'],
    ['Städtle # 32, 9490 Vaduz', 'LI', 'Städtle', '32'],
  ])('%s: street %s, house number %s, no unit', (text, country, street, houseNumber) => {
    const read = parseAddress(text, { country });
    expect(read).toMatchObject({ street, houseNumber });
    expect(read.unit).toBeUndefined();
    // Providers are asked the number without its sign.
    expect(stripUnitAndRecipient(text, country).text).not.toMatch(/Nr\.|No\.|nº|n\.|#|"|„/);
  });

  it.each([
    ['12 Main Street #3B, Springfield', 'US', '12', '#3B'],
    ['#3B, 1932 Eastern Avenue, Baltimore, MD 21231', 'US', '1932', '#3B'],
    ['#3B 1932 Eastern Avenue Baltimore MD 21231', 'US', '1932', '#3B'],
    ['1932 Eastern Avenue Apt #3B, Baltimore, MD 21231', 'US', '1932', 'Apt 3B'],
  ])('%s: `#` after or before a house number is the unit', (text, country, houseNumber, unit) => {
    expect(parseAddress(text, { country })).toMatchObject({ houseNumber, unit });
  });

  it('keeps words that only look like signs inside names', () => {
    expect(parseAddress('Straße des 17. Juni 5, 10623 Berlin', { country: 'DE' })).toMatchObject({ street: 'Straße des 17. Juni', houseNumber: '5' });
    expect(parseAddress('Rua 1º de Maio 10, 4050-029 Porto', { country: 'PT' })).toMatchObject({ street: 'Rua 1º de Maio', houseNumber: '10' });
  });
});

describe('floors written alone are the unit', () => {
  it.each([
    ['Rua de Santa Catarina 269, 1º, 4000-451 Porto', 'PT', '269', '1º', '1'],
    ['Rua de Santa Catarina 269 1º, 4000-451 Porto', 'PT', '269', '1º', '1'],
    ['Rua de Santa Catarina 269, 2.º, 4000-451 Porto', 'PT', '269', '2º', '2'],
    ['Baaderstraße 22, 2., 80469 München', 'DE', '22', '2.', '2'],
    ['Hauptstrasse 5, EG, 8000 Zürich', 'CH', '5', 'EG', 'eg'],
  ])('%s: house %s, unit %s (key %s)', (text, country, houseNumber, unit, key) => {
    const read = parseAddress(text, { country });
    expect(read).toMatchObject({ houseNumber, unit });
    expect(read.city).not.toBe(unit);
    expect(unitKey(unit)).toBe(key);
  });
});
