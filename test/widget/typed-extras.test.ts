import { describe, expect, it } from 'vitest';
import { keepTyping } from '../../src/widget/typed-extras.js';

const damrak = { label: 'Damrak 1, 1012 LG Amsterdam', address: { street: 'Damrak', houseNumber: '1', postcode: '1012 LG', city: 'Amsterdam', country: 'NL' } };
const main = { label: '123 Main Street, Springfield, IL 62701', address: { street: 'Main Street', houseNumber: '123', postcode: '62701', city: 'Springfield', state: 'IL', country: 'US' } };
const triesen = { label: 'Landstrasse 340, 9495 Triesen', address: { street: 'Landstrasse', houseNumber: '340', postcode: '9495', city: 'Triesen', country: 'LI' } };
// The service read the unit (issue 27): it is in the address and in the label.
const eastern = {
  label: '1932 Eastern Avenue Apt 3B, Baltimore, MD 21231',
  address: { street: 'Eastern Avenue', houseNumber: '1932', unit: 'Apt 3B', postcode: '21231', city: 'Baltimore', state: 'MD', country: 'US' },
};
// The service read `340/3` as house 340, door 3 (AT, LI): the label writes the door after the slash.
const triesenDoor = {
  label: 'Landstrasse 340/3, 9495 Triesen',
  address: { street: 'Landstrasse', houseNumber: '340', unit: '3', postcode: '9495', city: 'Triesen', country: 'LI' },
};
const streetOnly = { label: 'Damrak, 1012 Amsterdam', address: { street: 'Damrak', postcode: '1012', city: 'Amsterdam', country: 'NL' } };

describe('keepTyping: a selection never wipes what the suggestion lacks', () => {
  it.each([
    // typed, suggestion, houseNumber, extra, shown value
    ['Damrak 1', damrak, '1', '', 'Damrak 1, 1012 LG Amsterdam'],
    ['damr', damrak, '1', '', 'Damrak 1, 1012 LG Amsterdam'],
    ['Damrak 1A', damrak, '1A', '', 'Damrak 1A, 1012 LG Amsterdam'],
    ['Damrak 1-3', damrak, '1-3', '', 'Damrak 1-3, 1012 LG Amsterdam'],
    ['Damrak 1 A', damrak, '1 A', '', 'Damrak 1 A, 1012 LG Amsterdam'],
    ['Damrak 1 hs', damrak, '1 hs', '', 'Damrak 1 hs, 1012 LG Amsterdam'],
    ['Damrak 1 apt 4', damrak, '1', 'apt 4', 'Damrak 1 apt 4, 1012 LG Amsterdam'],
    ['Damrak 1 III', damrak, '1 III', '', 'Damrak 1 III, 1012 LG Amsterdam'],
    ['Damrak 1 1012 LG', damrak, '1', '', 'Damrak 1, 1012 LG Amsterdam'],
    ['Damrak 1 1012LG Amsterdam', damrak, '1', '', 'Damrak 1, 1012 LG Amsterdam'],
    ['Damrak 1, 1013 Amsterdm', damrak, '1', '', 'Damrak 1, 1012 LG Amsterdam'],
    ['Damrak 1 am', damrak, '1', '', 'Damrak 1, 1012 LG Amsterdam'],
    ['123 Main St Apt 4B', main, '123', 'Apt 4B', '123 Main Street Apt 4B, Springfield, IL 62701'],
    ['123 Main St #5', main, '123', '#5', '123 Main Street #5, Springfield, IL 62701'],
    ['123 Main Rd', main, '123', '', '123 Main Street, Springfield, IL 62701'],
    ['Damrak 7b', streetOnly, '7b', '', 'Damrak 7b, 1012 Amsterdam'],
    ['Landstrasse 340 Top 3', triesen, '340', 'Top 3', 'Landstrasse 340 Top 3, 9495 Triesen'],
    ['Damrak 1 apt 1', damrak, '1', 'apt 1', 'Damrak 1 apt 1, 1012 LG Amsterdam'],
    ['Damrak 1 apt', damrak, '1', '', 'Damrak 1, 1012 LG Amsterdam'],
    ['Damrak 1 2nd floor', damrak, '1', '2nd floor', 'Damrak 1 2nd floor, 1012 LG Amsterdam'],
    ['1932 Eastern Ave Apt 3B', eastern, '1932', '', eastern.label],
    ['1932 Eastern Ave Apartment 3B', eastern, '1932', '', eastern.label],
    ['Damrak', streetOnly, undefined, '', 'Damrak, 1012 Amsterdam'],
    // Issue 36: the door the service read is shown once and is no part of the house number.
    ['Landstrasse 340/3', triesenDoor, '340', '', triesenDoor.label],
    ['Landstrasse 340 / 3', triesenDoor, '340', '', triesenDoor.label],
    ['Landstrasse 340/ 3 Triesen', triesenDoor, '340', '', triesenDoor.label],
    ['Landstrasse 340/3 9495', triesenDoor, '340', '', triesenDoor.label],
    ['Landstrasse 340/7', triesen, '340/7', '', 'Landstrasse 340/7, 9495 Triesen'],
  ])('%s', (typed, s, houseNumber, extra, value) => {
    const kept = keepTyping(typed, s.label, s.address);
    expect(kept.houseNumber).toBe(houseNumber);
    expect(kept.extra).toBe(extra);
    expect(kept.value).toBe(value);
  });

  it('gives the street line without the extra, for a form that has an address-line2 field', () => {
    expect(keepTyping('Damrak 1-3 apt 4', damrak.label, damrak.address).line1).toBe('Damrak 1-3');
    expect(keepTyping('123 Main St Apt 4B', main.label, main.address).line1).toBe('123 Main Street');
    expect(keepTyping('Damrak 7b', streetOnly.label, streetOnly.address).line1).toBe('Damrak 7b');
    expect(keepTyping('1932 Eastern Ave Apt 3B', eastern.label, eastern.address).line1).toBe('1932 Eastern Avenue');
    expect(keepTyping('Landstrasse 340/3', triesenDoor.label, triesenDoor.address).line1).toBe('Landstrasse 340');
  });

  it('gives the street line with the unit as the label writes it, for a form without a field for the unit', () => {
    expect(keepTyping('Landstrasse 340/3', triesenDoor.label, triesenDoor.address).line1WithUnit).toBe('Landstrasse 340/3');
    expect(keepTyping('1932 Eastern Ave Apt 3B', eastern.label, eastern.address).line1WithUnit).toBe('1932 Eastern Avenue Apt 3B');
    expect(keepTyping('Damrak 1-3 apt 4', damrak.label, damrak.address).line1WithUnit).toBe('Damrak 1-3 apt 4');
    // A unit `1` at house 21 takes nothing out of the number.
    const one = { street: 'Damrak', houseNumber: '21', unit: '1', postcode: '1012 LG', city: 'Amsterdam', country: 'NL' };
    expect(keepTyping('Damrak 21', 'Damrak 21, 1012 LG Amsterdam', one).line1).toBe('Damrak 21');
  });
});
