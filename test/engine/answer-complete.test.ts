import { describe, expect, it } from 'vitest';
import type { ProviderCandidate } from '../../src/providers/provider.js';
import { answeringEngine } from './support/answering-engine.js';

/**
 * Issue 34 items 4-6, the answer side: a valid answer is a whole postal address. What the data
 * derived is named (`address.inferred`), what the customer typed and nothing contradicts is kept,
 * and a street whose houses are numbered is never accepted without its number.
 */
const LANDSTRASSE: ProviderCandidate = {
  components: { street: 'Landstrasse', houseNumber: '7', country: 'LI' },
  location: { lat: 47.1167, lng: 9.5333 },
  precision: 'address',
};

const WANGERBERG: ProviderCandidate = {
  components: { street: 'Wangerbergstrasse', houseNumber: '64', postcode: '9497', city: 'Triesenberg', country: 'LI' },
  location: { lat: 47.118, lng: 9.545 },
  precision: 'address',
  inferred: ['city', 'postcode'],
};

const STÄDTLE: ProviderCandidate = {
  components: { street: 'Städtle', postcode: '9490', city: 'Vaduz', country: 'LI' },
  location: { lat: 47.1392, lng: 9.5225 },
  precision: 'street',
  providerConfidence: 1,
};

describe('typed parts are kept (item 5)', () => {
  it('a typed postcode and town the data has nothing for are carried into address and its lines, not-checked', async () => {
    const ask = answeringEngine({ local: [LANDSTRASSE] });
    const answer = await ask({ query: 'Landstrasse 7, 9497 Triesenberg', country: 'LI' });
    expect(answer.components).toMatchObject({ street: 'match', houseNumber: 'match', postcode: 'not-checked', city: 'not-checked' });
    expect(answer.address).toMatchObject({ street: 'Landstrasse', houseNumber: '7', postcode: '9497', city: 'Triesenberg', inferred: [] });
    expect(answer.address?.lines).toEqual(['Landstrasse 7', '9497 Triesenberg']);
    expect(answer.address?.formatted).toBe('Landstrasse 7, 9497 Triesenberg');
  });

  it("normalises the postcode to the country's format and keeps the town and state in the customer's case", async () => {
    const ask = answeringEngine({ local: [{ ...LANDSTRASSE, components: { street: 'Sekforde Street', houseNumber: '1', country: 'GB' } }] });
    const answer = await ask({ components: { street: 'Sekforde Street', houseNumber: '1', postcode: 'ec1r0be', city: 'london' }, country: 'GB' });
    expect(answer.address).toMatchObject({ postcode: 'EC1R 0BE', city: 'london' });
    expect(answer.address?.lines).toEqual(['1 Sekforde Street', 'london', 'EC1R 0BE']);
    const us = answeringEngine({ local: [{ ...LANDSTRASSE, components: { street: 'Eastern Avenue', houseNumber: '1932', country: 'US' } }] });
    const typed = await us({ query: '1932 Eastern Avenue, Baltimore, MD 21231', country: 'US' });
    expect(typed.address).toMatchObject({ city: 'Baltimore', state: 'MD', postcode: '21231' });
    expect(typed.address?.lines).toEqual(['1932 Eastern Avenue', 'Baltimore, MD 21231']);
  });

  it('the data\'s own value wins where it has one (a wrong typed postcode is not kept)', async () => {
    const ask = answeringEngine({ local: [WANGERBERG] });
    const answer = await ask({ query: 'Wangerbergstrasse 64, 9495 Triesenberg', country: 'LI' });
    expect(answer.components.postcode).toBe('corrected');
    expect(answer.address?.postcode).toBe('9497');
  });
});

