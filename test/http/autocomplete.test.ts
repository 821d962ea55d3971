import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AutocompleteResponse } from '../../src/contract/autocomplete.js';
import { startTestServer, type TestServer } from '../support/server.js';

describe('POST /v1/autocomplete', () => {
  let server: TestServer;
  let key: string;
  let accountId: string;
  beforeAll(async () => {
    server = await startTestServer();
    ({ key, accountId } = await server.createAccount({ plan: 'starter' }));
  });
  afterAll(async () => server.close());

  const complete = async (body: Record<string, unknown>, path = '/v1/autocomplete') => {
    const res = await server.post(path, body, { authorization: `Bearer ${key}` });
    return { status: res.status, body: (await res.json()) as AutocompleteResponse & { message?: string; issues?: unknown[] } };
  };
  const used = async () => (await server.services.ledger.balance(accountId)).usedThisMonth;

  it('suggests addresses from the providers that autocomplete, billed per answering provider, then cached', async () => {
    const before = await used();
    const nominatimCalls = server.emulators.nominatim.requests.length;
    const first = await complete({ query: 'Keizersgr', country: 'NL', sessionToken: 'sess-1' });
    expect(first.status).toBe(200);
    expect(first.body.cached).toBe(false);
    expect(first.body.sessionToken).toBe('sess-1');
    expect(first.body.suggestions[0]).toMatchObject({
      label: 'Keizersgracht 174A, 1016 DW Amsterdam',
      provider: 'pdok',
      components: { street: 'Keizersgracht', houseNumber: '174A', postcode: '1016 DW', city: 'Amsterdam' },
      location: { lat: expect.any(Number), lng: expect.any(Number) },
    });
    // pdok and photon answered; nominatim does not autocomplete (usage policy), so it costs nothing and is never called.
    expect((await used()) - before).toBe(2);
    expect(server.emulators.nominatim.requests.length).toBe(nominatimCalls);

    const second = await complete({ query: 'Keizersgr', country: 'NL', sessionToken: 'sess-2' });
    expect(second.body).toEqual({ ...first.body, cached: true, sessionToken: 'sess-2' });
    expect((await used()) - before).toBe(2);
  });

  it('orders by provider result order, round-robin in provider order, and deduplicates by label', async () => {
    const { body } = await complete({ query: 'Damrak 1', country: 'NL', limit: 10 });
    const labels = body.suggestions.map((s) => s.label);
    expect(new Set(labels).size).toBe(labels.length);
    // pdok's and photon's first results are the same address: it appears once, from pdok (first provider).
    expect(labels.filter((l) => l === 'Damrak 1, 1012 LG Amsterdam')).toHaveLength(1);
    expect(body.suggestions[0]).toMatchObject({ provider: 'pdok', label: 'Damrak 1, 1012 LG Amsterdam' });
    const mixed = await complete({ query: 'Damrak', country: 'NL', limit: 10 });
    expect(mixed.body.suggestions.slice(0, 2).map((s) => s.provider)).toEqual(['pdok', 'photon']);
  });

  it('honours limit (default 5) and echoes a missing sessionToken as null', async () => {
    const capped = await complete({ query: 'Damrak', country: 'NL', limit: 1 });
    expect(capped.body.suggestions).toHaveLength(1);
    expect(capped.body.sessionToken).toBeNull();
    const dflt = await complete({ query: 'Amsterdam', country: 'NL' });
    expect(dflt.body.suggestions.length).toBeGreaterThan(0);
    expect(dflt.body.suggestions.length).toBeLessThanOrEqual(5);
  });

  it('writes house numbers first where the country does', async () => {
    const { body } = await complete({ query: 'Baker Street 221', country: 'GB' });
    expect(body.suggestions[0]?.label).toBe('221B Baker Street, NW1 6XE London');
  });

  it.each([
    [{ query: '' }, 'too_small', ['query']],
    [{ query: 'x'.repeat(201) }, 'too_big', ['query']],
    [{ query: 'Damrak', limit: 0 }, 'too_small', ['limit']],
    [{ query: 'Damrak', limit: 11 }, 'too_big', ['limit']],
    [{ query: 'Damrak', sessionToken: 's'.repeat(65) }, 'too_big', ['sessionToken']],
    [{ query: 'Damrak', country: 'NLD' }, 'too_big', ['country']],
    [{ query: 'Damrak', source: '' }, 'too_small', ['source']],
  ])('400 for %j', async (body, code, path) => {
    const res = await complete(body);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Validation failed');
    expect(res.body.issues).toEqual([expect.objectContaining({ code, path })]);
  });
});
