import { createLogger, type Logger } from '../../src/lib/logger.js';

export type LogLine = Record<string, unknown> & { level: number; msg: string };

/** A real pino logger (same options as production) whose lines land in `lines`, parsed, and in `raw`. */
export function captureLogs(level = 'info'): { logger: Logger; lines: LogLine[]; raw: string[]; messages(msg: string): LogLine[] } {
  const lines: LogLine[] = [];
  const raw: string[] = [];
  const logger = createLogger(level, {
    write(chunk: string) {
      raw.push(chunk);
      lines.push(JSON.parse(chunk) as LogLine);
    },
  });
  return { logger, lines, raw, messages: (msg) => lines.filter((line) => line.msg === msg) };
}

/** pino's numeric levels. */
export const LEVEL = { info: 30, warn: 40, error: 50 } as const;
