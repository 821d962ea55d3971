import fc from 'fast-check';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AutocompleteResponse, WidgetAutocompleteResponse } from '../../src/contract/autocomplete.js';
import { ValidateBatchResponse } from '../../src/contract/batch.js';
import { HealthResponse, ReadyResponse } from '../../src/contract/health.js';
import { UsageResponse } from '../../src/contract/usage.js';
import { ReverseResponse, WidgetReverseResponse } from '../../src/contract/reverse.js';
import { DemoValidateResponse, ValidateResponse } from '../../src/contract/validate.js';
import { ManualClock } from '../../src/lib/clock.js';
import { STORAGE_BACKENDS } from '../support/backends.js';
import { ConsoleClient } from '../support/console-client.js';
import { startTestServer, type TestServer } from '../support/server.js';
import {
  autocompleteBody,
  batchBody,
  contentType,
  demoBody,
  feedbackBody,
  headerValue,
  oddString,
  queryString,
  rawBody,
  reverseBody,
  validateBody,
} from './arbitraries.js';

/**
 * Property-based fuzzing of every endpoint against the real server on SQLite and on
 * PostgreSQL + Redis: whatever arrives, the answer is never a 5xx, every 4xx has SPEC's
 * `{message, issues?}` shape, and every 200 parses with its contract schema.
 * FUZZ_RUNS scales the cases per property: 200 by default (3 200 cases in all), 6 700 under
 * `npm run fuzz` (107 000 in all: six properties take FUZZ_RUNS each, four half as many).
 * CI replays one fixed seed, FUZZ_SEED replays a reported one, `npm run fuzz` draws new ones.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 200);
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : process.env.FUZZ_RUNS ? undefined : 20261124;
const ORIGIN = 'https://shop.example';
/** Each property's own budget: its runs, on a machine that may be busy. */
const TIMEOUT_MS = Math.max(120_000, RUNS * 500);

const ErrorShape = z.looseObject({
  message: z.string().min(1),
  issues: z.array(z.looseObject({ code: z.string(), path: z.array(z.union([z.string(), z.number()])), message: z.string() })).optional(),
});

interface Sent {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/** Sends one request and checks the answer; throws (with the request) when it breaks the rules. */
async function exchange(server: TestServer, sent: Sent, ok?: z.ZodType): Promise<number> {
  const res = await fetch(`${server.url}${sent.path}`, {
    method: sent.method,
    headers: sent.headers,
    redirect: 'manual',
    ...(sent.body !== undefined && !['GET', 'HEAD'].includes(sent.method) ? { body: sent.body } : {}),
  });
  const text = await res.text();
  const fail = (why: string) => {
    throw new Error(`${why}: ${sent.method} ${sent.path} ${JSON.stringify(sent.headers)} ${JSON.stringify(sent.body?.slice(0, 300))} → ${res.status} ${text.slice(0, 500)}`);
  };
  if (res.status >= 500) fail('server error');
  // HEAD answers carry the headers of the GET, never its body.
  const json = sent.method !== 'HEAD' && (res.headers.get('content-type') ?? '').includes('application/json');
  if (res.status >= 400 && json) {
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      fail('4xx body is not JSON');
    }
    const shape = ErrorShape.safeParse(body);
    if (!shape.success) fail(`4xx body not in SPEC's shape (${shape.error.message})`);
    if (shape.data?.message === 'Validation failed' && !shape.data.issues?.length) fail('Validation failed without issues');
  } else if (res.status >= 400 && sent.method !== 'OPTIONS' && sent.method !== 'HEAD' && !sent.path.startsWith('/dashboard')) {
    fail('4xx of the API without a JSON body');
  }
  if (res.status === 200 && ok) {
    const parsed = ok.safeParse(JSON.parse(text));
    if (!parsed.success) fail(`200 body breaks its contract (${parsed.error.message})`);
  }
  return res.status;
}

