import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { deleteRedisKeys } from '../support/redis-keys.js';
import { ManualClock } from '../../src/lib/clock.js';
import {
  createRateLimiter,
  MemoryRateLimiter,
  type LimitResult,
  type LimitWindow,
  type RateLimiter,
} from '../../src/store/limits/index.js';

const REDIS_URL = 'redis://127.0.0.1:6379';
const RUN_PREFIX = `test:limits:${process.pid}:${randomUUID()}:`;
const SECOND = 1000;

const FIVE_MINUTE: LimitWindow = { name: 'five_minute', max: 10, periodSeconds: 300 };
const DEMO: LimitWindow[] = [
  FIVE_MINUTE,
  { name: 'daily', max: 20, periodSeconds: 86_400 },
  { name: 'weekly', max: 50, periodSeconds: 604_800 },
  { name: 'monthly', max: 200, periodSeconds: 2_592_000 },
];

const open: RateLimiter[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((l) => l.close()));
});

afterAll(() => deleteRedisKeys(REDIS_URL, RUN_PREFIX));

const backends: Array<[string, () => Promise<RateLimiter>]> = [
  ['memory', async () => new MemoryRateLimiter()],
  ['redis', async () => createRateLimiter({ redisUrl: REDIS_URL, keyPrefix: RUN_PREFIX })],
];

async function make(factory: () => Promise<RateLimiter>): Promise<RateLimiter> {
  const limiter = await factory();
  open.push(limiter);
  return limiter;
}

