import { readyRoute } from '../../contract/routes.js';
import type { RouteModule } from '../context.js';
import { Messages, RETRY_AFTER_UNAVAILABLE_SECONDS } from '../errors.js';

/** A load balancer's probe must answer quickly even when the database hangs rather than refuses. */
const READY_TIMEOUT_MS = 2000;

/**
 * GET /readyz: 503 while the database does not answer a trivial query, so a load balancer sends
 * keyed traffic elsewhere; /healthz keeps saying the process itself is up.
 */
export const readyRoutes: RouteModule = (app, services) => {
  const timeoutMs = Math.min(READY_TIMEOUT_MS, services.config.DATABASE_CONNECT_TIMEOUT_MS);
  app.openapi(readyRoute, async (c) => {
    c.header('Cache-Control', 'no-store');
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
