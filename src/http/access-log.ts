import { randomUUID } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import type { Services } from '../services.js';
import type { AppEnv } from './context.js';

/** A caller's id is kept only when short and plain: it lands in logs and headers as is. */
const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

export function requestIdFrom(header: string | undefined): string {
  return header !== undefined && SAFE_REQUEST_ID.test(header) ? header : randomUUID();
}

/**
 * The route pattern that answered (`/dashboard/keys/:id`), not the raw path: metrics labels and
 * log fields stay few. Middleware-only answers (CORS preflight, auth refusals) name the path they
 * were registered on; a path no route knows is `unmatched`.
 */
export function routeOf(c: Context): string {
  const routes = matchedRoutes(c);
  const handler = routes.findLast((r) => r.method !== 'ALL');
  if (handler) return handler.path;
  return routes.findLast((r) => !r.path.endsWith('*'))?.path ?? 'unmatched';
}

/**
 * First middleware of the app: request id in and out (`X-Request-Id`), one access-log line per
 * request (method, route, status, latency, account; never a credential) and the HTTP metrics.
 */
export function accessLog(services: Services): MiddlewareHandler<AppEnv> {
  const { logger, metrics } = services;
  return async (c, next) => {
    const started = performance.now();
    const reqId = requestIdFrom(c.req.header('x-request-id'));
    c.set('requestId', reqId);
    // Before the answer exists: set afterwards, hono would copy the finished response into a new
    // one (a full web Response with a body stream), which cost a third of /healthz's time.
    c.header('X-Request-Id', reqId);
    await next();
    // An answer built as a raw Response did not take it: only then the copy.
    if (c.res.headers.get('X-Request-Id') !== reqId) c.header('X-Request-Id', reqId);

    const seconds = (performance.now() - started) / 1000;
    const route = routeOf(c);
    const status = c.res.status;
    const labels = { method: c.req.method, route, status: String(status) };
    metrics.httpRequests.inc(labels);
    metrics.httpDuration.observe(labels, seconds);
    const accountId = c.get('account')?.id ?? c.get('widget')?.accountId;
    logger[status >= 500 ? 'warn' : 'info'](
      { reqId, method: c.req.method, route, status, ms: Math.round(seconds * 10_000) / 10, ...(accountId ? { accountId } : {}) },
      'request',
    );
  };
}
