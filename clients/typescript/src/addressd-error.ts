import type { ValidationIssue } from './types.js';

/**
 * Every 4xx and 5xx answer of the service, as one error type: `status`, the body's `message`, the
 * schema violations of a 400 (`issues`, else empty) and `retryAfter` (seconds of the `Retry-After`
 * header: a rate limit's 429, a 503). Network failures are not this: they reject with fetch's own error.
 */
export class AddressdError extends Error {
  override readonly name = 'AddressdError';

  constructor(
    readonly status: number,
    message: string,
    readonly issues: readonly ValidationIssue[] = [],
    readonly retryAfter?: number,
  ) {
    super(message);
  }

  /** From an answer that was not 2xx and its body as openapi-fetch read it (JSON when it parsed, else text). */
  static from(response: Response, body: unknown): AddressdError {
    const fields = typeof body === 'object' && body !== null ? (body as { message?: unknown; issues?: unknown }) : {};
    const message =
      typeof fields.message === 'string'
        ? fields.message
        : typeof body === 'string' && body.trim() !== ''
          ? body.trim().slice(0, 200)
          : `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`;
    const issues = Array.isArray(fields.issues) ? (fields.issues as ValidationIssue[]) : [];
    // The service sends whole seconds; an HTTP-date (or garbage) from a proxy is left out, not guessed.
    const header = response.headers.get('retry-after');
    const retryAfter = header !== null && /^\d+$/.test(header.trim()) ? Number(header) : undefined;
    return new AddressdError(response.status, message, issues, retryAfter);
  }
}
