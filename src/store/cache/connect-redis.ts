import { Redis } from 'ioredis';

/**
 * The longest pause between two reconnect attempts. ioredis's default grows to 2 s, so an instance
 * could stay on its fallback (limiter 503) up to 2 s after Redis was back; an attempt against a
 * Redis that is still away costs one refused connection.
 */
export const REDIS_RECONNECT_MAX_MS = 500;

/** Receives store errors that are handled rather than thrown (cache misses, reconnect attempts). */
export type StoreErrorHandler = (error: Error, operation: string) => void;

export interface ConnectRedisOptions {
  /** Who needs Redis, for the start-up error message, e.g. `response cache`. */
  purpose: string;
  onError?: StoreErrorHandler | undefined;
  connectTimeoutMs?: number | undefined;
  /** A command that takes longer rejects, so a stuck Redis never stalls a request. */
  commandTimeoutMs?: number | undefined;
}

/** The URL with its password masked, safe for logs. */
export function redactRedisUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparseable REDIS_URL)';
  }
}

/**
 * Connects before returning, so a configured but unreachable Redis fails start-up with a clear
 * message instead of a limiter that errors (or a cache that misses) on every request.
 * No offline queue: while Redis is down commands fail at once (cache miss, limiter 503)
 * instead of piling up; ioredis keeps reconnecting in the background.
 */
export async function connectRedis(url: string, options: ConnectRedisOptions): Promise<Redis> {
  let lastError: Error | undefined;
  const client = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: options.connectTimeoutMs ?? 5000,
    commandTimeout: options.commandTimeoutMs ?? 2000,
    retryStrategy: (attempt: number) => Math.min(attempt * 50, REDIS_RECONNECT_MAX_MS),
  });
  // Without a listener ioredis prints every reconnect failure to the console.
  client.on('error', (error: Error) => {
    lastError = error;
    safeReport(options.onError, error, 'connection');
  });
  try {
    await client.connect();
  } catch (error) {
    client.disconnect();
    const reason = (lastError ?? toError(error)).message;
    throw new Error(
      `${options.purpose}: Redis at ${redactRedisUrl(url)} is unreachable (${reason}); start Redis or fix REDIS_URL`,
      { cause: error },
    );
  }
  return client;
}

/** Quits politely, or drops the socket when the connection is already gone. */
export async function closeRedis(client: Redis): Promise<void> {
  if (client.status === 'end') return;
  try {
    await client.quit();
  } catch {
    client.disconnect();
  }
}

export function toError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

/** A throwing error handler must not turn a degraded cache into a failed request. */
export function safeReport(handler: StoreErrorHandler | undefined, error: unknown, operation: string): void {
  if (!handler) return;
  try {
    handler(toError(error), operation);
  } catch {
    // ignored on purpose: reporting is best effort
  }
}
