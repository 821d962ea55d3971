import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { deleteRedisKeys } from '../support/redis-keys.js';
import { ManualClock } from '../../src/lib/clock.js';
import { connectRedis } from '../../src/store/cache/connect-redis.js';
import {
  createResponseCache,
  MemoryResponseCache,
  RedisResponseCache,
  type ResponseCache,
} from '../../src/store/cache/index.js';
import { RunResponseCache } from '../../src/store/cache/run-cache.js';

const REDIS_URL = 'redis://127.0.0.1:6379';
const RUN_PREFIX = `test:cache:${process.pid}:${randomUUID()}:`;

const open: ResponseCache[] = [];
function track<C extends ResponseCache>(cache: C): C {
  open.push(cache);
  return cache;
}

afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
});

afterAll(() => deleteRedisKeys(REDIS_URL, RUN_PREFIX));

/** Pass time without sleeping: the in-process cache on a ManualClock; Redis keeps its own clock (see its PTTL tests). */
const backends: Array<[string, () => Promise<ResponseCache>]> = [
  ['memory', async () => track(new MemoryResponseCache({ clock: new ManualClock() }))],
  ['redis', async () => track(await createResponseCache({ redisUrl: REDIS_URL, keyPrefix: RUN_PREFIX }))],
  // CACHE_NEAR_MS: the same contract with an in-process copy in front of Redis (near-cache.ts).
  ['redis with a near cache', async () => track(await createResponseCache({ redisUrl: REDIS_URL, keyPrefix: RUN_PREFIX, nearTtlMs: 1000, clock: new ManualClock() }))],
];

describe.each(backends)('response cache (%s)', (_name, make) => {
  it('returns what was stored, as JSON', async () => {
    const cache = await make();
    const key = `k-${randomUUID()}`;
    const value = { verdict: 'valid', confidence: 93, address: { city: 'Amsterdam', postcode: '1012 LG' }, tags: [1, 2] };
    expect(await cache.get(key)).toBeUndefined();
    await cache.set(key, value, 60_000);
    expect(await cache.get(key)).toEqual(value);
  });

  it('hands each reader its own copy', async () => {
    const cache = await make();
    const key = `copy-${randomUUID()}`;
    const stored = { list: ['a'] };
    await cache.set(key, stored, 60_000);
    stored.list.push('changed after set');
    const read = await cache.get<{ list: string[] }>(key);
    read?.list.push('changed after get');
    expect(await cache.get(key)).toEqual({ list: ['a'] });
  });

  it('stores JSON text as it is given, read back the same as a stored value', async () => {
    const cache = await make();
    await cache.setText('k-text', '{"attempts":[{"provider":"local","answered":true}]}', 60_000);
    expect(await cache.getText('k-text')).toBe('{"attempts":[{"provider":"local","answered":true}]}');
    expect(await cache.get('k-text')).toEqual({ attempts: [{ provider: 'local', answered: true }] });
    await cache.setText('k-text-none', '{}', 0);
    expect(await cache.getText('k-text-none')).toBeUndefined();
  });

  it('reads and writes several entries at once, as it would one at a time', async () => {
    const cache = await make();
    const [a, b, c, missing] = ['a', 'b', 'c', 'missing'].map((k) => `many-${k}-${randomUUID()}`) as [string, string, string, string];
    await cache.setTexts([
      { key: a, text: '{"n":1}', ttlMs: 60_000 },
      { key: b, text: '{"n":2}', ttlMs: 60_000 },
      // As setText: a non-positive TTL stores nothing.
      { key: c, text: '{"n":3}', ttlMs: 0 },
    ]);
    // In the order asked, a miss where nothing is stored, the same text as getText gives.
    expect(await cache.getTexts([b, missing, a, c, a])).toEqual(['{"n":2}', undefined, '{"n":1}', undefined, '{"n":1}']);
    expect(await cache.getText(a)).toBe('{"n":1}');
    expect(await cache.get(b)).toEqual({ n: 2 });
    expect(await cache.getTexts([])).toEqual([]);
    await cache.setTexts([]);
  });

  it('stores nothing for a non-positive TTL or an undefined value', async () => {
    const cache = await make();
    const key = `none-${randomUUID()}`;
    await cache.set(key, { n: 1 }, 0);
    await cache.set(`${key}-u`, undefined, 60_000);
    expect(await cache.get(key)).toBeUndefined();
    expect(await cache.get(`${key}-u`)).toBeUndefined();
  });
});

