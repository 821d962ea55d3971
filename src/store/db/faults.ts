/** Socket-level failures: the database host is down, unreachable or dropped us. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE']);

/** node-postgres and pg-pool say "the connection is gone" in words, without a code. */
const LOST_CONNECTION = /Connection terminated|not queryable|timeout exceeded when trying to connect|Connection timed out/i;

/**
 * True when an error means the database cannot be reached right now (the request may succeed
 * shortly), as opposed to a bug or bad data: HTTP answers those 503, not 500.
 * PostgreSQL SQLSTATE classes 08 (connection exception), 57P01-57P03 (terminated by an
 * administrator, crash shutdown, starting up), 53300 (too many connections); SQLite busy or locked
 * past its busy timeout.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === 'string') {
      if (NETWORK_CODES.has(code) || code.startsWith('08') || /^57P0[123]$/.test(code) || code === '53300') return true;
      if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED') return true;
    }
    if (e instanceof AggregateError && e.errors.some((inner) => isDatabaseUnavailable(inner))) return true;
    if (typeof message === 'string' && LOST_CONNECTION.test(message)) return true;
  }
  return false;
}
