import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/lib/clock.js';
import { STORAGE_BACKENDS } from '../support/backends.js';
import { ConsoleClient, keyIdsOn, tokenIdsOn } from '../support/console-client.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { oddString, queryString } from './arbitraries.js';

/**
 * The console's paths and queries fuzzed like the API's bodies, on SQLite and on PostgreSQL +
 * Redis: whatever id or query arrives, the answer is never a 5xx, and text the database cannot
 * store (NUL, a lone surrogate) is the same 400 on both stores. Before issue 20, PostgreSQL
 * answered `/dashboard/usage?source=%00` and `/dashboard/keys/key%00x/revoke` with a 500.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 200);
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : process.env.FUZZ_RUNS ? undefined : 20261126;
const TIMEOUT_MS = Math.max(120_000, RUNS * 500);

/** A path segment as raw bytes: NUL, invalid UTF-8 and escapes included. */
const segment: fc.Arbitrary<string> = fc.oneof(
  fc.uint8Array({ minLength: 1, maxLength: 12 }).map((bytes) => [...bytes].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('')),
  oddString.filter((s) => s.length > 0).map((s) => [...s].map((ch) => (/[\uD800-\uDFFF]/.test(ch) && ch.length === 1 ? '%ED%A0%80' : encodeURIComponent(ch))).join('')),
  fc.constantFrom('key%00x', 'tok%00', '%00', 'key_%E2%80%AE', '..', '%2e%2e'),
);

describe.each(STORAGE_BACKENDS)('fuzzing the console routes on %s', (backend) => {
  let server: TestServer;
  let owner: ConsoleClient;
  let keyId: string;
  let tokenId: string;
  const clock = new ManualClock();
  const run = <T>(property: fc.IAsyncProperty<[T]>) => fc.assert(property, { numRuns: RUNS, ...(SEED !== undefined ? { seed: SEED } : {}) });

  beforeAll(async () => {
    server = await startTestServer({ backend, redis: backend === 'postgres', clock });
    owner = new ConsoleClient(server.url);
    await owner.signUp(`console-fuzz-${backend}@shop.example`, 'correct horse battery', 'Fuzz');
    keyId = keyIdsOn((await owner.get('/dashboard/keys')).html)[0]!;
    await owner.post('/dashboard/tokens', { origins: 'https://shop.example', env: 'live' });
    tokenId = tokenIdsOn((await owner.get('/dashboard/tokens')).html)[0]!;
  }, 120_000);
  afterAll(async () => server?.close());

  it('answers NUL in a query or an id with the same 400 on both stores, and changes nothing', async () => {
    const usage = await owner.get('/dashboard/usage?source=%00');
    expect(usage.status).toBe(400);
    expect(usage.html).toContain('cannot be stored');
    await owner.get('/dashboard/keys');
    for (const path of [`/dashboard/keys/key%00x/revoke`, `/dashboard/keys/${keyId}%00/rename`, `/dashboard/tokens/tok%00/revoke`, `/dashboard/tokens/${tokenId}%00/origins`]) {
      const res = await owner.post(path, { name: 'x', origins: 'https://shop.example' });
      expect(res.status, path).toBe(400);
    }
    const rename = await owner.post(`/dashboard/keys/${keyId}/rename`, { name: 'Shop\u0000key' });
    expect(rename.status).toBe(303);
    const keys = await owner.get('/dashboard/keys');
    expect(keys.html).toContain('cannot be stored');
    expect(keys.html).not.toContain('revoked');
    expect(keyIdsOn(keys.html)).toContain(keyId);
  });

  it('GET: any id or query on every console page, logged in or not: never a 5xx', async () => {
    const anonymous = new ConsoleClient(server.url);
    const page = fc.record({
      who: fc.constantFrom('anonymous', 'owner'),
      path: fc.oneof(
        fc.constantFrom('/dashboard', '/dashboard/usage', '/dashboard/keys', '/dashboard/tokens', '/dashboard/login', '/dashboard/signup'),
        segment.map((s) => `/dashboard/${s}`),
        segment.map((s) => `/dashboard/keys/${s}`),
      ),
      q: fc.oneof(queryString, segment.map((s) => `?preview=${s}`), segment.map((s) => `?next=${s}`), segment.map((s) => `?invite=${s}`)),
    });
    await run(
      fc.asyncProperty(page, async ({ who, path, q }) => {
        const res = await (who === 'owner' ? owner : anonymous).get(`${path}${q}`);
        if (res.status >= 500) throw new Error(`server error: ${who} GET ${path}${q} → ${res.status} ${res.html.slice(0, 300)}`);
      }),
    );
  }, TIMEOUT_MS);

  it('POST: any id on the key and token actions, with a real session and CSRF token: never a 5xx', async () => {
    await owner.get('/dashboard/keys');
    const action = fc.record({
      path: fc.oneof(
        fc.tuple(segment, fc.constantFrom('rename', 'revoke', 'reveal')).map(([id, what]) => `/dashboard/keys/${id}/${what}`),
        fc.tuple(segment, fc.constantFrom('origins', 'revoke')).map(([id, what]) => `/dashboard/tokens/${id}/${what}`),
      ),
      q: queryString,
      fields: fc.dictionary(fc.constantFrom('name', 'origins', 'password', 'env'), fc.oneof(oddString, fc.constant('https://shop.example')), { maxKeys: 3 }),
    });
    await run(
      fc.asyncProperty(action, async ({ path, q, fields }) => {
        clock.advance(1000);
        const res = await owner.post(`${path}${q}`, fields);
        if (res.status >= 500) throw new Error(`server error: POST ${path}${q} ${JSON.stringify(fields)} → ${res.status} ${res.html.slice(0, 300)}`);
      }),
    );
    // The owner's own key and token were never touched by ids that are not theirs.
    const keys = await owner.get('/dashboard/keys');
    expect(keyIdsOn(keys.html)).toContain(keyId);
  }, TIMEOUT_MS);
});
