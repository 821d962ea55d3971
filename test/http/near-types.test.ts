import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AutocompleteResponse, WidgetAutocompleteResponse } from '../../src/contract/autocomplete.js';
import { ValidateBatchResponse } from '../../src/contract/batch.js';
import { startTestServer, type TestServer } from '../support/server.js';

const ORIGIN = 'https://shop.example';

// Issue 35 over HTTP: `near` and `types` in the contract (clear 400s), passed on to the providers, `type` and `matches` in the answers.
describe('near and types on the API', () => {
  let server: TestServer;
  let key: string;
  let token: string;
  beforeAll(async () => {
    server = await startTestServer();
    const account = await server.createAccount({ plan: 'growth' });
    key = account.key;
    ({ token } = await server.createToken(account.accountId, [ORIGIN]));
  });
  afterAll(async () => server.close());

  const secret = (path: string, body: unknown) => server.post(path, body, { authorization: `Bearer ${key}` });
  const widget = (body: unknown) => server.post('/v1/widget/autocomplete', body, { authorization: `Bearer ${token}`, origin: ORIGIN });
  const issuesOf = async (res: Response) => {
    expect(res.status).toBe(400);
    const body = (await res.json()) as { message: string; issues: { path: (string | number)[]; message: string }[] };
    expect(body.message).toBe('Validation failed');
    return body.issues.map((i) => [i.path.join('.'), i.message]);
  };

  it.each([
    [{ lat: 91, lng: 4.9 }, 'near.lat', 'Latitude must be between -90 and 90'],
    [{ lat: 52.4, lng: -180.5 }, 'near.lng', 'Longitude must be between -180 and 180'],
    [{ lat: '52.4', lng: 4.9 }, 'near.lat', 'Expected a latitude in degrees (a number)'],
    [{ lat: 52.4 }, 'near.lng', 'Expected a longitude in degrees (a number)'],
  ])('a bad near %j is a 400 at %s on every endpoint that takes one', async (near, path, message) => {
    for (const res of [
      await secret('/v1/autocomplete', { query: 'Damrak 1', near }),
      await widget({ query: 'Damrak 1', near }),
      await secret('/v1/validate', { query: 'Damrak 1, Amsterdam', near }),
    ]) {
      expect(await issuesOf(res)).toEqual([[path, message]]);
    }
    // A batch item with a bad position is its own 400; the other item is answered.
    const batch = await secret('/v1/validate/batch', { items: [{ query: 'Damrak 1, Amsterdam', near }, { query: 'Damrak 1, Amsterdam' }] });
    const { results } = ValidateBatchResponse.parse(await batch.json());
    expect(results[0]).toMatchObject({ status: 400, error: { message: 'Validation failed', issues: [{ path: path.split('.'), message }] } });
    expect(results[1]).toHaveProperty('verdict');
  });

  it.each([
    [[], 'Name at least one type, or leave `types` out for all'],
    [['house'], undefined],
    [['street', 'street'], 'Each type at most once'],
  ])('types %j is a 400 on both autocomplete endpoints', async (types, message) => {
    for (const res of [await secret('/v1/autocomplete', { query: 'Damrak', types }), await widget({ query: 'Damrak', types })]) {
      const issues = await issuesOf(res);
      expect(issues.length).toBe(1);
      expect(issues[0]?.[0]).toMatch(/^types/);
      if (message) expect(issues[0]?.[1]).toBe(message);
    }
  });

  it('autocomplete passes the position on as its ~1 km cell, and says each suggestion\'s type and matches', async () => {
    const res = await secret('/v1/autocomplete', { query: 'Keizersgr', country: 'NL', near: { lat: 52.37312, lng: 4.89168 } });
    expect(res.status).toBe(200);
    const body = AutocompleteResponse.parse(await res.json());
    const photon = server.emulators.photon.requests.at(-1)?.query;
    const pdok = server.emulators.pdok.requests.find((r) => r.path === '/suggest' && r.query.q === 'Keizersgr')?.query;
    expect([photon?.lat, photon?.lon]).toEqual(['52.37', '4.89']);
    expect([pdok?.lat, pdok?.lon]).toEqual(['52.37', '4.89']);
    const [first] = body.suggestions;
    expect(first?.type).toBe('address');
    expect(first?.matches.map((m) => first.label.slice(m.offset, m.offset + m.length))).toEqual(['Keizersgr']);
  });

  it('the widget endpoint takes near and types, and its suggestions carry type and matches', async () => {
    const res = await widget({ query: 'Damrak', country: 'NL', near: { lat: 52.376, lng: 4.897 }, types: ['street'] });
    expect(res.status).toBe(200);
    const body = WidgetAutocompleteResponse.parse(await res.json());
    expect(body.suggestions.length).toBeGreaterThan(0);
    for (const s of body.suggestions) {
      expect(s.type).toBe('street');
      expect(s.matches.map((m) => s.label.slice(m.offset, m.offset + m.length))).toEqual(['Damrak']);
    }
    const pdok = server.emulators.pdok.requests.at(-1)?.query;
    expect(pdok).toMatchObject({ fq: 'type:(weg)', lat: '52.38', lon: '4.9' });
    expect(server.emulators.photon.requests.at(-1)?.queryAll.layer).toEqual(['street']);
  });

  it('validate passes the position on: Photon and PDOK lat/lon, Nominatim a viewbox', async () => {
    const res = await secret('/v1/validate', { query: 'Damrak 1, 1012 LG Amsterdam', country: 'NL', near: { lat: 52.3751, lng: 4.8961 } });
    expect(res.status).toBe(200);
    expect(server.emulators.photon.requests.at(-1)?.query).toMatchObject({ lat: '52.38', lon: '4.9' });
    expect(server.emulators.pdok.requests.at(-1)?.query).toMatchObject({ lat: '52.38', lon: '4.9' });
    const viewbox = server.emulators.nominatim.requests.at(-1)?.query.viewbox?.split(',').map(Number);
    expect(viewbox).toHaveLength(4);
    const [left, top, right, bottom] = viewbox as [number, number, number, number];
    expect(left < 4.9 && 4.9 < right && bottom < 52.38 && 52.38 < top).toBe(true);
  });
});
