import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AutocompleteResponse } from '../../src/contract/autocomplete.js';
import type { ValidateResponse } from '../../src/contract/validate.js';
import { STORAGE_BACKENDS } from '../support/backends.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { fixture } from './support/local-sandbox.js';

/** The "done when", end to end with only `local` enabled: real app, real storage, imported fixture data. */
describe.each(STORAGE_BACKENDS)('only the local provider, over HTTP (%s)', (backend) => {
  let server: TestServer;
  let key: string;

  beforeAll(async () => {
    server = await startTestServer({ backend, providers: 'local' });
    ({ key } = await server.createAccount({ plan: 'starter' }));
    await server.services.localIndex!.importFile(fixture('amsterdam.oa.csv'), { format: 'openaddresses', country: 'NL' });
  });
  afterAll(async () => server?.close());

  const validate = async (query: string) => {
    const res = await server.post('/v1/validate', { query, country: 'NL' }, { authorization: `Bearer ${key}` });
    expect(res.status).toBe(200);
    return (await res.json()) as ValidateResponse;
  };
  const autocomplete = async (query: string) => {
    const res = await server.post('/v1/autocomplete', { query, country: 'NL', limit: 5 }, { authorization: `Bearer ${key}` });
    expect(res.status).toBe(200);
    return (await res.json()) as AutocompleteResponse;
  };

  it('lists local in /healthz once its index holds data', async () => {
    const res = await fetch(`${server.url}/healthz`);
    expect(await res.json()).toEqual({ status: 'ok', providers: ['local'], local: { covered: ['NL'] } });
  });

  it('exact input is valid', async () => {
    const r = await validate('Keizersgracht 123-2, 1015 CW Amsterdam');
    expect(r).toMatchObject({
      verdict: 'valid',
      provider: 'local',
      address: { street: 'Keizersgracht', houseNumber: '123-2', postcode: '1015 CW', city: 'Amsterdam', country: 'NL' },
      components: { street: 'match', houseNumber: 'match', postcode: 'match', city: 'match' },
    });
  });

  it('a one-letter street typo is correctable, the street corrected', async () => {
    const r = await validate('Damrk 1, 1012 LG Amsterdam');
    expect(r).toMatchObject({ verdict: 'correctable', provider: 'local', components: { street: 'corrected', houseNumber: 'match' } });
    expect(r.address).toMatchObject({ street: 'Damrak', houseNumber: '1' });
    expect(r.reasons).toContain('components_corrected');
  });

  it('a wrong postcode is correctable, with the right one in the address', async () => {
    const r = await validate('Damrak 1, 1012 LH Amsterdam');
    expect(r.verdict).toBe('correctable');
    expect(r.address).toMatchObject({ street: 'Damrak', houseNumber: '1', postcode: '1012 LG' });
    expect(r.components.postcode).not.toBe('match');
  });

  it('a missing postcode is correctable, supplied from the index', async () => {
    const r = await validate('Damrak 2, Amsterdam');
    expect(r).toMatchObject({ verdict: 'correctable', components: { postcode: 'missing' } });
    expect(r.address).toMatchObject({ street: 'Damrak', houseNumber: '2', postcode: '1012 LG' });
    expect(r.reasons).toContain('components_incomplete');
  });

  it('a house number that is not in the index is invalid', async () => {
    const r = await validate('Damrak 99, 1012 LG Amsterdam');
    expect(r.verdict).toBe('invalid');
    expect(r.reasons).toContain('no_house_number_match');
    expect(r.address?.houseNumber).not.toBe('99');
  });

  it('autocomplete puts the right address in the first 3 suggestions for prefixes of 6+ characters', async () => {
    const typed = 'Keizersgracht 123-2, 1015 CW Amsterdam';
    for (const n of [6, 10, 14, 17, 19, 24, 30, typed.length]) {
      const prefix = typed.slice(0, n);
      const { suggestions } = await autocomplete(prefix);
      const top = suggestions.slice(0, 3);
      expect(top.every((s) => s.provider === 'local')).toBe(true);
      // Before its number is typed, the address is reached through its street (the drill-down).
      const wanted = n >= 'Keizersgracht 123-2'.length ? { street: 'Keizersgracht', houseNumber: '123-2' } : { street: 'Keizersgracht' };
      expect(top.some((s) => Object.entries(wanted).every(([k, v]) => s.components[k as 'street'] === v)), `${prefix}: ${JSON.stringify(top.map((s) => s.label))}`).toBe(true);
    }
    const postcodeFirst = await autocomplete('1012 LG 1');
    expect(postcodeFirst.suggestions[0]).toMatchObject({ label: 'Damrak 1, 1012 LG Amsterdam', provider: 'local' });
  });
});
