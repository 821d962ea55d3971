import { afterAll, describe, expect, it } from 'vitest';
import { closeRedis, connectRedis, REDIS_RECONNECT_MAX_MS } from '../../src/store/cache/connect-redis.js';
import { startRedisProcess } from '../support/redis-process.js';

// While Redis is away, limits answer 503 and the cache misses; once it is back, an instance must
// serve normally again at once (issue 37: within 5 s of a fault's end). ioredis's own backoff grows
// to 2 s between attempts; ours never waits longer than REDIS_RECONNECT_MAX_MS.
describe('Redis reconnects', () => {
  const stops: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const stop of stops.reverse()) await stop();
  });

  it('tries again at most REDIS_RECONNECT_MAX_MS apart while Redis is away, and is ready once it is back', async () => {
    const redis = await startRedisProcess();
    stops.push(() => redis.stop());
    const client = await connectRedis(redis.url, { purpose: 'test' });
    stops.push(() => closeRedis(client));
    const delays: number[] = [];
    // Enough attempts for the backoff to reach its cap (50 ms more per attempt). Not events.once:
    // every refused attempt also emits `error`, which would reject it.
    const enough = REDIS_RECONNECT_MAX_MS / 50 + 2;
    const capped = new Promise<void>((resolve) =>
      client.on('reconnecting', (delay: number) => {
        delays.push(delay);
        if (delays.length === enough) resolve();
      }),
    );
    await redis.stop();
    await capped;
    expect(Math.max(...delays)).toBe(REDIS_RECONNECT_MAX_MS);
    const ready = new Promise<void>((resolve) => client.once('ready', () => resolve()));
    await redis.start();
    await ready;
    expect(await client.ping()).toBe('PONG');
  });
});
