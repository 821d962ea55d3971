import type { Context, ErrorHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { Logger } from '../lib/logger.js';
import { CreditsExhaustedError } from '../engine/errors.js';
import { isDatabaseUnavailable } from '../store/db/faults.js';
import { creditsExhausted, HttpError, Messages, serviceUnavailable } from './errors.js';

/**
 * Renders every thrown error with SPEC's body shapes. The database being unreachable is 503 with
 * Retry-After (the request may succeed shortly); unknown errors are logged and become 500.
 */
export function errorHandler(logger: Logger, consoleUrl: string): ErrorHandler {
  return (error, c) => {
    if (error instanceof CreditsExhaustedError) return render(c, creditsExhausted(error, consoleUrl));
    if (error instanceof HttpError) return render(c, error);
    if (error instanceof HTTPException) {
      // Hono's body parsing: malformed JSON keeps the ValidationError shape every 400 on these routes has.
      if (error.status === 400) {
        return c.json(
          { message: 'Validation failed', issues: [{ code: 'invalid_json', path: [], message: error.message || 'Malformed JSON in request body' }] },
          400,
        );
      }
      // A body that is not declared JSON fails the schema like any other bad body: SPEC gives these
      // endpoints 400 ValidationError, not 415, and the issue says what to send instead.
      if (error.status === 415) {
        return c.json(
          { message: 'Validation failed', issues: [{ code: 'unsupported_media_type', path: [], message: Messages.jsonBodyRequired }] },
          400,
        );
      }
      if (error.status === 413) return c.json({ message: Messages.bodyTooLarge }, 413);
      return c.json({ message: error.message || Messages.internal }, error.status);
    }
    if (isDatabaseUnavailable(error)) {
      logger.warn({ reqId: c.get('requestId'), err: error, path: c.req.path }, 'database unavailable');
      return render(c, serviceUnavailable());
    }
    logger.error({ reqId: c.get('requestId'), err: error, path: c.req.path }, 'unhandled error');
    return c.json({ message: Messages.internal }, 500);
  };
}

function render(c: Context, error: HttpError) {
  for (const [name, value] of Object.entries(error.headers ?? {})) c.header(name, value);
  return c.json({ message: error.message, ...error.body }, error.status);
}