// A bulk run's own cache: a value becomes JSON text when first read, not when stored.
describe('run response cache', () => {
  it('gives back the JSON text of what was stored, and each reader its own copy once read', async () => {
    const cache = new RunResponseCache(new ManualClock());
    const value = { verdict: 'valid', address: { city: 'Amsterdam', postcode: undefined }, tags: [1, 2] };
    await cache.set('k', value, 60_000);
    expect(await cache.getText('k')).toBe(JSON.stringify(value));
    const read = await cache.get<{ tags: number[] }>('k');
    read?.tags.push(3);
    value.tags.push(4);
    expect(await cache.getTexts(['k', 'missing'])).toEqual(['{"verdict":"valid","address":{"city":"Amsterdam"},"tags":[1,2]}', undefined]);
  });

  it('evicts the least recently used entry beyond maxEntries', async () => {
    const cache = new RunResponseCache(new ManualClock(), 2);
    await cache.set('a', 1, 60_000);
    await cache.setText('b', '2', 60_000);
    await cache.get('a');
    await cache.set('c', 3, 60_000);
    expect(await cache.get('a')).toBe(1);
    expect(await cache.get('b')).toBeUndefined();
    expect(await cache.get('c')).toBe(3);
  });

  it('once full, makes room by the oldest eighth at once, recently read entries kept', async () => {
    const cache = new RunResponseCache(new ManualClock(), 16);
    for (let i = 0; i < 16; i++) await cache.setText(`k${i}`, `${i}`, 60_000);
    await cache.get('k0');
    await cache.setText('k16', '16', 60_000);
    const held = [];
    for (let i = 0; i <= 16; i++) if ((await cache.getText(`k${i}`)) !== undefined) held.push(i);
    // k0 was read last before the overflow: k1 and k2, the two oldest, made room.
    expect(held).toEqual([0, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]);
  });

  it('forgets an entry after its TTL and stores nothing without one', async () => {
    const clock = new ManualClock();
    const cache = new RunResponseCache(clock);
    await cache.set('ttl', { n: 1 }, 150);
    await cache.set('none', { n: 1 }, 0);
    await cache.set('undefined', undefined, 150);
    clock.advance(149);
    expect(await cache.get('ttl')).toEqual({ n: 1 });
    expect(await cache.get('none')).toBeUndefined();
    expect(await cache.getText('undefined')).toBeUndefined();
    clock.advance(2);
    expect(await cache.get('ttl')).toBeUndefined();
  });
});

