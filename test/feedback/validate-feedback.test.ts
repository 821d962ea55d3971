import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ValidateBatchResponse } from '../../src/contract/batch.js';
import { UsageResponse } from '../../src/contract/usage.js';
import { ValidateResponse } from '../../src/contract/validate.js';
import { ManualClock } from '../../src/lib/clock.js';
import { startTestServer, type TestServer } from '../support/server.js';

const BACKENDS = [
  { name: 'SQLite, in-process limits', backend: 'sqlite', redis: false },
  { name: 'PostgreSQL + Redis', backend: 'postgres', redis: true },
] as const;

const DAY_MS = 86_400_000;
const VALID = { query: 'Damrak 1, 1012 LG Amsterdam', country: 'NL' };
/** The street exists, the number does not: a house gap when the customer insists. */
const NO_NUMBER = { query: 'Damrak 999, 1012 LG Amsterdam', country: 'NL' };
/** No such street: a street gap when the customer insists. */
const NO_STREET = { query: 'Nieuwbouwlaan 7, 1012 LG Amsterdam', country: 'NL' };
/** A typo we corrected: never a gap. */
const TYPO = { query: 'Damrk 1, 1012 LG Amsterdam', country: 'NL' };

/** POST /v1/validate/feedback and the responseId it takes (issue 29 items 1, 2 and 4), end to end on both stores. */
describe.each(BACKENDS)('validation feedback on $name', ({ backend, redis }) => {
  let server: TestServer;
  const clock = new ManualClock(Date.UTC(2026, 10, 21, 12, 0, 0));
  let key: string;
  let accountId: string;

  const auth = (k = key) => ({ authorization: `Bearer ${k}` });
  async function validate(body: object, k = key, path = '/v1/validate'): Promise<ValidateResponse> {
    const res = await server.post(path, body, auth(k));
    expect(res.status).toBe(200);
    return ValidateResponse.parse(await res.json());
  }
  const feedback = (responseId: string, conclusion: string, k = key) => server.post('/v1/validate/feedback', { responseId, conclusion }, auth(k));
  const gapRows = () => server.services.database.db.selectFrom('feedback_gaps').selectAll().where('account_id', '=', accountId).execute();
  const responseRows = () => server.services.database.db.selectFrom('feedback_responses').selectAll().where('account_id', '=', accountId).execute();

  beforeAll(async () => {
    server = await startTestServer({ backend, redis, providers: 'pdok', clock, env: { FEEDBACK_RATE_PER_MINUTE: '1000' } });
    ({ key, accountId } = await server.createAccount({ plan: 'starter' }));
  });
  afterAll(async () => server.close());

  it('gives every answer its own id: fresh, cached and each batch item; the demo none', async () => {
    const first = await validate(VALID);
    const cached = await validate(VALID);
    expect(cached.cached).toBe(true);
    const res = await server.post('/v1/validate/batch', { items: [VALID, VALID, NO_STREET] }, auth());
    const items = ValidateBatchResponse.parse(await res.json()).results.map((r) => ValidateResponse.parse(r));
    const ids = [first.responseId, cached.responseId, ...items.map((i) => i.responseId)];
    expect(ids.every((id) => /^rsp_[A-Za-z0-9_-]{40,}\.[A-Za-z0-9_-]{22}$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    const demo = (await (await server.post('/demo/validate', { query: 'Damrak 1, 1012 LG Amsterdam' })).json()) as Record<string, unknown>;
    expect(demo).not.toHaveProperty('responseId');
    // An id per answer is no database write: nothing is stored until feedback arrives.
    expect(await responseRows()).toEqual([]);
    // Each id takes feedback on its own.
    for (const id of ids) expect((await feedback(id, 'unused')).status).toBe(204);
    expect(await responseRows()).toHaveLength(ids.length);
  });

  it('204 once, 204 for the same conclusion again, 409 with {message} for another', async () => {
    const { responseId } = await validate(VALID);
    expect((await feedback(responseId, 'validated_used')).status).toBe(204);
    const again = await feedback(responseId, 'validated_used');
    expect(again.status).toBe(204);
    expect(await again.text()).toBe('');
    const other = await feedback(responseId, 'unused');
    expect(other.status).toBe(409);
    expect(Object.keys((await other.json()) as object)).toEqual(['message']);
  });

  it("404 {message} for an unknown, tampered or another account's id", async () => {
    const { responseId } = await validate(VALID);
    const other = await server.createAccount({ plan: 'starter' });
    const tampered = responseId.slice(0, -3) + (responseId.endsWith('AAA') ? 'BBB' : 'AAA');
    for (const [id, k] of [
      ['rsp_nothing-like-an-id', key],
      ['not even prefixed', key],
      [tampered, key],
      [responseId, other.key],
    ] as const) {
      const res = await feedback(id, 'user_used', k);
      expect(res.status).toBe(404);
      expect(Object.keys((await res.json()) as object)).toEqual(['message']);
    }
    // The owner can still use it: the failed attempts recorded nothing.
    expect((await feedback(responseId, 'user_used')).status).toBe(204);
  });

  it('400 ValidationError for a bad conclusion or a missing id', async () => {
    const { responseId } = await validate(VALID);
    for (const [body, path] of [
      [{ responseId, conclusion: 'VALIDATED_VERSION_USED' }, 'conclusion'],
      [{ conclusion: 'unused' }, 'responseId'],
    ] as const) {
      const res = await server.post('/v1/validate/feedback', body, auth());
      expect(res.status).toBe(400);
      const json = (await res.json()) as { message: string; issues: { path: unknown[] }[] };
      expect(json.message).toBe('Validation failed');
      expect(json.issues.map((i) => i.path)).toEqual([[path]]);
    }
  });

  it('secret keys only: a publishable token is refused like on every secret-key endpoint', async () => {
    const { responseId } = await validate(VALID);
    const { token } = await server.createToken(accountId, ['https://shop.example']);
    const res = await server.post('/v1/validate/feedback', { responseId, conclusion: 'unused' }, { authorization: `Bearer ${token}`, origin: 'https://shop.example' });
    expect(res.status).toBe(401);
  });

  it('is free: no credits, no usage event', async () => {
    const { responseId } = await validate(VALID);
    const before = await server.services.ledger.balance(accountId);
    const events = async () => (await server.services.database.db.selectFrom('usage_events').select('id').where('account_id', '=', accountId).execute()).length;
    const n = await events();
    expect((await feedback(responseId, 'validated_used')).status).toBe(204);
    expect(await server.services.ledger.balance(accountId)).toEqual(before);
    expect(await events()).toBe(n);
  });

  it('still takes feedback once the credits are exhausted (no quota gate), while validate answers 429', async () => {
    const spent = await server.createAccount({ plan: 'free' });
    const { responseId } = await validate(VALID, spent.key);
    const held = await server.services.ledger.reserve(spent.accountId, 10_000);
    try {
      clock.advance(60_000); // past AUTH_CACHE_MS: the gate reads the exhausted balance
      expect((await server.post('/v1/validate', NO_STREET, auth(spent.key))).status).toBe(429);
      expect((await feedback(responseId, 'validated_used', spent.key)).status).toBe(204);
    } finally {
      await server.services.ledger.release(held!);
    }
  });

  it('the same id from two requests at once is recorded once', async () => {
    const fresh = await server.createAccount({ plan: 'starter' });
    const { responseId } = await validate(VALID, fresh.key);
    const same = await Promise.all([feedback(responseId, 'validated_used', fresh.key), feedback(responseId, 'validated_used', fresh.key)]);
    expect(same.map((r) => r.status)).toEqual([204, 204]);
    const second = (await validate(VALID, fresh.key)).responseId;
    const differing = await Promise.all([feedback(second, 'user_used', fresh.key), feedback(second, 'unused', fresh.key)]);
    expect(differing.map((r) => r.status).sort()).toEqual([204, 409]);
    const usage = UsageResponse.parse(await (await fetch(`${server.url}/v1/usage`, { headers: auth(fresh.key) })).json());
    const total = Object.values(usage.feedback).reduce((a, b) => a + b, 0);
    expect(usage.feedback.validated_used).toBe(1);
    expect(total).toBe(2);
  });

  it('previousResponseId chains re-validations to the first answer: one conclusion per chain, counted once', async () => {
    const fresh = await server.createAccount({ plan: 'starter' });
    const first = await validate(NO_NUMBER, fresh.key);
    const second = await validate({ ...VALID, previousResponseId: first.responseId }, fresh.key);
    const third = await validate({ ...VALID, previousResponseId: second.responseId }, fresh.key);
    expect(third.cached).toBe(true);
    expect((await feedback(third.responseId, 'validated_used', fresh.key)).status).toBe(204);
    // The same checkout: the same conclusion again is a repeat, another one a conflict.
    expect((await feedback(first.responseId, 'validated_used', fresh.key)).status).toBe(204);
    expect((await feedback(second.responseId, 'unused', fresh.key)).status).toBe(409);
    // An id the account cannot use (unknown, another account's) starts a chain of its own.
    const other = await server.createAccount({ plan: 'starter' });
    const foreign = (await validate(VALID, other.key)).responseId;
    for (const previousResponseId of ['rsp_not-an-id', foreign]) {
      const alone = await validate({ ...VALID, previousResponseId }, fresh.key);
      expect((await feedback(alone.responseId, 'unused', fresh.key)).status).toBe(204);
    }
    const usage = UsageResponse.parse(await (await fetch(`${server.url}/v1/usage`, { headers: auth(fresh.key) })).json());
    expect(usage.feedback).toEqual({ validated_used: 1, user_used: 0, unvalidated_used: 0, unused: 2 });
  });

  it('GET /v1/usage counts feedback per conclusion, filtered by ?source=', async () => {
    const fresh = await server.createAccount({ plan: 'starter' });
    const give = async (body: object, conclusion: string, query = '') => {
      const res = await server.post(`/v1/validate${query}`, body, auth(fresh.key));
      const { responseId } = ValidateResponse.parse(await res.json());
      expect((await feedback(responseId, conclusion, fresh.key)).status).toBe(204);
    };
    await give({ ...VALID, source: 'checkout' }, 'validated_used');
    await give(VALID, 'validated_used', '?source=checkout');
    await give({ ...NO_NUMBER, source: 'crm' }, 'user_used');
    await give(VALID, 'unused');
    const usage = async (query = '') => UsageResponse.parse(await (await fetch(`${server.url}/v1/usage${query}`, { headers: auth(fresh.key) })).json()).feedback;
    expect(await usage()).toEqual({ validated_used: 2, user_used: 1, unvalidated_used: 0, unused: 1 });
    expect(await usage('?source=checkout')).toEqual({ validated_used: 2, user_used: 0, unvalidated_used: 0, unused: 0 });
    expect(await usage('?source=crm')).toEqual({ validated_used: 0, user_used: 1, unvalidated_used: 0, unused: 0 });
  });

  it('records an index gap only for user_used on an answer that found no such street or number, deduplicated', async () => {
    const before = await gapRows();
    const insist = async (body: object, conclusion = 'user_used') => {
      const { responseId } = await validate(body);
      expect((await feedback(responseId, conclusion)).status).toBe(204);
    };
    await insist(TYPO); // corrected: a typo, not a gap
    await insist(VALID); // valid
    await insist(NO_NUMBER, 'validated_used'); // took our answer: no gap
    expect(await gapRows()).toHaveLength(before.length);

    await insist(NO_NUMBER);
    clock.advance(60_000);
    await insist({ ...NO_NUMBER, query: 'damrak  999, 1012 lg Amsterdam' }); // the same gap, spelled otherwise
    await insist(NO_STREET);
    const gaps = await server.services.feedback.listGaps({ accountId });
    expect(gaps.map((g) => [g.kind, g.count, g.typed, g.read])).toEqual([
      ['house', 2, { street: 'Damrak', houseNumber: '999', postcode: '1012 LG', city: 'Amsterdam', country: 'NL' }, { street: 'Damrak', postcode: '1012 LG', city: 'Amsterdam', country: 'NL' }],
      ['street', 1, { street: 'Nieuwbouwlaan', houseNumber: '7', postcode: '1012 LG', city: 'Amsterdam', country: 'NL' }, {}],
    ]);
    expect(gaps[0]!.lastSeen > gaps[0]!.firstSeen).toBe(true);
  });

  it('keeps ids and gaps FEEDBACK_RETENTION_DAYS (30): then 404, and the gaps are purged', async () => {
    const fresh = await server.createAccount({ plan: 'starter' });
    const { responseId } = await validate(NO_STREET, fresh.key);
    expect((await feedback(responseId, 'user_used', fresh.key)).status).toBe(204);
    clock.advance(10 * DAY_MS);
    const late = (await validate(NO_STREET, fresh.key)).responseId;
    clock.advance(20 * DAY_MS - 1000);
    // 30 days less a second after the answer: still taken.
    expect((await feedback(responseId, 'user_used', fresh.key)).status).toBe(204);
    clock.advance(2000);
    // 30 days and a second after it: gone for feedback, as if never issued.
    expect((await feedback(responseId, 'user_used', fresh.key)).status).toBe(404);
    expect((await feedback(late, 'user_used', fresh.key)).status).toBe(204);
    await server.services.feedback.purge();
    const rows = await server.services.database.db.selectFrom('feedback_responses').select('response_key').where('account_id', '=', fresh.accountId).execute();
    expect(rows).toHaveLength(1);
    expect(await server.services.feedback.listGaps({ accountId: fresh.accountId })).toMatchObject([{ count: 2 }]);
    // The gap was seen again (late feedback): kept 30 days after that, then purged.
    clock.advance(30 * DAY_MS + 1000);
    expect(await server.services.feedback.listGaps({ accountId: fresh.accountId })).toEqual([]);
    await server.services.feedback.purge();
    expect(await server.services.database.db.selectFrom('feedback_gaps').select('gap_key').where('account_id', '=', fresh.accountId).execute()).toEqual([]);
  });
});

describe('FEEDBACK=off', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ providers: 'pdok', env: { FEEDBACK: 'off' } });
  });
  afterAll(async () => server.close());

  it('checks the id (404 for unknown), answers 204 and records nothing: no row, no count, no gap', async () => {
    const { key, accountId } = await server.createAccount({ plan: 'starter' });
    const auth = { authorization: `Bearer ${key}` };
    const { responseId } = ValidateResponse.parse(await (await server.post('/v1/validate', NO_STREET, auth)).json());
    expect((await server.post('/v1/validate/feedback', { responseId, conclusion: 'user_used' }, auth)).status).toBe(204);
    expect((await server.post('/v1/validate/feedback', { responseId, conclusion: 'unused' }, auth)).status).toBe(204);
    expect((await server.post('/v1/validate/feedback', { responseId: 'rsp_unknown', conclusion: 'unused' }, auth)).status).toBe(404);
    const { db } = server.services.database;
    for (const table of ['feedback_responses', 'feedback_daily', 'feedback_gaps'] as const) {
      expect(await db.selectFrom(table).select('account_id').where('account_id', '=', accountId).execute()).toEqual([]);
    }
    const usage = UsageResponse.parse(await (await fetch(`${server.url}/v1/usage`, { headers: auth })).json());
    expect(usage.feedback).toEqual({ validated_used: 0, user_used: 0, unvalidated_used: 0, unused: 0 });
  });
});

describe.each(BACKENDS)('feedback rate limit on $name', ({ backend, redis }) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ backend, redis, providers: 'pdok', env: { FEEDBACK_RATE_PER_MINUTE: '2' } });
  });
  afterAll(async () => server.close());

  it('its own per-key limit: 429 with Retry-After past FEEDBACK_RATE_PER_MINUTE, validate unaffected', async () => {
    const { key } = await server.createAccount({ plan: 'starter' });
    const auth = { authorization: `Bearer ${key}` };
    const ids: string[] = [];
    for (let i = 0; i < 3; i += 1) ids.push(ValidateResponse.parse(await (await server.post('/v1/validate', VALID, auth)).json()).responseId);
    expect((await server.post('/v1/validate/feedback', { responseId: ids[0], conclusion: 'unused' }, auth)).status).toBe(204);
    expect((await server.post('/v1/validate/feedback', { responseId: ids[1], conclusion: 'unused' }, auth)).status).toBe(204);
    const limited = await server.post('/v1/validate/feedback', { responseId: ids[2], conclusion: 'unused' }, auth);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Object.keys((await limited.json()) as object)).toEqual(['message']);
    expect((await server.post('/v1/validate', VALID, auth)).status).toBe(200);
  });
});
