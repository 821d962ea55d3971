import { createHash, timingSafeEqual } from 'node:crypto';
import type { RouteModule } from '../context.js';
import { HttpError, Messages } from '../errors.js';

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * GET /metrics: Prometheus text format. With METRICS_TOKEN set, only `Authorization: Bearer <token>`
 * reads it (compared in constant time, digests so the length leaks nothing either).
 */
export const metricsRoutes: RouteModule = (app, services) => {
  const token = services.config.METRICS_TOKEN;
  const expected = token ? digest(token) : undefined;
  app.get('/metrics', async (c) => {
    if (expected) {
      const presented = c.req.header('authorization')?.match(/^Bearer\s+(\S+)\s*$/i)?.[1] ?? '';
      if (!timingSafeEqual(digest(presented), expected)) throw new HttpError(401, Messages.metricsToken);
    }
    c.header('Cache-Control', 'no-store');
    return c.body(await services.metrics.text(), 200, { 'Content-Type': services.metrics.contentType });
  });
};
