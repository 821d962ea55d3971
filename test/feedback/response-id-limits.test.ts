import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESPONSE_ID_MAX } from '../../src/contract/feedback.js';
import { ValidateResponse } from '../../src/contract/validate.js';
import type { AnswerForGap } from '../../src/feedback/gap-rule.js';
import { ResponseIds } from '../../src/feedback/response-ids.js';
import { ManualClock } from '../../src/lib/clock.js';
import { Signer } from '../../src/lib/signer.js';
import { startTestServer, type TestServer } from '../support/server.js';

/**
 * Issue 36: a response id always fits the bound feedback accepts (an id that would not leaves the
 * address out), an unusable previousResponseId starts a new chain and never fails the call, and
 * the feedback limit is the account's, not each key's.
 */
const ASTRAL = '𠀀'; // 4 bytes of UTF-8: the costliest character an id can carry
const longest = (n: number) => ASTRAL.repeat(n);

describe('ResponseIds at the limits the API allows', () => {
  const clock = new ManualClock(Date.UTC(2026, 10, 28));
  const ids = new ResponseIds(new Signer(Buffer.alloc(32, 7), 'response ids'), clock, 30 * 86_400_000);
  const input = { street: longest(200), houseNumber: longest(20), postcode: longest(20), city: longest(100), country: 'NL' };
  const noStreet = (address: AnswerForGap['address']): AnswerForGap => ({ verdict: 'invalid', reasons: ['no_results'], components: {}, address });

  it('the longest address, source and chain give an id within RESPONSE_ID_MAX, without the address', () => {
    const first = ids.issue('acc_1', longest(64), noStreet(null), input, false);
    const id = ids.issue('acc_1', longest(64), noStreet(null), input, false, first);
    expect(first.length).toBeLessThanOrEqual(RESPONSE_ID_MAX);
    expect(id.length).toBeLessThanOrEqual(RESPONSE_ID_MAX);
    const opened = ids.open('acc_1', id);
    expect(opened?.facts.gap).toBeUndefined();
    expect(opened?.facts.source).toBe(longest(64));
    // Still chained to the first answer.
    expect(opened?.key).toBe(ids.open('acc_1', first)?.key);
  });

  it('the report: 東×200 as the street, typed and read, fits with the address left out', () => {
    const street = '東'.repeat(200);
    const address = { street, houseNumber: '2', postcode: '100-0001', city: '東京', country: 'JP', lat: 35.68, lng: 139.76, lines: [], formatted: '', inferred: [] };
    const house: AnswerForGap = { verdict: 'invalid', reasons: ['no_house_number_match'], components: { street: 'match', houseNumber: 'mismatch' }, address };
    const id = ids.issue('acc_1', null, house, { street, houseNumber: '1', postcode: '100-0001', city: '東京', country: 'JP' }, false);
    expect(id.length).toBeLessThanOrEqual(RESPONSE_ID_MAX);
    expect(ids.open('acc_1', id)?.facts.gap).toBeUndefined();
  });

  it('an address that fits keeps its gap', () => {
    const id = ids.issue('acc_1', 'checkout', noStreet(null), { street: 'Nieuwbouwlaan', houseNumber: '7', postcode: '1012 LG', city: 'Amsterdam', country: 'NL' }, false);
    expect(ids.open('acc_1', id)?.facts.gap).toEqual({ kind: 'street', typed: { street: 'Nieuwbouwlaan', houseNumber: '7', postcode: '1012 LG', city: 'Amsterdam', country: 'NL' }, read: {} });
  });
});

const BACKENDS = [
  { name: 'SQLite, in-process limits', backend: 'sqlite', redis: false },
  { name: 'PostgreSQL + Redis', backend: 'postgres', redis: true },
] as const;
const VALID = { query: 'Damrak 1, 1012 LG Amsterdam', country: 'NL' };

describe.each(BACKENDS)('response ids and the feedback limit on $name', ({ backend, redis }) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ backend, redis, providers: 'pdok', env: { FEEDBACK_RATE_PER_MINUTE: '2' } });
  });
  afterAll(async () => server?.close());

  const auth = (key: string) => ({ authorization: `Bearer ${key}` });
  async function validate(body: object, key: string): Promise<ValidateResponse> {
    const res = await server.post('/v1/validate', body, auth(key));
    expect(res.status).toBe(200);
    return ValidateResponse.parse(await res.json());
  }

  it('a long non-Latin street gives an id feedback accepts', async () => {
    const { key } = await server.createAccount({ plan: 'starter' });
    const answer = await validate({ components: { street: '東'.repeat(200), houseNumber: '1', postcode: '1012 LG', city: 'Amsterdam', country: 'NL' } }, key);
    expect(answer.responseId.length).toBeLessThanOrEqual(RESPONSE_ID_MAX);
    expect((await server.post('/v1/validate/feedback', { responseId: answer.responseId, conclusion: 'user_used' }, auth(key))).status).toBe(204);
  });

  it.each([
    ['over 1024 characters', `rsp_${'A'.repeat(1400)}`],
    ['cut', 'rsp_AbC'],
    ['not an id at all', 'hello'],
    ['with control characters', 'rsp_\u001b[2J'],
    ['empty', ''],
  ])('a previousResponseId %s starts a new chain; the call answers 200', async (_name, previousResponseId) => {
    const { key } = await server.createAccount({ plan: 'starter' });
    const answer = await validate({ ...VALID, previousResponseId }, key);
    expect(answer.verdict).toBe('valid');
    // Its own chain: a conclusion on it is its own (no conflict with anything earlier).
    expect((await server.post('/v1/validate/feedback', { responseId: answer.responseId, conclusion: 'unused' }, auth(key))).status).toBe(204);
  });

  it('the feedback limit is per account: a second key of the account shares it', async () => {
    const first = await server.createAccount({ plan: 'starter' });
    const secondKey = (await server.services.secretKeys.create(first.accountId, 'live')).key;
    const other = await server.createAccount({ plan: 'starter' });
    const ids: string[] = [];
    for (let i = 0; i < 3; i += 1) ids.push((await validate(VALID, first.key)).responseId);
    const give = (responseId: string, key: string) => server.post('/v1/validate/feedback', { responseId, conclusion: 'unused' }, auth(key));
    expect((await give(ids[0]!, first.key)).status).toBe(204);
    expect((await give(ids[1]!, secondKey)).status).toBe(204);
    const limited = await give(ids[2]!, secondKey);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another account has its own allowance.
    const otherId = (await validate(VALID, other.key)).responseId;
    expect((await give(otherId, other.key)).status).toBe(204);
  });
});
