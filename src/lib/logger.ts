import { type DestinationStream, pino, type Logger } from 'pino';

export type { Logger };

/**
 * JSON logs; the Authorization header and anything key-like are redacted so keys never reach logs.
 * Lines logged while a request runs (provider failures, say) carry its `reqId`, handed down
 * explicitly (CallContext.requestId, RunOptions.requestId). AsyncLocalStorage would have found it
 * without that, but it turns on promise hooks for every promise of the process: 10-15 % of a
 * cache hit's CPU (issue 11).
 */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = {
    level,
    redact: { paths: ['req.headers.authorization', '*.key', '*.token', 'authorization'], censor: '[redacted]' },
  };
  return destination ? pino(options, destination) : pino(options);
}