describe.each(STORAGE_BACKENDS)('fuzzing every endpoint on %s', (backend) => {
  let server: TestServer;
  let key: string;
  let token: string;
  const clock = new ManualClock();
  const run = <T>(property: fc.IAsyncProperty<[T]>, runs = RUNS) =>
    fc.assert(property, { numRuns: runs, ...(SEED !== undefined ? { seed: SEED } : {}) });
  /** Per-minute limits would otherwise answer most cases 429 before anything deeper runs. */
  const tick = () => clock.advance(1000);

  beforeAll(async () => {
    server = await startTestServer({ backend, redis: backend === 'postgres', clock, env: { PROVIDER_TIMEOUT_MS: '10000' } });
    const account = await server.createAccount({ plan: 'scale' });
    key = account.key;
    token = (await server.createToken(account.accountId, [ORIGIN])).token;
  });
  afterAll(async () => server?.close());

  const secretAuth = () =>
    fc.oneof(
      { weight: 6, arbitrary: fc.constant(`Bearer ${key}`) },
      { weight: 1, arbitrary: headerValue },
      { weight: 1, arbitrary: fc.constantFrom(`bearer ${key}`, `Bearer  ${key} `, `Bearer ${key}x`, `Bearer ${key.slice(0, -1)}`, `Bearer ${token}`, key) },
    );

  const post = (path: fc.Arbitrary<string>, body: fc.Arbitrary<unknown>, auth: () => fc.Arbitrary<string | undefined>, extra: fc.Arbitrary<Record<string, string>> = fc.constant({})) =>
    fc.record({ path, body: rawBody(body), auth: auth(), type: contentType, extra, requestId: fc.option(headerValue, { nil: undefined }) }).map(
      ({ path, body, auth, type, extra, requestId }): Sent => ({
        method: 'POST',
        path,
        body,
        headers: {
          ...(auth !== undefined ? { authorization: auth } : {}),
          ...(type !== undefined ? { 'content-type': type } : {}),
          ...(requestId !== undefined ? { 'x-request-id': requestId } : {}),
          ...extra,
        },
      }),
    );

  it('POST /v1/validate', async () => {
    await run(fc.asyncProperty(post(queryString.map((q) => `/v1/validate${q}`), validateBody, secretAuth), (sent) => exchange(server, sent, ValidateResponse).then(() => undefined)));
  }, TIMEOUT_MS);

  it('POST /v1/autocomplete', async () => {
    await run(fc.asyncProperty(post(queryString.map((q) => `/v1/autocomplete${q}`), autocompleteBody, secretAuth), (sent) => exchange(server, sent, AutocompleteResponse).then(() => undefined)));
  }, TIMEOUT_MS);

  it('POST /v1/reverse and /v1/widget/reverse', async () => {
    const auth = () => fc.oneof({ weight: 5, arbitrary: fc.constant(`Bearer ${key}`) }, { weight: 1, arbitrary: headerValue });
    await run(fc.asyncProperty(post(queryString.map((q) => `/v1/reverse${q}`), reverseBody, auth), (sent) => exchange(server, sent, ReverseResponse).then(() => undefined)), Math.ceil(RUNS / 2));
    const widgetAuth = () => fc.oneof({ weight: 5, arbitrary: fc.constant(`Bearer ${token}`) }, { weight: 1, arbitrary: fc.constant(`Bearer ${key}`) });
    const origin = fc.oneof({ weight: 5, arbitrary: fc.constant({ origin: ORIGIN }) }, { weight: 1, arbitrary: headerValue.map((o) => ({ origin: o })) });
    await run(
      fc.asyncProperty(post(fc.constant('/v1/widget/reverse'), reverseBody, widgetAuth, origin), (sent) => {
        tick();
        return exchange(server, sent, WidgetReverseResponse).then(() => undefined);
      }),
      Math.ceil(RUNS / 2),
    );
  }, TIMEOUT_MS);

  it('POST /v1/validate/batch', async () => {
    await run(fc.asyncProperty(post(queryString.map((q) => `/v1/validate/batch${q}`), batchBody, secretAuth), (sent) => exchange(server, sent, ValidateBatchResponse).then(() => undefined)), Math.ceil(RUNS / 2));
  }, TIMEOUT_MS);

  it('POST /v1/widget/autocomplete', async () => {
    const auth = () => fc.oneof({ weight: 5, arbitrary: fc.constant(`Bearer ${token}`) }, { weight: 1, arbitrary: headerValue }, { weight: 1, arbitrary: fc.constant(`Bearer ${key}`) });
    const origin = fc.oneof({ weight: 5, arbitrary: fc.constant({ origin: ORIGIN }) }, { weight: 2, arbitrary: headerValue.map((origin) => ({ origin })) }, { weight: 1, arbitrary: fc.constant({}) });
    await run(
      fc.asyncProperty(post(fc.constant('/v1/widget/autocomplete'), autocompleteBody, auth, origin), (sent) => {
        tick();
        return exchange(server, sent, WidgetAutocompleteResponse).then(() => undefined);
      }),
    );
  }, TIMEOUT_MS);

  it('OPTIONS /v1/widget/autocomplete', async () => {
    const preflight = fc
      .record({ origin: fc.option(fc.oneof(fc.constant(ORIGIN), headerValue), { nil: undefined }), method: fc.option(fc.oneof(fc.constant('POST'), headerValue), { nil: undefined }) })
      .map(({ origin, method }): Sent => ({
        method: 'OPTIONS',
        path: '/v1/widget/autocomplete',
        headers: { ...(origin !== undefined ? { origin } : {}), ...(method !== undefined ? { 'access-control-request-method': method } : {}) },
      }));
    await run(fc.asyncProperty(preflight, (sent) => exchange(server, sent).then(() => undefined)));
  }, TIMEOUT_MS);

  it('POST /v1/validate/feedback', async () => {
    // Real ids to send (and mangle): a few answers of this account.
    const ids: string[] = [];
    for (const query of ['Damrak 1, 1012 LG Amsterdam', 'Damrak 999, Amsterdam', 'Nowherestraat 1, Amsterdam']) {
      const res = await server.post('/v1/validate', { query, country: 'NL' }, { authorization: `Bearer ${key}` });
      ids.push(ValidateResponse.parse(await res.json()).responseId);
    }
    const statuses = new Set<number>();
    await run(
      fc.asyncProperty(post(fc.constant('/v1/validate/feedback'), feedbackBody(() => ids), secretAuth), async (sent) => {
        tick();
        statuses.add(await exchange(server, sent));
      }),
      Math.ceil(RUNS / 2),
    );
    // The property reached past validation: ids recorded, repeated and refused.
    for (const status of [204, 400, 404]) expect(statuses).toContain(status);
  }, TIMEOUT_MS);

  it('GET /v1/usage', async () => {
    const usage = fc.record({ q: queryString, auth: secretAuth() }).map(({ q, auth }): Sent => ({ method: 'GET', path: `/v1/usage${q}`, headers: { authorization: auth } }));
    await run(fc.asyncProperty(usage, (sent) => exchange(server, sent, UsageResponse).then(() => undefined)), Math.ceil(RUNS / 2));
  }, TIMEOUT_MS);

  it('POST /demo/validate', async () => {
    const ip = fc.ipV4().map((address) => ({ 'x-forwarded-for': address }));
    await run(
      fc.asyncProperty(post(fc.constant('/demo/validate'), demoBody, () => fc.constant(undefined), ip), (sent) => {
        tick();
        return exchange(server, sent, DemoValidateResponse).then(() => undefined);
      }),
    );
  }, TIMEOUT_MS);

  it('any method on any path, health and readiness included', async () => {
    const paths = fc.oneof(
      fc.constantFrom('/healthz', '/readyz', '/openapi.json', '/v1/validate', '/v1/usage', '/widget/v1/', '/v1/nope', '/%00', '/%ff', '/..%2f..%2fetc/passwd', '//healthz'),
      oddString.map((s) => `/${encodeURIComponent(s.replace(/[\uD800-\uDFFF]/g, ''))}`),
    );
    const any = fc
      .record({ method: fc.constantFrom('GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'), path: paths, q: queryString, type: contentType, body: fc.option(oddString, { nil: undefined }) })
      .map(({ method, path, q, type, body }): Sent => ({ method, path: `${path}${q}`, headers: type ? { 'content-type': type } : {}, ...(body !== undefined ? { body } : {}) }));
    await run(
      fc.asyncProperty(any, async (sent) => {
        const schema = sent.path.startsWith('/healthz') ? HealthResponse : sent.path.startsWith('/readyz') ? ReadyResponse : undefined;
        await exchange(server, sent, sent.method === 'GET' ? schema : undefined);
      }),
    );
  }, TIMEOUT_MS);

  it('console forms, with a real CSRF token and session (HTML answers: never a 5xx)', async () => {
    const anonymous = new ConsoleClient(server.url);
    await anonymous.get('/dashboard/signup');
    const member = new ConsoleClient(server.url);
    await member.signUp(`fuzz-${backend}@shop.example`, 'correct horse battery', 'Fuzz');
    const keyId = /data-key-id="([^"]+)"/.exec((await member.get('/dashboard/keys')).html)?.[1] ?? 'key_missing';
    const value = fc.oneof(oddString, fc.constantFrom('live', 'test', 'https://shop.example', `fuzz-${backend}@shop.example`, 'correct horse battery'));
    const form = fc.record({
      who: fc.constantFrom('anonymous', 'member'),
      path: fc.constantFrom('/dashboard/login', '/dashboard/signup', '/dashboard/keys', `/dashboard/keys/${keyId}/rename`, `/dashboard/keys/${keyId}/reveal`, '/dashboard/tokens', '/dashboard/account', '/dashboard/keys/nope/rename'),
      fields: fc.dictionary(fc.constantFrom('csrf', 'email', 'password', 'project', 'invite', 'next', 'name', 'env', 'origins', 'account'), value, { maxKeys: 6 }),
    });
    await run(
      fc.asyncProperty(form, async ({ who, path, fields }) => {
        tick();
        const client = who === 'member' ? member : anonymous;
        const res = await client.post(path, fields);
        if (res.status >= 500) throw new Error(`server error: ${who} POST ${path} ${JSON.stringify(fields)} → ${res.status} ${res.html.slice(0, 300)}`);
      }),
      Math.ceil(RUNS / 2),
    );
  }, TIMEOUT_MS);
});
