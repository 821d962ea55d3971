import type { Redis } from 'ioredis';
import { closeRedis, safeReport, type StoreErrorHandler } from '../cache/connect-redis.js';
import { type Change, type ChangeFeed, type ChangeListener, LocalChangeFeed, parseChange } from './change-feed.js';

/**
 * The change feed across instances: PUBLISH on one connection, SUBSCRIBE on another (a subscribed
 * connection can do nothing else). A change reaches this process's listeners at once and the
 * others' within a Redis round trip; our own message coming back is delivered again, which is
 * harmless (listeners only drop cached entries). Owns both clients.
 */
export class RedisChangeFeed implements ChangeFeed {
  readonly #local = new LocalChangeFeed();
  readonly #channel: string;

  constructor(
    private readonly publisher: Redis,
    private readonly subscriber: Redis,
    keyPrefix: string,
    private readonly onError?: StoreErrorHandler,
  ) {
    this.#channel = `${keyPrefix}changes`;
    subscriber.on('message', (channel: string, message: string) => {
      if (channel !== this.#channel) return;
      try {
        const change = parseChange(JSON.parse(message));
        if (change) this.#local.deliver(change);
      } catch (error) {
        safeReport(onError, error, 'change feed message');
      }
    });
  }

  /** Resolves once the subscription is in place: changes published after that are heard. */
  async start(): Promise<this> {
    await this.subscriber.subscribe(this.#channel);
    return this;
  }

  publish(change: Change): void {
    this.#local.deliver(change);
    this.publisher.publish(this.#channel, JSON.stringify(change)).catch((error: unknown) => safeReport(this.onError, error, 'change feed publish'));
  }

  subscribe(listener: ChangeListener): () => void {
    return this.#local.subscribe(listener);
  }

  async close(): Promise<void> {
    await this.#local.close();
    await Promise.all([closeRedis(this.publisher), closeRedis(this.subscriber)]);
  }
}
