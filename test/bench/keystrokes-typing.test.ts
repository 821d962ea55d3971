import { describe, expect, it } from 'vitest';
import { fewestPossible, isTarget, nearBy, summarize, typeAddress, written, type Ask, type Offered, type Target } from '../../bench/keystrokes/typing.js';
import { kmBetween } from '../../src/local-index/search/near.js';

/**
 * bench:keystrokes counts, for each address typed one character at a time, the characters typed
 * before it is offered in the top 5 and at rank 1. Checked here against an autocomplete whose
 * answers are known in advance; no timing is measured.
 */
const target: Target = { street: 'Mühlenweg', houseNumber: '56', postcode: '10000', city: 'Oberbach', country: 'DE', lat: 52, lng: 9 };
const it56: Offered = { street: 'Mühlenweg', houseNumber: '56', postcode: '10000', city: 'Oberbach' };
const other = (n: string): Offered => ({ street: 'Mühlenweg', houseNumber: n, postcode: '20000', city: 'Unterbach' });

describe('bench:keystrokes', () => {
  it('counts the characters typed before the address is in the top 5, then at rank 1', async () => {
    const text = written(target);
    expect(text).toBe('Mühlenweg 56, 10000 Oberbach');
    const asked: string[] = [];
    // Fifth from `Mühlenweg 56` on, first from `Mühlenweg 56, 1` on.
    const ask: Ask = async (query) => {
      asked.push(query);
      if (query.length >= 15) return [it56, other('1')];
      if (query.length >= 12) return [other('1'), other('2'), other('3'), other('4'), it56];
      return [other('1')];
    };
    const typed = await typeAddress(ask, target);
    expect(typed).toMatchObject({ length: text.length, top5: 12, top1: 15, offered5: true, offered1: true, streetAndNumber: true, floor: 11 });
    // It stops typing once the address is first, then asks for street and number typed whole.
    expect(asked.at(-2)).toBe('Mühlenweg 56, 1');
    expect(asked.at(-1)).toBe('Mühlenweg 56');
  });

  it('an address never offered counts every character; the summary is the mean share', async () => {
    const never = await typeAddress(async () => [other('1')], target);
    expect(never).toMatchObject({ top5: never.length, top1: never.length, offered5: false, streetAndNumber: false });
    const s = summarize([never, { ...never, top5: 7, top1: 14, offered5: true, offered1: true }]);
    expect(s.never5).toBe(1);
    expect(s.share5).toBeCloseTo((1 + 7 / never.length) / 2, 6);
  });

  it('a suggestion is the address by its street, number and postcode or town, written in any case and form', () => {
    expect(isTarget(target, { street: 'MÜHLENWEG', houseNumber: '56', city: 'Oberbach' })).toBe(true);
    expect(isTarget(target, { street: 'Mühlenweg', houseNumber: '5', postcode: '10000' })).toBe(false);
    expect(isTarget(target, other('56'))).toBe(false);
    expect(isTarget({ ...target, street: 'Hauptstraße' }, { street: 'Hauptstr.', houseNumber: '56', postcode: '10000' })).toBe(true);
  });

  it('no service can offer a house before a character of its number and of its street are typed', () => {
    expect(fewestPossible(target)).toBe('Mühlenweg 5'.length);
    const gb: Target = { street: 'New Square', houseNumber: '10', postcode: 'WC2A 3QN', city: 'London', country: 'GB', lat: 51.5, lng: -0.1 };
    expect(written(gb).startsWith('10 New Square')).toBe(true);
    expect(fewestPossible(gb)).toBe('10 N'.length);
    // A number that is also in the street's name is found after the street.
    const may: Target = { street: 'Rue du 8 Mai 1945', houseNumber: '8', postcode: '75010', city: 'Paris', country: 'FR', lat: 48.87, lng: 2.36 };
    expect(written(may).slice(0, fewestPossible(may))).toBe(written(may).startsWith('8') ? '8 R' : 'Rue du 8 Mai 1945 8');
  });

  it('places the customer 1 to 3 km from the address', () => {
    let seed = 1;
    const rand = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
    for (let i = 0; i < 50; i++) {
      const km = kmBetween(target, nearBy(target, rand));
      expect(km).toBeGreaterThanOrEqual(0.99);
      expect(km).toBeLessThanOrEqual(3.01);
    }
  });
});
