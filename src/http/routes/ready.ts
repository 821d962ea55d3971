import { addressParserReady } from '../../address/parse.js';
import { readyRoute } from '../../contract/routes.js';
import type { RouteModule } from '../context.js';
import { Messages, RETRY_AFTER_UNAVAILABLE_SECONDS } from '../errors.js';

/** A load balancer's probe must answer quickly even when the database hangs rather than refuses. */
const READY_TIMEOUT_MS = 2000;

/**
 * GET /readyz: 503 while the database does not answer a trivial query, so a load balancer sends
 * keyed traffic elsewhere; /healthz keeps saying the process itself is up. Also 503 in the first
 * second or two after a start, while the address parser's classifier is still being built in its
 * thread: a validate then would hold this process until it is (pelias.ts).
 */
export const readyRoutes: RouteModule = (app, services) => {
  const timeoutMs = Math.min(READY_TIMEOUT_MS, services.config.DATABASE_CONNECT_TIMEOUT_MS);
  app.openapi(readyRoute, async (c) => {
    c.header('Cache-Control', 'no-store');
    if (!addressParserReady()) {
      c.header('Retry-After', '1');
      return c.json({ message: Messages.parserNotReady }, 503);
    }
    try {
      await services.database.ping(timeoutMs);
    } catch (error) {
      services.logger.warn({ err: error }, 'not ready: the database does not answer');
      c.header('Retry-After', String(RETRY_AFTER_UNAVAILABLE_SECONDS));
      return c.json({ message: Messages.notReady }, 503);
    }
    return c.json({ status: 'ready' as const }, 200);
  });
};
