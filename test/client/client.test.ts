import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AddressdError, createClient } from '../../clients/typescript/src/index.js';
import { ManualClock } from '../../src/lib/clock.js';
import { startTestServer, type TestServer } from '../support/server.js';

/** Rejects with the AddressdError a call threw (and fails when it resolved or threw something else). */
async function failure(call: Promise<unknown>): Promise<AddressdError> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AddressdError);
  return error as AddressdError;
}

/** Issue 29 item 5: @addressd/client against the real service (real app and storage, provider emulators). */
describe('@addressd/client against a running service', () => {
  let server: TestServer;
  let key: string;

  beforeAll(async () => {
    server = await startTestServer({ clock: new ManualClock() });
    ({ key } = await server.createAccount({ plan: 'starter' }));
  });
  afterAll(async () => server?.close());

  it('validate resolves to the answer body', async () => {
    const client = createClient({ baseUrl: server.url, apiKey: key });
    const answer = await client.validate({ query: 'Damrak 1, 1012 LG Amsterdam', country: 'NL' });
    expect(answer).toMatchObject({ verdict: 'valid', cached: false, address: { street: 'Damrak', houseNumber: '1', postcode: '1012 LG' } });
    expect(answer.confidence).toBeGreaterThanOrEqual(80);
  });

  it('validateBatch resolves to one result per item; a bad item is its own result, not a throw', async () => {
    const client = createClient({ baseUrl: server.url, apiKey: key });
    const { results } = await client.validateBatch({
      items: [{ components: { street: 'Dam', houseNumber: '1', postcode: '1012 JS', city: 'Amsterdam' }, country: 'NL' }, { query: '', country: 'NL' }],
    });
    expect(results).toHaveLength(2);
    expect(results[0]).toMatchObject({ verdict: 'valid', address: { street: 'Dam' } });
    expect(results[1]).toMatchObject({ status: 400, error: { message: 'Validation failed', issues: [expect.objectContaining({ path: ['query'] })] } });
  });

  it('autocomplete resolves to suggestions and echoes the session token', async () => {
    const client = createClient({ baseUrl: server.url, apiKey: key });
    const answer = await client.autocomplete({ query: 'Damrak', country: 'NL', limit: 3, sessionToken: 'checkout-1' });
    expect(answer.sessionToken).toBe('checkout-1');
    expect(answer.suggestions.length).toBeGreaterThan(0);
    expect(answer.suggestions.length).toBeLessThanOrEqual(3);
    expect(answer.suggestions[0]?.components.street).toBe('Damrak');
  });

  it('reverse resolves to the nearest addresses with their distance', async () => {
    const client = createClient({ baseUrl: server.url, apiKey: key });
    const answer = await client.reverse({ lat: 52.37632, lng: 4.89605, radiusMeters: 100, limit: 2 });
    expect(answer.cached).toBe(false);
    expect(answer.suggestions[0]).toMatchObject({ label: 'Damrak 1, 1012 LG Amsterdam', type: 'address', distanceMeters: 22 });
    const wrong = await failure(client.reverse({ lat: 95, lng: 4.89605, radiusMeters: 100, limit: 2 }));
    expect(wrong.status).toBe(400);
  });

  it('usage resolves to the report, filtered by source when asked', async () => {
    const { key: own } = await server.createAccount({ plan: 'growth' });
    const client = createClient({ baseUrl: server.url, apiKey: own });
    await client.validate({ query: 'Damrak 1, 1012 LG Amsterdam', country: 'NL', source: 'checkout' });
    const all = await client.usage();
    expect(all).toMatchObject({ plan: 'growth', environment: 'live', filteredBySource: null });
    expect(all.sources).toEqual([expect.objectContaining({ source: 'checkout', n: 1 })]);
    const filtered = await client.usage({ source: 'signup' });
    expect(filtered.filteredBySource).toBe('signup');
    expect(filtered.recent).toEqual([]);
  });

  it('feedback resolves for the answer’s responseId (again for the same conclusion) and is counted in usage', async () => {
    const { key: own } = await server.createAccount({ plan: 'starter' });
    const client = createClient({ baseUrl: server.url, apiKey: own });
    const { responseId } = await client.validate({ query: 'Damrak 1, 1012 LG Amsterdam', country: 'NL' });
    await expect(client.feedback({ responseId, conclusion: 'validated_used' })).resolves.toBeUndefined();
    await expect(client.feedback({ responseId, conclusion: 'validated_used' })).resolves.toBeUndefined();
    expect((await client.usage()).feedback).toEqual({ validated_used: 1, user_used: 0, unvalidated_used: 0, unused: 0 });
  });

  it('feedback throws AddressdError 409 for another conclusion and 404 for an id it never gave', async () => {
    const client = createClient({ baseUrl: server.url, apiKey: key });
    const { responseId } = await client.validate({ query: 'Damrak 1, 1012 LG Amsterdam', country: 'NL' });
    await client.feedback({ responseId, conclusion: 'user_used' });
    expect(await failure(client.feedback({ responseId, conclusion: 'unused' }))).toMatchObject({ status: 409, issues: [] });
    expect(await failure(client.feedback({ responseId: 'rsp_never-given', conclusion: 'unused' }))).toMatchObject({ status: 404, issues: [] });
  });

  it('sends every request through the fetch it was given, with the key as a bearer token', async () => {
    const seen: string[] = [];
    const client = createClient({
      baseUrl: server.url,
      apiKey: key,
      fetch: (request) => {
        seen.push(`${request.method} ${new URL(request.url).pathname} ${request.headers.get('authorization')}`);
        return fetch(request);
      },
    });
    await client.usage();
    expect(seen).toEqual([`GET /v1/usage Bearer ${key}`]);
  });

  it('throws AddressdError 401 with the service’s message for a malformed or unknown key', async () => {
    const malformed = await failure(createClient({ baseUrl: server.url, apiKey: 'not-a-key' }).usage());
    expect(malformed).toMatchObject({ name: 'AddressdError', status: 401, message: 'Malformed API key', issues: [] });
    expect(malformed.retryAfter).toBeUndefined();
    const unknown = await failure(createClient({ baseUrl: server.url, apiKey: `ak_live_${'A'.repeat(43)}` }).validate({ query: 'Damrak 1' }));
    expect(unknown).toMatchObject({ status: 401, message: 'Unknown or revoked API key' });
  });

  it('throws AddressdError 400 carrying the schema issues', async () => {
    const client = createClient({ baseUrl: server.url, apiKey: key });
    const error = await failure(client.validate({ query: 'Damrak 1', country: 'NLD' }));
    expect(error).toMatchObject({ status: 400, message: 'Validation failed' });
    expect(error.issues).toEqual([expect.objectContaining({ path: ['country'], code: expect.any(String), message: expect.any(String) })]);
    const tooMany = await failure(client.autocomplete({ query: 'Damrak', limit: 11 }));
    expect(tooMany.issues).toEqual([expect.objectContaining({ code: 'too_big', path: ['limit'], maximum: 10 })]);
  });

  it('throws AddressdError 429 with retryAfter in seconds when a test key passes its 60 requests a minute', async () => {
    const { key: testKey } = await server.createAccount({ plan: 'starter', env: 'test' });
    const client = createClient({ baseUrl: server.url, apiKey: testKey });
    // The clock stands still: the 61st request of the minute is refused, for the whole minute.
    for (let i = 0; i < 60; i++) await client.usage();
    const error = await failure(client.usage());
    expect(error).toMatchObject({ status: 429, retryAfter: 60, issues: [] });
    expect(error.message).toMatch(/60/);
  });
});
