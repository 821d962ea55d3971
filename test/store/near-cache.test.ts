import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { deleteRedisKeys } from '../support/redis-keys.js';
import { ManualClock } from '../../src/lib/clock.js';
import { createResponseCache, MemoryResponseCache, NearCache, type ResponseCache } from '../../src/store/cache/index.js';

const REDIS_URL = 'redis://127.0.0.1:6379';
const RUN_PREFIX = `test:near:${process.pid}:${randomUUID()}:`;
const NEAR_MS = 1000;

afterAll(() => deleteRedisKeys(REDIS_URL, RUN_PREFIX));

/** A shared cache that counts its reads and can be made unready (Redis down) or slow (a read in flight). */
class SharedStandIn extends MemoryResponseCache {
  ready = true;
  reads = 0;
  /** While set, each read waits for it: a Redis GET still on the wire. */
  gate: Promise<void> | undefined;
  override async getText(key: string): Promise<string | undefined> {
    this.reads += 1;
    const text = await super.getText(key);
    if (this.gate) await this.gate;
    return text;
  }
  override async getTexts(keys: readonly string[]): Promise<(string | undefined)[]> {
    this.reads += 1;
    return super.getTexts(keys);
  }
}

function nearOver() {
  const clock = new ManualClock();
  const shared = new SharedStandIn({ clock });
  return { clock, shared, near: new NearCache(shared, { ttlMs: NEAR_MS, clock }) };
}

describe('near cache in front of the shared cache', () => {
  it('answers a hit read within CACHE_NEAR_MS from memory, and asks the shared cache again after', async () => {
    const { clock, shared, near } = nearOver();
    await shared.setText('k', '{"v":1}', 60_000);
    expect(await near.getText('k')).toBe('{"v":1}');
    // Another instance refreshes the entry: seen here once the near copy has expired, not before.
    await shared.setText('k', '{"v":2}', 60_000);
    clock.advance(NEAR_MS);
    expect(await near.getText('k')).toBe('{"v":1}');
    expect(shared.reads).toBe(1);
    clock.advance(1);
    expect(await near.getText('k')).toBe('{"v":2}');
    expect(shared.reads).toBe(2);
  });

  it('never keeps a miss: an entry another instance writes is found on the next read', async () => {
    const { shared, near } = nearOver();
    expect(await near.getText('k')).toBeUndefined();
    await shared.setText('k', '"there"', 60_000);
    expect(await near.getText('k')).toBe('"there"');
  });

  it('reads its own writes at once, and the shared cache holds them with their full lifetime', async () => {
    const { clock, shared, near } = nearOver();
    await near.set('k', { v: 3 }, 60_000);
    expect(await near.get('k')).toEqual({ v: 3 });
    expect(shared.reads).toBe(0);
    clock.advance(NEAR_MS + 1);
    expect(await near.get('k')).toEqual({ v: 3 });
    expect(shared.reads).toBe(1);
  });

  it('leaves memory unread while the shared cache is not ready (Redis down is a miss, as without it)', async () => {
    const { shared, near } = nearOver();
    await near.setText('k', '"kept"', 60_000);
    shared.ready = false;
    await shared.close();
    expect(await near.getText('k')).toBeUndefined();
    expect(await near.getTexts(['k'])).toEqual([undefined]);
  });

  it('shares one shared read among the requests that miss memory together', async () => {
    const { shared, near } = nearOver();
    await shared.setText('k', '"one"', 60_000);
    let open!: () => void;
    shared.gate = new Promise((resolve) => (open = resolve));
    const reads = [near.getText('k'), near.getText('k'), near.getText('k')];
    open();
    expect(await Promise.all(reads)).toEqual(['"one"', '"one"', '"one"']);
    expect(shared.reads).toBe(1);
  });

  it('keeps the text of a write that overtook a read in flight, not the older text the read brings back', async () => {
    const { shared, near } = nearOver();
    await shared.setText('k', '"old"', 60_000);
    let open!: () => void;
    shared.gate = new Promise((resolve) => (open = resolve));
    const read = near.getText('k');
    // Let the read reach the shared cache (and take the old text) before the write lands.
    await new Promise((resolve) => setImmediate(resolve));
    await near.setText('k', '"new"', 60_000);
    open();
    expect(await read).toBe('"old"');
    shared.gate = undefined;
    expect(await near.getText('k')).toBe('"new"');
  });

  it('serves a batch from memory and reads only the rest from the shared cache, in order', async () => {
    const { shared, near } = nearOver();
    await near.setText('a', '"A"', 60_000);
    await shared.setText('b', '"B"', 60_000);
    expect(await near.getTexts(['a', 'b', 'c'])).toEqual(['"A"', '"B"', undefined]);
    expect(shared.reads).toBe(1);
    expect(await near.getTexts(['b', 'a'])).toEqual(['"B"', '"A"']);
    expect(shared.reads).toBe(1);
  });
});

describe('near cache over Redis (createResponseCache with nearTtlMs)', () => {
  it('a hit read within the window is answered without Redis; the window over, Redis is read again', async () => {
    const clock = new ManualClock();
    const cache: ResponseCache = await createResponseCache({ redisUrl: REDIS_URL, keyPrefix: RUN_PREFIX, nearTtlMs: NEAR_MS, clock });
    const other = new Redis(REDIS_URL);
    try {
      const key = `k-${randomUUID()}`;
      await cache.setText(key, '"first"', 60_000);
      expect(await other.pttl(`${RUN_PREFIX}cache:${key}`)).toBeGreaterThan(NEAR_MS);
      await other.set(`${RUN_PREFIX}cache:${key}`, '"second"', 'PX', 60_000);
      expect(await cache.getText(key)).toBe('"first"');
      clock.advance(NEAR_MS + 1);
      expect(await cache.getText(key)).toBe('"second"');
    } finally {
      other.disconnect();
      await cache.close();
    }
  });

  it('without nearTtlMs every read goes to Redis', async () => {
    const cache = await createResponseCache({ redisUrl: REDIS_URL, keyPrefix: RUN_PREFIX });
    try {
      expect(cache).not.toBeInstanceOf(NearCache);
    } finally {
      await cache.close();
    }
  });
});
