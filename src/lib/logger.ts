import { AsyncLocalStorage } from 'node:async_hooks';
import { type DestinationStream, pino, type Logger } from 'pino';

export type { Logger };

/** The request a log line belongs to: set by the HTTP layer, read by every line logged inside it. */
export const logContext = new AsyncLocalStorage<{ reqId: string }>();

/**
 * JSON logs; the Authorization header and anything key-like are redacted so keys never reach logs.
 * Lines logged while a request runs (provider failures, say) carry its `reqId`, found through
 * AsyncLocalStorage, so no logger has to be handed down through the engine.
 */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = {
    level,
    redact: { paths: ['req.headers.authorization', '*.key', '*.token', 'authorization'], censor: '[redacted]' },
    mixin: () => logContext.getStore() ?? {},
  };
  return destination ? pino(options, destination) : pino(options);
}
