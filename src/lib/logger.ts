import { pino, type Logger } from 'pino';

export type { Logger };

/** JSON logs; the Authorization header and anything key-like are redacted so keys never reach logs. */
export function createLogger(level: string): Logger {
  return pino({
    level,
    redact: { paths: ['req.headers.authorization', '*.key', '*.token', 'authorization'], censor: '[redacted]' },
  });
}
