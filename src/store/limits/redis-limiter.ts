import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import { closeRedis } from '../cache/connect-redis.js';
import type { ExhaustedWindow, LimitResult, LimitWindow, RateLimiter } from './rate-limiter.js';
import { assertValidCount, assertValidWindows, exhaustedWindow, longestPeriodMs, normalizeNow, periodMs } from './sliding-window.js';

/**
 * The sliding log as one Lua script over a sorted set (score = hit time in ms), so checking every
 * window and recording the hit is one atomic step across all instances. Time comes from ARGV (the
 * caller's clock), never Redis TIME. Cut-offs are exclusive: a hit counts while t > now - period.
 * KEYS[1] log; ARGV: now, member prefix, expireMs, dropUpTo, hits to record, then per window: max,
 * cutoff. Reply: {} when recorded, else {windowIndex, blockingHitScore, ...} for every window
 * without room (the score is `now` when the hits alone exceed the window).
 */
const SLIDING_HIT_LUA = `
local key = KEYS[1]
redis.call('ZREMRANGEBYSCORE', key, '-inf', ARGV[4])
local n = tonumber(ARGV[5])
local full = {}
local windows = (#ARGV - 5) / 2
for i = 1, windows do
  local max = tonumber(ARGV[4 + 2 * i])
  local from = '(' .. ARGV[5 + 2 * i]
  local count = redis.call('ZCOUNT', key, from, '+inf')
  if count + n > max then
    full[#full + 1] = i
    if n > max then
      full[#full + 1] = ARGV[1]
    else
      local blocking = redis.call('ZRANGEBYSCORE', key, from, '+inf', 'WITHSCORES', 'LIMIT', count + n - max - 1, 1)
      full[#full + 1] = blocking[2]
    end
  end
end
if #full > 0 then
  return full
end
local members = {}
for j = 1, n do
  members[#members + 1] = ARGV[1]
  members[#members + 1] = ARGV[2] .. ':' .. j
end
redis.call('ZADD', key, unpack(members))
redis.call('PEXPIRE', key, ARGV[3])
return {}
`;

const COMMAND = 'addressdSlidingHit';

type ClientWithSlidingHit = Redis & {
  [COMMAND](key: string, ...args: string[]): Promise<unknown>;
};

/** Pairs of (1-based window index, score of the hit that must leave). */
const ScriptReply = z.array(z.union([z.number(), z.string()]));

export interface RedisRateLimiterOptions {
  /** Prefix shared with the response cache, so deployments can share one Redis. */
  keyPrefix?: string;
}

/**
 * Redis sliding log. Errors propagate: a limiter that cannot count must not let everything
 * through (the route answers 503), unlike the cache, which degrades to a miss.
 * Owns the client: close() quits it.
 */
export class RedisRateLimiter implements RateLimiter {
  readonly #client: ClientWithSlidingHit;
  readonly #prefix: string;

  constructor(client: Redis, options: RedisRateLimiterOptions = {}) {
    client.defineCommand(COMMAND, { numberOfKeys: 1, lua: SLIDING_HIT_LUA });
    this.#client = client as ClientWithSlidingHit;
    this.#prefix = `${options.keyPrefix ?? 'addressd:'}limit:`;
  }

  /** The Redis key holding `key`'s log: for tests and operators. */
  redisKey(key: string): string {
    return this.#prefix + key;
  }

  async hit(key: string, windows: readonly LimitWindow[], nowMs: number, count = 1): Promise<LimitResult> {
    assertValidWindows(windows);
    assertValidCount(count);
    const now = normalizeNow(nowMs);
    if (windows.length === 0) return { allowed: true, exhausted: [] };

    const longestMs = longestPeriodMs(windows);
    // Unique members: two hits in the same millisecond are two hits (the script numbers each).
    const member = `${now}:${randomBytes(6).toString('base64url')}`;
    const args = [String(now), member, String(Math.ceil(longestMs)), String(now - longestMs), String(count)];
    for (const window of windows) args.push(String(window.max), String(now - periodMs(window)));

    const reply = ScriptReply.parse(await this.#client[COMMAND](this.redisKey(key), ...args));
    if (reply.length === 0) return { allowed: true, exhausted: [] };

    const exhausted: ExhaustedWindow[] = [];
    for (let i = 0; i + 1 < reply.length; i += 2) {
      const window = windows[Number(reply[i]) - 1];
      const blockingHitMs = Number(reply[i + 1]);
      if (!window || !Number.isFinite(blockingHitMs)) {
        throw new Error(`Unexpected rate limit script reply: ${JSON.stringify(reply)}`);
      }
      exhausted.push(exhaustedWindow(window, blockingHitMs, now));
    }
    return { allowed: false, exhausted };
  }

  async close(): Promise<void> {
    await closeRedis(this.#client);
  }
}
