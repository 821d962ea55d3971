import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PLAN_QUOTAS } from '../../src/billing/plans.js';
import { ValidateBatchResponse, type BatchItemError } from '../../src/contract/batch.js';
import type { ValidateResponse } from '../../src/contract/validate.js';
import { ValidateEngine } from '../../src/engine/validate.js';
import { ManualClock } from '../../src/lib/clock.js';
import { startTestServer, type TestServer } from '../support/server.js';

type Result = ValidateBatchResponse['results'][number];
const isError = (r: Result): r is BatchItemError => 'status' in r;

const BACKENDS = [
  { name: 'SQLite, in-process cache', backend: 'sqlite', redis: false },
  { name: 'PostgreSQL + Redis', backend: 'postgres', redis: true },
] as const;

/** POST /v1/validate/batch end to end (issue 13): real app and storage, the three providers as emulators. */
describe.each(BACKENDS)('POST /v1/validate/batch on $name', ({ backend, redis }) => {
  let server: TestServer;
  const providerCalls = () => Object.values(server.emulators).reduce((n, e) => n + e.requests.length, 0);
  const events = (accountId: string) =>
    server.services.database.db
      .selectFrom('usage_events')
      .select(['endpoint', 'query', 'source', 'cached', 'credits', 'verdict'])
      .where('account_id', '=', accountId)
      .orderBy('id')
      .execute();
  const used = async (accountId: string) => (await server.services.ledger.balance(accountId)).usedThisMonth;

  async function batch(key: string, body: unknown, query = ''): Promise<Result[]> {
    const res = await server.post(`/v1/validate/batch${query}`, body, { authorization: `Bearer ${key}` });
    expect(res.status).toBe(200);
    // The answer is the contract's shape, item by item.
    return ValidateBatchResponse.parse(await res.json()).results;
  }

  /** An account of `plan` with only `left` credits of its monthly grant left. */
  async function accountWith(left: number) {
    const account = await server.createAccount({ plan: 'free' });
    const spend = PLAN_QUOTAS.free - left;
    const reservation = await server.services.ledger.reserve(account.accountId, spend);
    await server.services.ledger.settle(reservation!, spend, {
      accountId: account.accountId,
      credentialId: 'earlier',
      env: 'live',
      endpoint: '/v1/validate',
      verdict: 'valid',
      provider: 'pdok',
      latencyMs: 1,
      cached: false,
      query: 'earlier traffic',
      source: null,
    });
    return account;
  }

  beforeAll(async () => {
    // CACHE_NEAR_MS=0: the Redis round trips counted below are Redis's own; a repeat served from the
    // near cache (no command at all) is test/store/near-cache.test.ts's.
    server = await startTestServer({ backend, redis, env: { PROVIDER_TIMEOUT_MS: '15000', CACHE_NEAR_MS: '0' } });
  });
  afterAll(async () => server?.close());

  it('answers each item in input order, bills and records each like a single validate, and caches them', async () => {
    const { key, accountId } = await server.createAccount({ plan: 'starter' });
    const items = [
      { query: 'Damrak 1, 1012 LG Amsterdam', country: 'NL', source: 'own-tag' },
      { query: '', country: 'NL' },
      { components: { street: 'Dam', houseNumber: '1', unit: '2hg', postcode: '1012 JS', city: 'Amsterdam' }, country: 'NL' },
      { country: 'NL' },
      { query: 'Nonexistentweg 12345, Nowhereville', country: 'NL' },
    ];
    const first = await batch(key, { items, source: 'top-level' });
    expect(first).toHaveLength(5);
    const [damrak, empty, dam, neither, unknown] = first as [Result, Result, Result, Result, Result];
    expect(damrak).toMatchObject({ verdict: 'valid', cached: false, address: { street: 'Damrak', houseNumber: '1' } });
    expect(dam).toMatchObject({ verdict: 'valid', cached: false, address: { street: 'Dam', postcode: '1012 JS' } });
    expect(unknown).toMatchObject({ verdict: 'invalid', reasons: expect.arrayContaining(['no_results']), address: null });
    // Each item is shaped like a single answer (issue 27): postal lines, the unit carried, granularity, action.
    expect(damrak).toMatchObject({
      address: { lines: ['Damrak 1', '1012 LG Amsterdam'], formatted: 'Damrak 1, 1012 LG Amsterdam' },
      granularity: { input: 'house', validated: 'house', geocode: 'house' },
      action: 'accept',
      unresolved: [],
      alternatives: [],
    });
    expect(dam).toMatchObject({ address: { unit: '2hg', formatted: 'Dam 1 2hg, 1012 JS Amsterdam' }, components: { unit: 'not-checked' }, granularity: { input: 'unit' }, action: 'accept' });
    expect(unknown).toMatchObject({ granularity: { validated: 'none', geocode: 'none' }, action: 'fix', alternatives: [] });
    // A bad item is its own 400 with SPEC's ValidationError body; paths are relative to the item.
    expect(empty).toEqual({
      status: 400,
      error: { message: 'Validation failed', issues: [expect.objectContaining({ code: 'too_small', path: ['query'], minimum: 1 })] },
    });
    expect(neither).toEqual({
      status: 400,
      error: { message: 'Validation failed', issues: [{ code: 'custom', path: [], message: 'Provide query or components' }] },
    });

    // One event per answered item, endpoint /v1/validate/batch; the item's own source wins over the top-level one.
    // Three providers answer each uncached look-up (no results is still an answer): 3 credits each.
    const recorded = await events(accountId);
    expect(recorded.map((e) => [e.endpoint, e.source, Number(e.cached), Number(e.credits)])).toEqual(
      expect.arrayContaining([
        ['/v1/validate/batch', 'own-tag', 0, 3],
        ['/v1/validate/batch', 'top-level', 0, 3],
        ['/v1/validate/batch', 'top-level', 0, 3],
      ]),
    );
    expect(recorded).toHaveLength(3);
    expect(await used(accountId)).toBe(9);
    // The same answers as single calls would give, from the same cache: the batch filled it.
    const single = await server.post('/v1/validate', items[0], { authorization: `Bearer ${key}` });
    const singleBody = (await single.json()) as ValidateResponse;
    expect(singleBody.cached).toBe(true);
    expect({ ...singleBody, cached: false, responseId: (damrak as ValidateResponse).responseId }).toEqual(damrak);

    // Again: every good item is a cache hit, costs nothing, calls no provider, is still recorded.
    const calls = providerCalls();
    const second = await batch(key, { items: [items[2], items[4]] }, '?source=from-query');
    expect(second.map((r) => !isError(r) && r.cached)).toEqual([true, true]);
    expect({ ...second[0], cached: false, responseId: (dam as ValidateResponse).responseId }).toEqual(dam);
    expect(providerCalls()).toBe(calls);
    expect(await used(accountId)).toBe(9);
    const latest = (await events(accountId)).slice(-2);
    expect(latest.map((e) => [e.endpoint, e.source, Number(e.cached), Number(e.credits)])).toEqual([
      ['/v1/validate/batch', 'from-query', 1, 0],
      ['/v1/validate/batch', 'from-query', 1, 0],
    ]);
  });

  it('bills the whole batch with one reservation and one settle, and holds nothing afterwards', async () => {
    const { key, accountId } = await server.createAccount({ plan: 'starter' });
    const reserve = vi.spyOn(server.services.ledger, 'reserve');
    const settle = vi.spyOn(server.services.ledger, 'settleCalls');
    try {
      const items = ['Stationsplein 1, Utrecht', 'Stationsplein 2, Utrecht', 'Stationsplein 3, Utrecht'].map((query) => ({ query, country: 'NL' }));
      const results = await batch(key, { items });
      expect(results.every((r) => !isError(r) && r.cached === false)).toBe(true);
      expect(reserve).toHaveBeenCalledTimes(1);
      expect(settle).toHaveBeenCalledTimes(1);
    } finally {
      reserve.mockRestore();
      settle.mockRestore();
    }
    // Still one event and 3 credits per item, and the unspent rest of the reservation given back.
    expect((await events(accountId)).map((e) => Number(e.credits))).toEqual([3, 3, 3]);
    expect(await used(accountId)).toBe(9);
    expect(await server.services.ledger.heldReservations()).toBe(0);
  });

  it('looks a repeated item up once: the repeats are what a second single call is, a free cache hit', async () => {
    const { key, accountId } = await server.createAccount({ plan: 'starter' });
    const calls = providerCalls();
    const item = { query: 'Oudegracht 100, 3511 AT Utrecht', country: 'NL' };
    const results = await batch(key, { items: [item, { query: 'Neude 11, Utrecht', country: 'NL' }, item, { ...item, source: 'again' }] });
    expect(results.map((r) => !isError(r) && r.cached)).toEqual([false, false, true, true]);
    const [first, , second, third] = results as ValidateResponse[];
    expect({ ...second, cached: false, responseId: first!.responseId }).toEqual(first);
    expect({ ...third, cached: false, responseId: first!.responseId }).toEqual(first);
    // Two look-ups of three providers each, not four.
    expect(providerCalls() - calls).toBe(6);
    const recorded = await events(accountId);
    expect(recorded).toHaveLength(4);
    expect(recorded.map((e) => [Number(e.cached), Number(e.credits)]).sort()).toEqual([[0, 3], [0, 3], [1, 0], [1, 0]]);
    expect(recorded.filter((e) => e.source === 'again').map((e) => Number(e.cached))).toEqual([1]);
    expect(await used(accountId)).toBe(6);
  });

  it('reads the cache once for the whole batch and writes it once after the settle: on Redis one MGET and one pipeline', async () => {
    const { key } = await server.createAccount({ plan: 'starter' });
    const cache = server.services.cache;
    const spies = {
      getTexts: vi.spyOn(cache, 'getTexts'),
      getText: vi.spyOn(cache, 'getText'),
      setTexts: vi.spyOn(cache, 'setTexts'),
      setText: vi.spyOn(cache, 'setText'),
      set: vi.spyOn(cache, 'set'),
    };
    const settle = vi.spyOn(server.services.ledger, 'settleCalls');
    // The Redis commands on this deployment's cache keys (the limiter's are not the cache's), and
    // the round trips they took: a pipeline's commands reach sendCommand with its stream.
    const cachePrefix = `test:${server.sandbox.id}:cache:`;
    const commands: string[] = [];
    const trips = new Set<unknown>();
    const sendCommand = Redis.prototype.sendCommand;
    const redisSpy = vi.spyOn(Redis.prototype, 'sendCommand').mockImplementation(function (this: Redis, command, stream) {
      if (command.args.some((arg) => String(arg).startsWith(cachePrefix))) {
        commands.push(command.name);
        trips.add((stream as { isPipeline?: boolean } | undefined)?.isPipeline ? stream : command);
      }
      return sendCommand.call(this, command, stream);
    });
    const reset = () => {
      for (const spy of [...Object.values(spies), settle]) spy.mockClear();
      commands.length = 0;
      trips.clear();
    };
    try {
      // 100 items, 50 distinct: each one's repeat 50 items later.
      const items = Array.from({ length: 100 }, (_, i) => ({ query: `Cachestraat ${(i % 50) + 1}, Utrecht`, country: 'NL' }));
      const first = await batch(key, { items });
      expect(first.map((r) => !isError(r) && r.cached)).toEqual(items.map((_, i) => i >= 50));
      expect(spies.getTexts).toHaveBeenCalledTimes(1);
      expect(spies.getTexts.mock.calls[0]?.[0]).toHaveLength(50);
      expect(spies.setTexts).toHaveBeenCalledTimes(1);
      expect(spies.setTexts.mock.calls[0]?.[0]).toHaveLength(50);
      // Nothing cached before the settle committed.
      expect(settle).toHaveBeenCalledTimes(1);
      expect(spies.setTexts.mock.invocationCallOrder[0]).toBeGreaterThan(settle.mock.invocationCallOrder[0]!);
      for (const one of [spies.getText, spies.setText, spies.set]) expect(one).not.toHaveBeenCalled();
      if (redis) {
        expect(commands.filter((c) => c === 'mget')).toHaveLength(1);
        expect(commands.filter((c) => c === 'set')).toHaveLength(50);
        expect(commands).toHaveLength(51);
        expect(trips.size).toBe(2);
      }

      // Again: every item a hit from the one read, and nothing written.
      reset();
      const again = await batch(key, { items });
      expect(again.every((r) => !isError(r) && r.cached)).toBe(true);
      expect(spies.getTexts).toHaveBeenCalledTimes(1);
      for (const write of [spies.setTexts, spies.setText, spies.set]) expect(write).not.toHaveBeenCalled();
      if (redis) {
        expect(commands).toEqual(['mget']);
        expect(trips.size).toBe(1);
      }
    } finally {
      for (const spy of [...Object.values(spies), settle, redisSpy]) spy.mockRestore();
    }
  });

  it('serves, bills and caches nothing of a batch whose settle failed, and gives its credits back', async () => {
    const { key, accountId } = await server.createAccount({ plan: 'starter' });
    const ledger = server.services.ledger;
    const settle = vi.spyOn(ledger, 'settleCalls').mockImplementationOnce(async (reservation) => {
      // As a settle whose transaction failed: the reservation goes back, the error goes up.
      if (reservation) await ledger.release(reservation);
      throw new Error('the database went away');
    });
    const item = { query: 'Janskerkhof 2, 3512 BK Utrecht', country: 'NL' };
    try {
      const res = await server.post('/v1/validate/batch', { items: [item] }, { authorization: `Bearer ${key}` });
      expect(res.status).toBe(500);
      expect(Object.keys((await res.json()) as object)).toEqual(['message']);
    } finally {
      settle.mockRestore();
    }
    expect(await events(accountId)).toHaveLength(0);
    expect(await used(accountId)).toBe(0);
    expect(await ledger.heldReservations()).toBe(0);
    // Its answer was not cached: served free from then on, it would never have been paid for.
    const single = await server.post('/v1/validate', item, { authorization: `Bearer ${key}` });
    expect(((await single.json()) as ValidateResponse).cached).toBe(false);
    expect(await used(accountId)).toBe(3);
  });

  it('keeps its reservation through a batch longer than the sweepers\' age: renewed as its items finish', async () => {
    // A clock moved by hand: each item "takes" 40 % of RESERVATION_MAX_AGE_MS, and after each one
    // another instance sweeps what it takes for a crashed instance's reservations.
    const clock = new ManualClock(Date.UTC(2026, 10, 21, 12, 0, 0));
    const slow = await startTestServer({ backend, redis, sandbox: server.sandbox, clock, env: { BATCH_CONCURRENCY: '1', PROVIDER_TIMEOUT_MS: '15000' } });
    try {
      const maxAge = slow.services.config.RESERVATION_MAX_AGE_MS;
      const { key, accountId } = await slow.createAccount({ plan: 'starter' });
      const swept: number[] = [];
      const original = ValidateEngine.prototype.validate;
      const spy = vi.spyOn(ValidateEngine.prototype, 'validate').mockImplementation(async function (this: ValidateEngine, ...args) {
        const answer = await original.apply(this, args);
        clock.advance(0.4 * maxAge);
        swept.push(await slow.services.ledger.releaseStale(maxAge));
        return answer;
      });
      try {
        const items = ['Lange Nieuwstraat 1, Utrecht', 'Lange Nieuwstraat 2, Utrecht', 'Lange Nieuwstraat 3, Utrecht', 'Lange Nieuwstraat 4, Utrecht'].map((query) => ({ query, country: 'NL' }));
        const res = await slow.post('/v1/validate/batch', { items }, { authorization: `Bearer ${key}` });
        expect(res.status).toBe(200);
        expect(ValidateBatchResponse.parse(await res.json()).results.every((r) => !isError(r))).toBe(true);
      } finally {
        spy.mockRestore();
      }
      // 1.6 × the age in all, and no sweep ever took the batch's reservation: every item billed once.
      expect(swept).toEqual([0, 0, 0, 0]);
      expect((await slow.services.ledger.balance(accountId)).usedThisMonth).toBe(12);
      expect(await slow.services.ledger.heldReservations()).toBe(0);
    } finally {
      await slow.close();
    }
  });

  it('refuses the remaining items with their own 429 when credits run out mid-batch, at no cost', async () => {
    // 6 credits: two uncached look-ups at 3 each. Items run four at a time, so the third and
    // fourth find nothing left to reserve, and the fifth never starts.
    const { key, accountId } = await accountWith(6);
    const items = ['Amstel 1, 1011 PN Amsterdam', 'Prinsengracht 263, 1016 GV Amsterdam', 'Coolsingel 40, 3011 AD Rotterdam', 'Keizersgracht 174A, 1016 DW Amsterdam', 'Damrak 70, 1012 LM Amsterdam'].map(
      (query) => ({ query, country: 'NL' }),
    );
    const results = await batch(key, { items });
    const refused = results.filter(isError);
    expect(results.filter((r) => !isError(r))).toHaveLength(2);
    expect(refused).toHaveLength(3);
    for (const r of refused) {
      expect(r.status).toBe(429);
      expect(Object.keys(r.error)).toEqual(['message']);
      expect(r.error.message).toMatch(/monthly credits exhausted/i);
      expect(r.error.message).toContain('free');
    }
    expect(await used(accountId)).toBe(PLAN_QUOTAS.free);
    expect((await events(accountId)).filter((e) => e.endpoint === '/v1/validate/batch').map((e) => Number(e.credits))).toEqual([3, 3]);
  });

  it('refuses items in input order once credits run out, one at a time with BATCH_CONCURRENCY=1', async () => {
    const serial = await startTestServer({ backend, redis, sandbox: server.sandbox, env: { BATCH_CONCURRENCY: '1', PROVIDER_TIMEOUT_MS: '15000' } });
    try {
      const account = await serial.createAccount({ plan: 'free' });
      const reservation = await serial.services.ledger.reserve(account.accountId, PLAN_QUOTAS.free - 4);
      await serial.services.ledger.settle(reservation!, PLAN_QUOTAS.free - 4, {
        accountId: account.accountId, credentialId: 'earlier', env: 'live', endpoint: '/v1/validate', verdict: null, provider: null, latencyMs: 1, cached: false, query: null, source: null,
      });
      const items = ['Binnenhof 1A, 2513 AA Den Haag', 'Apothekersdijk 2, Leiden', 'Dam 1, 1012 JS Amsterdam'].map((query) => ({ query, country: 'NL' }));
      const res = await serial.post('/v1/validate/batch', { items }, { authorization: `Bearer ${account.key}` });
      const results = ValidateBatchResponse.parse(await res.json()).results;
      // The first takes 3, the second the last 1 (one provider asked, as a single validate would), the third is refused.
      expect(results.map((r) => (isError(r) ? r.status : 200))).toEqual([200, 200, 429]);
      expect((await serial.services.ledger.balance(account.accountId)).available).toBe(0);
    } finally {
      await serial.close();
    }
  });

  it('runs at most BATCH_CONCURRENCY items at once', async () => {
    const { key } = await server.createAccount({ plan: 'starter' });
    let running = 0;
    let most = 0;
    // The batch runs its items through an engine of its own (billed to the batch's reservation).
    const original = ValidateEngine.prototype.validate;
    const spy = vi.spyOn(ValidateEngine.prototype, 'validate').mockImplementation(async function (this: ValidateEngine, ...args) {
      most = Math.max(most, ++running);
      try {
        return await original.apply(this, args);
      } finally {
        running--;
      }
    });
    for (const e of Object.values(server.emulators)) e.setFault({ mode: 'slow', delayMs: 30 });
    try {
      const items = Array.from({ length: 10 }, (_, i) => ({ query: `Teststraat ${i + 1}, Utrecht`, country: 'NL' }));
      const results = await batch(key, { items });
      expect(results.every((r) => !isError(r))).toBe(true);
      expect(spy).toHaveBeenCalledTimes(10);
      expect(most).toBe(4);
    } finally {
      spy.mockRestore();
      for (const e of Object.values(server.emulators)) e.setFault({ mode: 'none' });
    }
  });

  it('says which items no provider answered (their verdict is not a finding), and bills them nothing', async () => {
    const { key, accountId } = await server.createAccount({ plan: 'starter' });
    server.emulators.pdok.setFault({ mode: 'status', status: 500 });
    server.emulators.photon.setFault({ mode: 'status', status: 500 });
    server.emulators.nominatim.setFault({ mode: 'status', status: 500 });
    try {
      const res = await server.post('/v1/validate/batch', { items: [{ query: '' }, { query: 'Kerkstraat 10, Haarlem', country: 'NL' }] }, { authorization: `Bearer ${key}` });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-addressd-unverified')).toBe('providers-unavailable');
      expect(res.headers.get('x-addressd-unverified-items')).toBe('1');
      const [, item] = ValidateBatchResponse.parse(await res.json()).results;
      expect(item).toMatchObject({ verdict: 'invalid', reasons: expect.arrayContaining(['no_results']) });
      expect(await used(accountId)).toBe(0);
    } finally {
      for (const e of Object.values(server.emulators)) e.setFault({ mode: 'none' });
    }
  });

  it('counts each item against an ak_test_ key\'s 60 a minute: a batch beyond the allowance is refused whole, unbilled (issue 28 §10)', async () => {
    const { key, accountId } = await server.createAccount({ plan: 'starter', env: 'test' });
    const post = (items: unknown[]) => server.post('/v1/validate/batch', { items }, { authorization: `Bearer ${key}` });
    const real = (n: number) => Array.from({ length: n }, (_, i) => ({ query: `Kerkstraat ${i + 1}, Haarlem`, country: 'NL' }));
    // 58 items that are their own 400 (no provider asked) and 2 looked up: 60 counted, the minute is full.
    const filler = Array.from({ length: 58 }, () => ({ query: 'x'.repeat(1000) }));
    expect((await post([...filler, ...real(2)])).status).toBe(200);
    const billed = await used(accountId);
    expect(billed).toBeGreaterThan(0);
    const calls = providerCalls();

    const refused = await post(real(3));
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({ message: 'Test key rate limit reached: ak_test_ keys allow 60 validations per minute, and a batch counts each of its items' });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    // Nothing looked up, nothing billed, no usage event.
    expect(providerCalls()).toBe(calls);
    expect(await used(accountId)).toBe(billed);
    expect((await events(accountId)).filter((e) => e.query?.startsWith('Kerkstraat') && Number(e.credits) > 0)).toHaveLength(2);
    // A single validate counts one like any request: refused as well.
    const single = await server.post('/v1/validate', real(1)[0], { authorization: `Bearer ${key}` });
    expect(single.status).toBe(429);

    // A batch larger than the whole minute's allowance never fits: refused at once, whatever was spent.
    const fresh = await server.createAccount({ plan: 'starter', env: 'test' });
    const tooMany = await server.post('/v1/validate/batch', { items: Array.from({ length: 61 }, () => ({ query: 'x' })) }, { authorization: `Bearer ${fresh.key}` });
    expect(tooMany.status).toBe(429);
    expect(tooMany.headers.get('retry-after')).toBe('60');
  });

  it('fails the whole request only for a bad envelope, a bad key, an exhausted account or an oversized body', async () => {
    const { key } = await server.createAccount({ plan: 'starter' });
    const post = (body: unknown, auth = `Bearer ${key}`) => server.post('/v1/validate/batch', body, { authorization: auth });
    for (const body of [{}, { items: [] }, { items: Array.from({ length: 101 }, () => ({ query: 'x' })) }, { items: 'x' }, { items: [{ query: 'x' }], source: '' }]) {
      const res = await post(body);
      expect(res.status, JSON.stringify(body).slice(0, 60)).toBe(400);
      const error = (await res.json()) as { message: string; issues: unknown[] };
      expect(error.message).toBe('Validation failed');
      expect(error.issues.length).toBeGreaterThan(0);
    }
    const malformed = await post('{"items": [');
    expect(malformed.status).toBe(400);

    expect((await post({ items: [{ query: 'x' }] }, 'Bearer nope')).status).toBe(401);
    const exhausted = await accountWith(0);
    const refused = await post({ items: [{ query: 'Damrak 1' }] }, `Bearer ${exhausted.key}`);
    expect(refused.status).toBe(429);
    expect(Object.keys(await refused.json())).toEqual(['message']);

    // 100 items of 1 000 characters (~100 KiB) pass the batch limit though a single validate stops at 64 KiB;
    // each is its own 400 (too long), so no provider is asked.
    const calls = providerCalls();
    const big = await batch(key, { items: Array.from({ length: 100 }, () => ({ query: 'x'.repeat(1000) })) });
    expect(big.map((r) => isError(r) && r.status)).toEqual(Array.from({ length: 100 }, () => 400));
    expect(providerCalls()).toBe(calls);
    const tooBig = await post({ items: [{ query: 'x'.repeat(600 * 1024) }] });
    expect(tooBig.status).toBe(413);
    expect(await tooBig.json()).toEqual({ message: 'Request body too large: the limit for a batch is 512 KiB' });
  });
});

