import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalHit } from '../../src/local-index/index.js';
import { STORAGE_BACKENDS } from '../support/backends.js';
import { fixture, openIndexSandbox, type IndexSandbox } from './support/local-sandbox.js';

const short = (h: LocalHit | undefined) => (h ? [h.components.street, h.components.houseNumber, h.components.city].filter(Boolean).join(' ') : undefined);

describe.each(STORAGE_BACKENDS)('local index search (%s)', (backend) => {
  let box: IndexSandbox;
  const ac = async (query: string, limit = 5) => (await box.index.autocomplete({ query, limit })).map(short);
  const gc = async (query: string) => (await box.index.geocode({ query })).map(short);

  beforeAll(async () => {
    box = await openIndexSandbox(backend);
    await box.index.importFile(fixture('amsterdam.oa.csv'), { format: 'openaddresses', country: 'NL' });
  });
  afterAll(async () => {
    await box?.close();
  });

  it('finds the three addresses of the issue: a street typo, postcode + number, an abbreviation with an addition', async () => {
    expect((await gc('Damrk 1 Amsterdam'))[0]).toBe('Damrak 1 Amsterdam');
    expect((await gc('1012LG 1'))[0]).toBe('Damrak 1 Amsterdam');
    expect((await gc('Keizersgr. 123-2'))[0]).toBe('Keizersgracht 123-2 Amsterdam');
    expect((await ac('Damrk 1 Amsterdam'))[0]).toBe('Damrak 1 Amsterdam');
    expect((await ac('1012LG 1'))[0]).toBe('Damrak 1 Amsterdam');
    expect((await ac('Keizersgr. 123-2'))[0]).toBe('Keizersgracht 123-2 Amsterdam');
  });

  it('answers structured queries: typo in the street, wrong or missing postcode', async () => {
    const [typo] = await box.index.geocode({ components: { street: 'Keizersgrcht', houseNumber: '123', city: 'Amsterdam' } });
    expect(short(typo)).toBe('Keizersgracht 123 Amsterdam');
    expect(typo?.precision).toBe('address');
    expect(typo?.score).toBeLessThan(1);
    const [wrongPostcode] = await box.index.geocode({ components: { street: 'Damrak', houseNumber: '1', postcode: '1012 XX', city: 'Amsterdam' } });
    expect(wrongPostcode?.components).toMatchObject({ street: 'Damrak', houseNumber: '1', postcode: '1012 LG' });
    const [noPostcode] = await box.index.geocode({ components: { street: 'Damrak', houseNumber: '2', city: 'Amsterdam' } });
    expect(noPostcode?.components).toMatchObject({ houseNumber: '2', postcode: '1012 LG' });
    const [exact] = await box.index.geocode({ components: { street: 'Damrak', houseNumber: '1', postcode: '1012LG', city: 'Amsterdam' } });
    expect(exact?.score).toBe(1);
  });

  it('offers only the street when the house number is not in the index', async () => {
    const hits = await box.index.geocode({ components: { street: 'Damrak', houseNumber: '99', city: 'Amsterdam' } });
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.every((h) => h.components.houseNumber !== '99')).toBe(true);
    expect(hits[0]).toMatchObject({ precision: 'street', components: { street: 'Damrak', city: 'Amsterdam' } });
    expect(hits[0]?.components.houseNumber).toBeUndefined();
  });

  it('ranks the exact house number first, then numbers in numeric order', async () => {
    expect(await ac('Keizersgracht 12')).toEqual([
      'Keizersgracht 12 Amsterdam',
      'Keizersgracht 120 Amsterdam',
      'Keizersgracht 121 Amsterdam',
      'Keizersgracht 123 Amsterdam',
      'Keizersgracht 123-1 Amsterdam',
    ]);
    expect(await ac('Keizersgracht 123', 6)).toEqual([
      'Keizersgracht 123 Amsterdam',
      'Keizersgracht 123-1 Amsterdam',
      'Keizersgracht 123-2 Amsterdam',
      'Keizersgracht 123A Amsterdam',
    ]);
    expect((await gc('Keizersgracht 123 A'))[0]).toBe('Keizersgracht 123A Amsterdam');
  });

  it('completes postcode-first input as it is typed', async () => {
    expect((await ac('1012 LG 1'))[0]).toBe('Damrak 1 Amsterdam');
    const partial = await box.index.autocomplete({ query: '1012 L', limit: 10 });
    // Its five addresses, then (issue 35) the two postcodes it begins, each with its town.
    expect(partial.map((h) => h.kind)).toEqual(['address', 'address', 'address', 'address', 'address', 'postcode', 'postcode']);
    expect(partial.every((h) => /^1012 L[GH]$/.test(h.components.postcode ?? ''))).toBe(true);
    const numbers = await box.index.autocomplete({ query: '1015 CW 12', limit: 10 });
    expect(numbers.map((h) => h.components.houseNumber)).toEqual(['120', '121', '123', '123-1', '123-2', '123A', '125']);
  });

  it('drills down: a street alone is a suggestion, and typing past it lists its house numbers', async () => {
    const street = await box.index.autocomplete({ query: 'Keizersgracht', limit: 5 });
    expect(street[0]).toMatchObject({ precision: 'street', components: { street: 'Keizersgracht', city: 'Amsterdam' } });
    expect(street[0]?.components.houseNumber).toBeUndefined();
    const numbers = await box.index.autocomplete({ query: 'Keizersgracht ', limit: 5 });
    expect(numbers.map((h) => [h.precision, h.components.houseNumber])).toEqual([
      ['address', '12'],
      ['address', '120'],
      ['address', '121'],
      ['address', '123'],
      ['address', '123-1'],
    ]);
    // Two Kerkstraten: no drill-down until the city says which one.
    const ambiguous = await box.index.autocomplete({ query: 'Kerkstraat ', limit: 5 });
    expect(ambiguous.map((h) => [h.precision, h.components.city])).toEqual([
      ['street', 'Amsterdam'],
      ['street', 'Haarlem'],
      ['address', 'Amsterdam'],
      ['address', 'Amsterdam'],
    ]);
    const chosen = await box.index.autocomplete({ query: 'Kerkstraat, Haarlem ', limit: 5 });
    expect(chosen.map(short)).toEqual(['Kerkstraat 10 Haarlem']);
  });

  it('prefers a whole-word street over longer streets it prefixes', async () => {
    expect((await ac('Dam'))[0]).toBe('Dam Amsterdam');
    expect((await ac('Damr'))[0]).toBe('Damrak Amsterdam');
    expect(await ac('Damst', 3)).toEqual(['Damstraat Amsterdam', 'Damstraat 1 Amsterdam', 'Damstraat 2 Amsterdam']);
  });

  it('reads a number that is part of a street name as the name', async () => {
    expect((await gc('3e Binnenvestgracht 3 Leiden'))[0]).toBe('3e Binnenvestgracht 3 Leiden');
    expect((await ac('3e Binnenvestgr'))[0]).toBe('3e Binnenvestgracht Leiden');
  });

  it('returns the right address within the first 3 suggestions for typed prefixes of 6+ characters', async () => {
    const cases = [
      { street: 'Damrak', hn: '1', rest: ', 1012 LG Amsterdam' },
      { street: 'Keizersgracht', hn: '123-2', rest: ', 1015 CW Amsterdam' },
      { street: 'Prinsengracht', hn: '263', rest: ', 1016 GV Amsterdam' },
      { street: 'Herengracht', hn: '4', rest: ', 1015 BA Amsterdam' },
      { street: 'Kerkstraat', hn: '10', rest: ', 2011 LA Haarlem' },
      { street: 'Damstraat', hn: '2', rest: ', 1012 JL Amsterdam' },
    ];
    for (const c of cases) {
      const typed = `${c.street} ${c.hn}${c.rest}`;
      const city = c.rest.split(' ').at(-1);
      for (let n = 6; n <= typed.length; n++) {
        const prefix = typed.slice(0, n);
        const top = (await box.index.autocomplete({ query: prefix, limit: 5 })).slice(0, 3);
        // Until the house number is complete, the right answer is its street (which drills down to it).
        const numberComplete = n >= c.street.length + 1 + c.hn.length;
        const found = numberComplete
          ? top.some((h) => h.components.street === c.street && h.components.houseNumber === c.hn && h.components.city === city)
          : top.some((h) => h.components.street === c.street);
        expect(found, `"${prefix}" → ${JSON.stringify(top.map((h) => h.label))}`).toBe(true);
      }
    }
  });

  it('filters by country and answers nothing for words that are not in the index', async () => {
    expect(await box.index.autocomplete({ query: 'Damrak 1', country: 'DE' })).toEqual([]);
    expect((await box.index.autocomplete({ query: 'Damrak 1', country: 'NL' }))[0]?.components.houseNumber).toBe('1');
    expect(await box.index.geocode({ query: 'Qwertyuiop 5' })).toEqual([]);
    expect(await box.index.autocomplete({ query: 'zz' })).toEqual([]);
  });
});
