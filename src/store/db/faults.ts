/** Socket-level failures: the database host is down, unreachable or dropped us. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE']);

/**
 * node-postgres and pg-pool say "the connection is gone" in words, without a code; `timeout
 * expired` is pg's own connect timeout (connectionTimeoutMillis) destroying the socket.
 */
const LOST_CONNECTION = /Connection terminated|not queryable|timeout exceeded when trying to connect|Connection timed out|^timeout expired$/i;

/**
 * SQLite (better-sqlite3 reports extended codes such as SQLITE_IOERR_WRITE): busy or locked past
 * the busy timeout, an I/O error of the disk, a file that cannot be opened right now, a full disk.
 */
const SQLITE_TRANSIENT = /^SQLITE_(BUSY|LOCKED|IOERR|CANTOPEN|FULL)(_|$)/;

/**
 * True when an error means the database cannot be reached right now (the request may succeed
 * shortly), as opposed to a bug or bad data: HTTP answers those 503, not 500.
 * PostgreSQL SQLSTATE classes 08 (connection exception), 57P01-57P03 (terminated by an
 * administrator, crash shutdown, starting up), class 53 (insufficient resources: disk full, out of
 * memory, too many connections); SQLite busy, locked, failing its disk or out of space. A full disk
 * is the operator's to fix, but for the client it is the same "try again shortly": nothing was
 * written (debit and event are one transaction).
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === 'string') {
      if (NETWORK_CODES.has(code) || code.startsWith('08') || code.startsWith('53') || /^57P0[123]$/.test(code)) return true;
      if (SQLITE_TRANSIENT.test(code)) return true;
    }
    if (e instanceof AggregateError && e.errors.some((inner) => isDatabaseUnavailable(inner))) return true;
    if (typeof message === 'string' && LOST_CONNECTION.test(message)) return true;
  }
  return false;
}