describe('memory response cache', () => {
  it('evicts the least recently used entry beyond maxEntries', async () => {
    const cache = new MemoryResponseCache({ maxEntries: 2 });
    await cache.set('a', 1, 60_000);
    await cache.set('b', 2, 60_000);
    await cache.get('a');
    await cache.set('c', 3, 60_000);
    expect(await cache.get('a')).toBe(1);
    expect(await cache.get('b')).toBeUndefined();
    expect(await cache.get('c')).toBe(3);
  });

  it('stays under its approximate size bound', async () => {
    const cache = new MemoryResponseCache({ maxSizeBytes: 1000 });
    for (let i = 0; i < 20; i++) await cache.set(`k${i}`, 'x'.repeat(98), 60_000); // 100 chars of JSON each
    expect(cache.size).toBe(10);
    expect(await cache.get('k19')).toBe('x'.repeat(98));
    expect(await cache.get('k0')).toBeUndefined();
  });

  it('forgets an entry after its TTL', async () => {
    const clock = new ManualClock();
    const cache = track(new MemoryResponseCache({ clock }));
    await cache.set('ttl', { n: 1 }, 150);
    clock.advance(149);
    expect(await cache.get('ttl')).toEqual({ n: 1 });
    clock.advance(2);
    expect(await cache.get('ttl')).toBeUndefined();
  });

  it('overwrites a value and restarts its TTL', async () => {
    const clock = new ManualClock();
    const cache = track(new MemoryResponseCache({ clock }));
    await cache.set('over', 'first', 300);
    clock.advance(150);
    await cache.set('over', 'second', 600);
    clock.advance(300);
    expect(await cache.get('over')).toBe('second');
    clock.advance(301);
    expect(await cache.get('over')).toBeUndefined();
  });

  it('uses the system clock when none is injected', async () => {
    // lru-cache reads performance.now() and memoizes it for a timer tick: both are driven here.
    let now = performance.now();
    const spy = vi.spyOn(performance, 'now').mockImplementation(() => now);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const cache = new MemoryResponseCache();
      await cache.set('k', 1, 100);
      now += 99;
      vi.advanceTimersByTime(99);
      expect(await cache.get('k')).toBe(1);
      now += 2;
      vi.advanceTimersByTime(2);
      expect(await cache.get('k')).toBeUndefined();
    } finally {
      vi.useRealTimers();
      spy.mockRestore();
    }
  });
});

