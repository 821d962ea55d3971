import { connectRedis, type StoreErrorHandler } from '../cache/connect-redis.js';
import { type ChangeFeed, LocalChangeFeed } from './change-feed.js';
import { RedisChangeFeed } from './redis-change-feed.js';

export { type Change, type ChangeFeed, type ChangeListener, LocalChangeFeed, parseChange } from './change-feed.js';
export { RedisChangeFeed } from './redis-change-feed.js';

export interface CreateChangeFeedOptions {
  redisUrl?: string | undefined;
  keyPrefix?: string | undefined;
  onError?: StoreErrorHandler | undefined;
}

/** In-process without Redis; with a Redis URL, subscribed before it returns (fails fast when unreachable). */
export async function createChangeFeed(options: CreateChangeFeedOptions = {}): Promise<ChangeFeed> {
  if (!options.redisUrl) return new LocalChangeFeed();
  const connect = (purpose: string) => connectRedis(options.redisUrl!, { purpose, onError: options.onError, commandTimeoutMs: 2000 });
  const [publisher, subscriber] = await Promise.all([connect('change feed'), connect('change feed subscriber')]);
  return new RedisChangeFeed(publisher, subscriber, options.keyPrefix ?? 'addressd:', options.onError).start();
}
