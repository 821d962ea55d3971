import type { Redis } from 'ioredis';
import { z } from 'zod';
import { closeRedis } from '../cache/connect-redis.js';
import { pooledRandomBytes } from '../../lib/ids.js';
import type { ExhaustedWindow, LimitCheck, LimitResult, LimitsResult, LimitWindow, RateLimiter } from './rate-limiter.js';
import { assertValidChecks, assertValidCount, exhaustedWindow, longestPeriodMs, normalizeNow, periodMs, singleResult } from './sliding-window.js';

/**
 * The sliding log as one Lua script over a sorted set per key (score = hit time in ms), so checking
 * every window of every key and recording the hits is one atomic step across all instances, and one
 * round trip however many keys a request counts under. Time comes from ARGV (the caller's clock),
 * never Redis TIME. Cut-offs are exclusive: a hit counts while t > now - period.
 * KEYS: the logs. ARGV: now, member prefix, hits to record, then per key: expireMs, dropUpTo,
 * its window count, then per window: max, cutoff. Reply: {} when recorded under every key, else
 * {keyIndex, windowIndex, blockingHitScore, ...} for every window without room (the score is `now`
 * when the hits alone exceed the window), and nothing recorded anywhere.
 */
const SLIDING_HIT_LUA = `
local n = tonumber(ARGV[3])
local at = 4
local expires = {}
local full = {}
for k = 1, #KEYS do
  local key = KEYS[k]
  expires[k] = ARGV[at]
  redis.call('ZREMRANGEBYSCORE', key, '-inf', ARGV[at + 1])
  local windows = tonumber(ARGV[at + 2])
  at = at + 3
  for i = 1, windows do
    local max = tonumber(ARGV[at])
    local from = '(' .. ARGV[at + 1]
    at = at + 2
    local count = redis.call('ZCOUNT', key, from, '+inf')
    if count + n > max then
      full[#full + 1] = k
      full[#full + 1] = i
      if n > max then
        full[#full + 1] = ARGV[1]
      else
        local blocking = redis.call('ZRANGEBYSCORE', key, from, '+inf', 'WITHSCORES', 'LIMIT', count + n - max - 1, 1)
        full[#full + 1] = blocking[2]
      end
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
for k = 1, #KEYS do
  redis.call('ZADD', KEYS[k], unpack(members))
  redis.call('PEXPIRE', KEYS[k], expires[k])
end
return {}
`;

// A name of its own: the one-key script of earlier versions (`addressdSlidingHit`) took other arguments.
const COMMAND = 'addressdSlidingHits';

type ClientWithSlidingHit = Redis & {
  /** numkeys, the keys, then ARGV (defined without a fixed key count). */
  [COMMAND](keyCount: number, ...keysThenArgs: string[]): Promise<unknown>;
};

/** Triples of (1-based key index, 1-based window index, score of the hit that must leave). */
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
    client.defineCommand(COMMAND, { lua: SLIDING_HIT_LUA });
    this.#client = client as ClientWithSlidingHit;
    this.#prefix = `${options.keyPrefix ?? 'addressd:'}limit:`;
  }

  /** The Redis key holding `key`'s log: for tests and operators. */
  redisKey(key: string): string {
    return this.#prefix + key;
  }

  async hit(key: string, windows: readonly LimitWindow[], nowMs: number, count = 1): Promise<LimitResult> {
    return singleResult(await this.hitAll([{ key, windows }], nowMs, count));
  }

  async hitAll(checks: readonly LimitCheck[], nowMs: number, count = 1): Promise<LimitsResult> {
    assertValidChecks(checks);
    assertValidCount(count);
    const now = normalizeNow(nowMs);
    // A key without windows has nothing to count (and records nothing).
    const counted = checks.filter((c) => c.windows.length > 0);
    const exhausted = checks.map((): ExhaustedWindow[] => []);
    if (counted.length === 0) return { allowed: true, exhausted };

    // Unique members: two hits in the same millisecond are two hits (the script numbers each).
    const member = `${now}:${pooledRandomBytes(6).toString('base64url')}`;
    const args = [String(now), member, String(count)];
    for (const { windows } of counted) {
      const longestMs = longestPeriodMs(windows);
      args.push(String(Math.ceil(longestMs)), String(now - longestMs), String(windows.length));
      for (const window of windows) args.push(String(window.max), String(now - periodMs(window)));
    }
    const keys = counted.map((c) => this.redisKey(c.key));
    const reply = ScriptReply.parse(await this.#client[COMMAND](keys.length, ...keys, ...args));
    if (reply.length === 0) return { allowed: true, exhausted };

    for (let i = 0; i + 2 < reply.length; i += 3) {
      const check = counted[Number(reply[i]) - 1];
      const window = check?.windows[Number(reply[i + 1]) - 1];
      const blockingHitMs = Number(reply[i + 2]);
      if (!check || !window || !Number.isFinite(blockingHitMs)) {
        throw new Error(`Unexpected rate limit script reply: ${JSON.stringify(reply)}`);
      }
      exhausted[checks.indexOf(check)]!.push(exhaustedWindow(window, blockingHitMs, now));
    }
    return { allowed: false, exhausted };
  }

  async close(): Promise<void> {
    await closeRedis(this.#client);
  }
}
