import type { Services } from '../services.js';
import type { LimitWindow } from '../store/limits/rate-limiter.js';
import { HttpError, serviceUnavailable } from './errors.js';

/**
 * One hit (or `count`: a batch's items) on the limiter key `name:subject`; throws 429 with `Retry-After` (the longest wait) when a
 * window is full, counted under `name` in addressd_rate_limit_rejections_total. A limiter backend
 * failure (Redis down) fails closed as 503: no request slips through uncounted.
 */
export async function enforceLimit(
  services: Services,
  name: string,
  subject: string,
  windows: readonly LimitWindow[],
  message: string,
  count = 1,
): Promise<void> {
  let result;
  try {
    result = await services.limiter.hit(`${name}:${subject}`, windows, services.clock.now(), count);
  } catch (error) {
    services.logger.error({ err: error }, 'rate limiter unavailable');
    throw serviceUnavailable();
  }
  if (!result.allowed) {
    services.metrics.rateLimitRejections.inc({ limit: name });
    const retry = Math.max(...result.exhausted.map((w) => w.retryAfterSeconds));
    throw new HttpError(429, message, undefined, { 'Retry-After': String(retry) });
  }
}
