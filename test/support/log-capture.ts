import { pino } from 'pino';
import type { Logger } from '../../src/lib/logger.js';

export interface LogLine {
  level: number;
  msg: string;
  [field: string]: unknown;
}

/** A real pino logger whose lines a test can read (and wait on) instead of stdout. */
export function captureLogs(level = 'info'): { logger: Logger; lines: LogLine[]; messages(msg: string): LogLine[] } {
  const lines: LogLine[] = [];
  const logger = pino({ level }, { write: (line: string) => void lines.push(JSON.parse(line) as LogLine) });
  return { logger, lines, messages: (msg) => lines.filter((line) => line.msg === msg) };
}