describe('redis response cache', () => {
  it('keeps deployments apart by key prefix and writes SET … PX', async () => {
    const a = (await createResponseCache({ redisUrl: REDIS_URL, keyPrefix: `${RUN_PREFIX}a:` })) as RedisResponseCache;
    const b = (await createResponseCache({ redisUrl: REDIS_URL, keyPrefix: `${RUN_PREFIX}b:` })) as RedisResponseCache;
    open.push(a, b);
    await a.set('same-key', 'from a', 60_000);
    expect(await b.get('same-key')).toBeUndefined();
    expect(await a.get('same-key')).toBe('from a');

    const admin = new Redis(REDIS_URL);
    try {
      expect(await admin.get(a.redisKey('same-key'))).toBe('"from a"');
      const ttl = await admin.pttl(a.redisKey('same-key'));
      expect(ttl).toBeGreaterThan(50_000);
      expect(ttl).toBeLessThanOrEqual(60_000);
    } finally {
      await admin.quit();
    }
  });

  it('overwrites a value and restarts its TTL', async () => {
    const cache = track((await createResponseCache({ redisUrl: REDIS_URL, keyPrefix: RUN_PREFIX })) as RedisResponseCache);
    const key = `over-${randomUUID()}`;
    await cache.set(key, 'first', 30_000);
    await cache.set(key, 'second', 600_000);
    expect(await cache.get(key)).toBe('second');
    const admin = new Redis(REDIS_URL);
    try {
      // Redis expires the key itself; ours is to hand it the right PX on every write.
      expect(await admin.pttl(cache.redisKey(key))).toBeGreaterThan(30_000);
    } finally {
      await admin.quit();
    }
  });

  it('degrades when Redis fails: get is a miss, set is reported and ignored', async () => {
    const errors: string[] = [];
    const cache = await createResponseCache({
      redisUrl: REDIS_URL,
      keyPrefix: RUN_PREFIX,
      onError: (_error, operation) => errors.push(operation),
    });
    await cache.set('k', 1, 60_000);
    expect(await cache.get('k')).toBe(1);

    // A dead client stands in for a Redis that went away while serving.
    const dead = new Redis('redis://127.0.0.1:1', { lazyConnect: true, enableOfflineQueue: false, retryStrategy: () => null });
    const degraded = new RedisResponseCache(dead, {
      keyPrefix: RUN_PREFIX,
      onError: (_error, operation) => errors.push(operation),
    });
    open.push(cache, degraded);
    await expect(degraded.set('k', 2, 60_000)).resolves.toBeUndefined();
    expect(await degraded.get('k')).toBeUndefined();
    expect(errors).toEqual(['set', 'get']);
  });

  it('reads a batch of keys with one MGET and writes a batch in one pipeline: one round trip each', async () => {
    const client = await connectRedis(REDIS_URL, { purpose: 'test' });
    const cache = track(new RedisResponseCache(client, { keyPrefix: RUN_PREFIX }));
    // The client's own commands and the writes on its socket, counted where they leave it.
    const commands: string[] = [];
    const sendCommand = client.sendCommand.bind(client);
    vi.spyOn(client, 'sendCommand').mockImplementation((command, stream) => {
      commands.push(command.name);
      return sendCommand(command, stream);
    });
    const writes = vi.spyOn(client.stream, 'write');
    const keys = Array.from({ length: 100 }, (_, i) => `batch-${i}-${randomUUID()}`);

    await cache.setTexts(keys.map((key, i) => ({ key, text: `{"item":${i}}`, ttlMs: 60_000 + i })));
    expect(commands).toEqual(keys.map(() => 'set'));
    expect(writes).toHaveBeenCalledTimes(1);

    commands.length = 0;
    writes.mockClear();
    const texts = await cache.getTexts([...keys, `never-${randomUUID()}`]);
    expect(commands).toEqual(['mget']);
    expect(writes).toHaveBeenCalledTimes(1);
    expect(texts).toEqual([...keys.map((_, i) => `{"item":${i}}`), undefined]);

    // Every entry kept with its own TTL, as SET … PX would.
    const admin = new Redis(REDIS_URL);
    try {
      const ttl = await admin.pttl(cache.redisKey(keys[99]!));
      expect(ttl).toBeGreaterThan(50_000);
      expect(ttl).toBeLessThanOrEqual(60_099);
    } finally {
      await admin.quit();
    }
    // Nothing to ask, nothing sent.
    commands.length = 0;
    expect(await cache.getTexts([])).toEqual([]);
    await cache.setTexts([{ key: 'zero-ttl', text: '1', ttlMs: 0 }]);
    expect(commands).toEqual([]);
  });

  it('degrades for batches too: a failed MGET is all misses, a failed pipeline is reported once', async () => {
    const errors: string[] = [];
    const dead = new Redis('redis://127.0.0.1:1', { lazyConnect: true, enableOfflineQueue: false, retryStrategy: () => null });
    const degraded = track(new RedisResponseCache(dead, { keyPrefix: RUN_PREFIX, onError: (_error, operation) => errors.push(operation) }));
    await expect(degraded.setTexts([{ key: 'a', text: '1', ttlMs: 60_000 }, { key: 'b', text: '2', ttlMs: 60_000 }])).resolves.toBeUndefined();
    expect(await degraded.getTexts(['a', 'b'])).toEqual([undefined, undefined]);
    expect(errors).toEqual(['set', 'get']);
  });

  it('treats an unreadable stored value as a miss', async () => {
    const errors: Error[] = [];
    const cache = new RedisResponseCache(await connectRedis(REDIS_URL, { purpose: 'test' }), {
      keyPrefix: RUN_PREFIX,
      onError: (error) => errors.push(error),
    });
    open.push(cache);
    const admin = new Redis(REDIS_URL);
    await admin.set(cache.redisKey('broken'), '{not json', 'PX', 60_000);
    await admin.quit();
    expect(await cache.get('broken')).toBeUndefined();
    expect(errors).toHaveLength(1);
  });
});

describe('createResponseCache', () => {
  it('is in-process without a Redis URL', async () => {
    const cache = await createResponseCache({ maxEntries: 5 });
    open.push(cache);
    expect(cache).toBeInstanceOf(MemoryResponseCache);
  });

  it('fails fast with a clear message when Redis is unreachable at start-up', async () => {
    await expect(createResponseCache({ redisUrl: 'redis://:secret@127.0.0.1:1' })).rejects.toThrow(
      /^response cache: Redis at redis:\/\/:\*\*\*@127\.0\.0\.1:1 is unreachable \(.*ECONNREFUSED.*\)/,
    );
  });
});