describe('POST /v1/validate/batch in the contract', () => {
  it('is in /openapi.json with its request, item and response schemas', async () => {
    const server = await startTestServer();
    try {
      const doc = (await (await fetch(`${server.url}/openapi.json`)).json()) as Record<string, any>;
      const op = doc.paths['/v1/validate/batch'].post;
      expect(op.security).toEqual([{ secretKey: [] }]);
      expect(op.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ValidateBatchRequest' });
      expect(op.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`)).toEqual(['query:source']);
      expect(Object.keys(op.responses).sort()).toEqual(['200', '400', '401', '413', '429', '503']);
      expect(op.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ValidateBatchResponse' });
      const schemas = doc.components.schemas;
      expect(schemas.ValidateBatchRequest.properties.items).toMatchObject({ type: 'array', minItems: 1, maxItems: 100, items: { $ref: '#/components/schemas/ValidateRequest' } });
      expect(schemas.ValidateBatchRequest.required).toEqual(['items']);
      expect(schemas.ValidateBatchResponse.properties.results.items.anyOf).toEqual([
        { $ref: '#/components/schemas/ValidateResponse' },
        { $ref: '#/components/schemas/BatchItemError' },
      ]);
      expect(schemas.BatchItemError.properties.status).toMatchObject({ enum: [400, 429] });
      expect(op['x-codeSamples'][0].source).toContain('/v1/validate/batch');
    } finally {
      await server.close();
    }
  });
});