describe.each(backends)('rate limiter (%s)', (_name, factory) => {
  it('admits 10 per 300 s, refuses the 11th until the oldest hit ages out', async () => {
    const limiter = await make(factory);
    const clock = new ManualClock();
    const key = `ip-${randomUUID()}`;
    const first = clock.now();
    for (let i = 0; i < 10; i++) {
      expect((await limiter.hit(key, [FIVE_MINUTE], clock.now())).allowed).toBe(true);
      clock.advance(SECOND);
    }
    // now = first + 10 s: the oldest hit (at `first`) leaves at first + 300 s.
    expect(await limiter.hit(key, [FIVE_MINUTE], clock.now())).toEqual({
      allowed: false,
      exhausted: [{ name: 'five_minute', max: 10, periodSeconds: 300, retryAfterSeconds: 290 }],
    });
    // Part seconds round up; the last half second still reports 1.
    clock.set(first + 299_500);
    expect((await limiter.hit(key, [FIVE_MINUTE], clock.now())).exhausted[0]?.retryAfterSeconds).toBe(1);
    clock.set(first + 300 * SECOND - 1);
    expect((await limiter.hit(key, [FIVE_MINUTE], clock.now())).allowed).toBe(false);

    clock.set(first + 300 * SECOND);
    expect((await limiter.hit(key, [FIVE_MINUTE], clock.now())).allowed).toBe(true);
    // Full again; the next to leave is the second hit, at first + 301 s.
    expect((await limiter.hit(key, [FIVE_MINUTE], clock.now())).exhausted).toEqual([
      { name: 'five_minute', max: 10, periodSeconds: 300, retryAfterSeconds: 1 },
    ]);
  });

  it('reports every exhausted window, each with its own wait', async () => {
    const limiter = await make(factory);
    const clock = new ManualClock();
    const key = `ip-${randomUUID()}`;
    const first = clock.now();
    for (let i = 0; i < 10; i++) {
      expect((await limiter.hit(key, DEMO, clock.now())).allowed).toBe(true);
      clock.advance(10 * SECOND);
    }
    let refused = await limiter.hit(key, DEMO, clock.now());
    expect(refused.exhausted.map((w) => w.name)).toEqual(['five_minute']);

    clock.set(first + 3600 * SECOND);
    for (let i = 0; i < 10; i++) {
      expect((await limiter.hit(key, DEMO, clock.now())).allowed).toBe(true);
      clock.advance(SECOND);
    }
    refused = await limiter.hit(key, DEMO, clock.now());
    expect(refused).toEqual({
      allowed: false,
      exhausted: [
        // Oldest of the last ten hits: first + 3600 s; now is first + 3610 s.
        { name: 'five_minute', max: 10, periodSeconds: 300, retryAfterSeconds: 290 },
        // Oldest of all twenty: `first`.
        { name: 'daily', max: 20, periodSeconds: 86_400, retryAfterSeconds: 86_400 - 3610 },
      ],
    });
  });

  it('records nothing for a refused hit (all-or-nothing)', async () => {
    const limiter = await make(factory);
    const clock = new ManualClock();
    const key = `ip-${randomUUID()}`;
    const windows: LimitWindow[] = [
      { name: 'minute', max: 1, periodSeconds: 60 },
      { name: 'hourly', max: 3, periodSeconds: 3600 },
    ];
    const first = clock.now();
    expect((await limiter.hit(key, windows, first)).allowed).toBe(true);
    // Refused by `minute` while `hourly` has room: these must not spend `hourly`.
    for (const offset of [1, 20, 59]) {
      const result = await limiter.hit(key, windows, first + offset * SECOND);
      expect(result.exhausted.map((w) => w.name)).toEqual(['minute']);
    }
    expect((await limiter.hit(key, windows, first + 60 * SECOND)).allowed).toBe(true);
    expect((await limiter.hit(key, windows, first + 120 * SECOND)).allowed).toBe(true);
    expect(await limiter.hit(key, windows, first + 180 * SECOND)).toEqual({
      allowed: false,
      exhausted: [{ name: 'hourly', max: 3, periodSeconds: 3600, retryAfterSeconds: 3600 - 180 }],
    });
  });

  it('keeps keys independent', async () => {
    const limiter = await make(factory);
    const now = new ManualClock().now();
    const windows: LimitWindow[] = [{ name: 'minute', max: 2, periodSeconds: 60 }];
    const a = `token-a-${randomUUID()}`;
    const b = `token-b-${randomUUID()}`;
    await limiter.hit(a, windows, now);
    await limiter.hit(a, windows, now);
    expect((await limiter.hit(a, windows, now)).allowed).toBe(false);
    expect((await limiter.hit(b, windows, now)).allowed).toBe(true);
    expect((await limiter.hit(b, windows, now)).allowed).toBe(true);
    expect((await limiter.hit(b, windows, now)).allowed).toBe(false);
  });

  it('counts two hits in the same millisecond as two', async () => {
    const limiter = await make(factory);
    const now = new ManualClock().now();
    const windows: LimitWindow[] = [{ name: 'minute', max: 2, periodSeconds: 60 }];
    const key = `same-ms-${randomUUID()}`;
    expect((await limiter.hit(key, windows, now)).allowed).toBe(true);
    expect((await limiter.hit(key, windows, now)).allowed).toBe(true);
    expect((await limiter.hit(key, windows, now)).exhausted[0]?.retryAfterSeconds).toBe(60);
  });

  it('counts several hits at once, all or nothing, and waits for as many to leave (a batch counts its items)', async () => {
    const limiter = await make(factory);
    const clock = new ManualClock();
    const windows: LimitWindow[] = [{ name: 'minute', max: 60, periodSeconds: 60 }];
    const key = `count-${randomUUID()}`;
    const first = clock.now();
    expect((await limiter.hit(key, windows, first, 40)).allowed).toBe(true);
    clock.advance(10 * SECOND);
    expect((await limiter.hit(key, windows, clock.now(), 10)).allowed).toBe(true);
    clock.advance(10 * SECOND);
    // 50 in the window: 11 do not fit; room for them once the 40 at `first` leave (40 s from now).
    expect(await limiter.hit(key, windows, clock.now(), 11)).toEqual({ allowed: false, exhausted: [{ name: 'minute', max: 60, periodSeconds: 60, retryAfterSeconds: 40 }] });
    // The refused 11 were not recorded: 10 still fit, then the window is full.
    expect((await limiter.hit(key, windows, clock.now(), 10)).allowed).toBe(true);
    expect((await limiter.hit(key, windows, clock.now())).allowed).toBe(false);
    // More than the window holds never fits: the answer waits the whole period and records nothing.
    const other = `count-${randomUUID()}`;
    expect(await limiter.hit(other, windows, clock.now(), 61)).toEqual({ allowed: false, exhausted: [{ name: 'minute', max: 60, periodSeconds: 60, retryAfterSeconds: 60 }] });
    expect((await limiter.hit(other, windows, clock.now(), 60)).allowed).toBe(true);
    await expect(limiter.hit(other, windows, clock.now(), 0)).rejects.toThrow(RangeError);
  });

  it('hitAll: records under every key or none, and names each key\'s full windows', async () => {
    const limiter = await make(factory);
    const clock = new ManualClock();
    const minute = (max: number): LimitWindow[] => [{ name: 'minute', max, periodSeconds: 60 }];
    const token = `token-${randomUUID()}`;
    const origin = `origin-${randomUUID()}`;
    const both = [
      { key: token, windows: minute(5) },
      { key: origin, windows: minute(3) },
    ];
    for (let i = 0; i < 3; i++) expect(await limiter.hitAll(both, clock.now())).toEqual({ allowed: true, exhausted: [[], []] });
    clock.advance(10 * SECOND);
    // The origin is full: refused, and the token's count is not used up by it.
    expect(await limiter.hitAll(both, clock.now())).toEqual({
      allowed: false,
      exhausted: [[], [{ name: 'minute', max: 3, periodSeconds: 60, retryAfterSeconds: 50 }]],
    });
    for (let i = 0; i < 2; i++) expect((await limiter.hit(token, minute(5), clock.now())).allowed).toBe(true);
    expect((await limiter.hit(token, minute(5), clock.now())).allowed).toBe(false);
    // Both full: both reported, each with its own wait; a key with no windows counts nothing.
    const none = `none-${randomUUID()}`;
    expect(await limiter.hitAll([...both, { key: none, windows: [] }], clock.now(), 2)).toEqual({
      allowed: false,
      exhausted: [[{ name: 'minute', max: 5, periodSeconds: 60, retryAfterSeconds: 50 }], [{ name: 'minute', max: 3, periodSeconds: 60, retryAfterSeconds: 50 }], []],
    });
    clock.advance(60 * SECOND);
    // Once the origin's hits left (the token's later ones still count): 2 hits at once fit both.
    expect(await limiter.hitAll(both, clock.now(), 2)).toEqual({ allowed: true, exhausted: [[], []] });
    expect((await limiter.hit(origin, minute(3), clock.now())).allowed).toBe(true);
    expect((await limiter.hit(origin, minute(3), clock.now())).allowed).toBe(false);
    await expect(limiter.hitAll([both[0]!, both[0]!], clock.now())).rejects.toThrow(RangeError);
    expect(await limiter.hitAll([], clock.now())).toEqual({ allowed: true, exhausted: [] });
  });

  it('rejects windows that can never admit or release a hit', async () => {
    const limiter = await make(factory);
    await expect(limiter.hit('k', [{ name: 'zero', max: 0, periodSeconds: 60 }], Date.now())).rejects.toThrow(RangeError);
    await expect(limiter.hit('k', [{ name: 'still', max: 1, periodSeconds: 0 }], Date.now())).rejects.toThrow(RangeError);
  });
});

describe('memory and Redis limiters', () => {
  it('give the same answers for the same clock', async () => {
    const memory = await make(backends[0]![1]);
    const redis = await make(backends[1]![1]);
    const key = `parity-${randomUUID()}`;
    const clock = new ManualClock();
    // A deterministic pseudo-random walk: bursts, pauses and out-of-order times over 40 days.
    let seed = 12345;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const answers: Array<[LimitResult, LimitResult]> = [];
    for (let i = 0; i < 600; i++) {
      const r = next();
      clock.advance(r < 0.6 ? Math.floor(next() * 20 * SECOND) : r < 0.95 ? Math.floor(next() * 3 * 3600 * SECOND) : 2 * 86_400 * SECOND);
      const now = next() < 0.05 ? clock.now() - 1500 : clock.now();
      answers.push([await memory.hit(key, DEMO, now), await redis.hit(key, DEMO, now)]);
    }
    for (const [fromMemory, fromRedis] of answers) expect(fromRedis).toEqual(fromMemory);
    const allowed = answers.filter(([m]) => m.allowed).length;
    expect(allowed).toBeGreaterThan(50);
    expect(allowed).toBeLessThan(550);
  });
});
