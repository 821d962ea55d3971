/** Socket-level failures: the database host is down, unreachable or dropped us. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE']);

/**
 * node-postgres and pg-pool say "the connection is gone" in words, without a code; `timeout
 * expired` is pg's own connect timeout (connectionTimeoutMillis) destroying the socket.
 */
const LOST_CONNECTION = /Connection terminated|not queryable|timeout exceeded when trying to connect|Connection timed out|^timeout expired$/i;

/**
 * SQLite (better-sqlite3 reports extended codes such as SQLITE_IOERR_WRITE): busy or locked past
 * the busy timeout, an I/O error of the disk, a file that cannot be opened right now.
 */
const SQLITE_TRANSIENT = /^SQLITE_(BUSY|LOCKED|IOERR|CANTOPEN)(_|$)/;

/**
 * True when an error means the database cannot be reached right now (the request may succeed
 * shortly), as opposed to a bug or bad data: HTTP answers those 503, not 500.
 * PostgreSQL SQLSTATE classes 08 (connection exception), 57P01-57P03 (terminated by an
 * administrator, crash shutdown, starting up), 53300 (too many connections); SQLite busy, locked,
 * or failing its disk.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === 'string') {
      if (NETWORK_CODES.has(code) || code.startsWith('08') || /^57P0[123]$/.test(code) || code === '53300') return true;
      if (SQLITE_TRANSIENT.test(code)) return true;
    }
    if (e instanceof AggregateError && e.errors.some((inner) => isDatabaseUnavailable(inner))) return true;
    if (typeof message === 'string' && LOST_CONNECTION.test(message)) return true;
  }
  return false;
}
