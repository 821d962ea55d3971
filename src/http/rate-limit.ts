import type { Services } from '../services.js';
import type { LimitWindow } from '../store/limits/rate-limiter.js';
import { HttpError, serviceUnavailable } from './errors.js';

/**
 * One hit on a limiter key; throws 429 with `Retry-After` (the longest wait) when a window is
 * full. A limiter backend failure (Redis down) fails closed as 503: no request slips through uncounted.
 */
export async function enforceLimit(
  services: Services,
  key: string,
  windows: readonly LimitWindow[],
  message: string,
): Promise<void> {
  let result;
  try {
    result = await services.limiter.hit(key, windows, services.clock.now());
  } catch (error) {
    services.logger.error({ err: error }, 'rate limiter unavailable');
    throw serviceUnavailable();
  }
  if (!result.allowed) {
    const retry = Math.max(...result.exhausted.map((w) => w.retryAfterSeconds));
    throw new HttpError(429, message, undefined, { 'Retry-After': String(retry) });
  }
}
