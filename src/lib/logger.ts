import { type DestinationStream, pino, type Logger } from 'pino';
import { stdoutDestination } from './log-destination.js';

export type { Logger };

/**
 * JSON logs; the Authorization header and anything key-like are redacted so keys never reach logs.
 * Lines logged while a request runs (provider failures, say) carry its `reqId`, handed down
 * explicitly (CallContext.requestId, RunOptions.requestId). AsyncLocalStorage would have found it
 * without that, but it turns on promise hooks for every promise of the process: 10-15 % of a
 * cache hit's CPU (issue 11). Without a destination the log goes to stdout through
 * `stdoutDestination`: a log pipe that stops reading or breaks never blocks serving or shutdown.
 */
/** One for the process: every logger shares stdout's backlog count and broken state. */
let stdout: DestinationStream | undefined;

export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = {
    level,
    redact: { paths: ['req.headers.authorization', '*.key', '*.token', 'authorization'], censor: '[redacted]' },
  };
  stdout ??= stdoutDestination();
  return pino(options, destination ?? stdout);
}