describe('address.inferred (item 4)', () => {
  it('names the town and postcode the data derived, and the lines carry them', async () => {
    const ask = answeringEngine({ local: [WANGERBERG] });
    const answer = await ask({ query: 'Wangerbergstrasse 64', country: 'LI' });
    expect(answer.address).toMatchObject({ lines: ['Wangerbergstrasse 64', '9497 Triesenberg'], inferred: ['city', 'postcode'] });
    // Derived, not stated: nothing the input lacked (no `missing`), so the house stays valid.
    expect(answer.components).not.toHaveProperty('postcode');
    expect(answer.components).not.toHaveProperty('city');
    expect(answer).toMatchObject({ verdict: 'valid', action: 'accept' });
  });

  it('where each town has its own postcode (LI), a confirmed typed town stands for the stated postcode: valid', async () => {
    const ask = answeringEngine({ local: [{ ...WANGERBERG, inferred: [] }] });
    const answer = await ask({ query: 'Wangerbergstrasse 64, Triesenberg', country: 'LI' });
    expect(answer.components).not.toHaveProperty('postcode');
    expect(answer).toMatchObject({ verdict: 'valid', action: 'accept' });
    expect(answer.address).toMatchObject({ postcode: '9497', inferred: [] });
    // Without the town nothing stands for the postcode: the answer completed the address.
    expect((await ask({ query: 'Wangerbergstrasse 64', country: 'LI' })).components.postcode).toBe('missing');
  });

  it('a postcode the data states, left out of the input, is still missing (the address was completed)', async () => {
    const munich: ProviderCandidate = { components: { street: 'Tal', houseNumber: '15', postcode: '80331', city: 'München', country: 'DE' }, location: { lat: 48.136, lng: 11.579 }, precision: 'address', inferred: ['city'] };
    const ask = answeringEngine({ local: [munich] });
    const answer = await ask({ query: 'Tal 15, München', country: 'DE' });
    expect(answer.components.postcode).toBe('missing');
    expect(answer.reasons).toContain('components_incomplete');
    expect(answer.verdict).not.toBe('valid');
  });

  it('is not set for a typed value the data confirms', async () => {
    const ask = answeringEngine({ local: [WANGERBERG] });
    expect((await ask({ query: 'Wangerbergstrasse 64, Triesenberg', country: 'LI' })).address?.inferred).toEqual(['postcode']);
    expect((await ask({ query: 'Wangerbergstrasse 64, 9497 Triesenberg', country: 'LI' })).address?.inferred).toEqual([]);
  });

  it('stays for a typed value the data replaced (a typo corrected)', async () => {
    const ask = answeringEngine({ local: [WANGERBERG] });
    const answer = await ask({ query: 'Wangerbergstrasse 64, 9497 Triesenbrg', country: 'LI' });
    expect(answer.components.city).toBe('corrected');
    expect(answer.address?.inferred).toEqual(['city']);
  });

  it('is an empty array where nothing was derived, and alternatives carry their own', async () => {
    const other: ProviderCandidate = { ...WANGERBERG, components: { ...WANGERBERG.components, postcode: '9495', city: 'Triesen' }, location: { lat: 47.09, lng: 9.53 }, inferred: ['postcode'] };
    const ask = answeringEngine({ local: [{ ...WANGERBERG, inferred: [] }, other] });
    const answer = await ask({ query: 'Wangerbergstrasse 64', country: 'LI' });
    expect(answer.address?.inferred).toEqual([]);
    expect(answer.alternatives.map((a) => a.address.inferred)).toEqual([['postcode']]);
  });
});

describe('incomplete input is never accepted (item 6)', () => {
  it('a street whose houses the data numbers, no number typed: houseNumber missing, components_incomplete, fix', async () => {
    const ask = answeringEngine({ local: [{ ...STÄDTLE, houseNumbersKnown: true }] });
    const answer = await ask({ query: 'Städtle, 9490 Vaduz', country: 'LI' });
    expect(answer.verdict).not.toBe('valid');
    expect(answer.components.houseNumber).toBe('missing');
    expect(answer.reasons).toContain('components_incomplete');
    expect(answer).toMatchObject({ granularity: { input: 'street', validated: 'street' }, action: 'fix', alternatives: [] });
  });

  it('a street the data knows no numbers for keeps its answer', async () => {
    const ask = answeringEngine({ local: [STÄDTLE] });
    const answer = await ask({ query: 'Städtle, 9490 Vaduz', country: 'LI' });
    expect(answer).toMatchObject({ verdict: 'valid', action: 'accept', granularity: { validated: 'street' } });
    expect(answer.components.houseNumber).toBeUndefined();
  });

  it('another provider\'s answer for the street the index numbers cannot make it valid', async () => {
    const ask = answeringEngine({ local: [{ ...STÄDTLE, houseNumbersKnown: true }], photon: [{ ...STÄDTLE, location: { lat: 47.1399, lng: 9.5231 } }] });
    const answer = await ask({ query: 'Städtle, 9490 Vaduz', country: 'LI' });
    expect(answer.verdict).not.toBe('valid');
    expect(answer).toMatchObject({ components: { houseNumber: 'missing' }, action: 'fix' });
    // Another street of that name far away is another street: its answer stays its own.
    const far = answeringEngine({ local: [{ ...STÄDTLE, houseNumbersKnown: true, providerConfidence: 0.5 }], photon: [{ ...STÄDTLE, location: { lat: 47.3, lng: 9.6 } }] });
    const elsewhere = await far({ query: 'Städtle, 9490 Vaduz', country: 'LI' });
    expect(elsewhere.provider).toBe('photon');
    expect(elsewhere.components.houseNumber).toBeUndefined();
  });

  it('a result that picks a house the input never named is fixed, not confirmed', async () => {
    const ask = answeringEngine({ photon: [{ ...STÄDTLE, components: { ...STÄDTLE.components, houseNumber: '1' }, precision: 'address' }] });
    const answer = await ask({ query: 'Städtle, 9490 Vaduz', country: 'LI' });
    expect(answer).toMatchObject({ components: { houseNumber: 'missing' }, action: 'fix' });
    expect(answer.verdict).not.toBe('valid');
  });

  it.each(['Städtle "32", 9490 Vaduz', 'Städtle Nr. 32, 9490 Vaduz', 'Städtle No. 32, 9490 Vaduz', 'Städtle nº 32, 9490 Vaduz', 'Städtle #32, 9490 Vaduz'])(
    '%s: the number is read and the house is valid',
    async (query) => {
      const house: ProviderCandidate = { ...STÄDTLE, components: { ...STÄDTLE.components, houseNumber: '32' }, precision: 'address' };
      const ask = answeringEngine({ local: [house, { ...STÄDTLE, houseNumbersKnown: true }] });
      const answer = await ask({ query, country: 'LI' });
      expect(answer).toMatchObject({ verdict: 'valid', action: 'accept', components: { houseNumber: 'match' }, unresolved: [] });
      expect(answer.address?.lines).toEqual(['Städtle 32', '9490 Vaduz']);
    },
  );
});
