import type { Services } from '../services.js';
import type { LimitWindow } from '../store/limits/rate-limiter.js';
import { HttpError, serviceUnavailable } from './errors.js';

/** One limit a request must pass: counted under `name:subject`, its refusals under `name`. */
export interface NamedLimit {
  name: string;
  subject: string;
  windows: readonly LimitWindow[];
}

/**
 * One hit (or `count`: a batch's items) on the limiter key `name:subject`; throws 429 with `Retry-After` (the longest wait) when a
 * window is full, counted under `name` in addressd_rate_limit_rejections_total. A limiter backend
 * failure (Redis down) fails closed as 503: no request slips through uncounted.
 */
export function enforceLimit(
  services: Services,
  name: string,
  subject: string,
  windows: readonly LimitWindow[],
  message: string,
  count = 1,
): Promise<void> {
  return enforceLimits(services, [{ name, subject, windows }], message, count);
}

/**
 * Several limits of one request as one hit (`RateLimiter.hitAll`: one Redis round trip, and a
 * request one limit refuses is counted by none); each limit that refused is counted under its name.
 */
export async function enforceLimits(services: Services, limits: readonly NamedLimit[], message: string, count = 1): Promise<void> {
  let result;
  try {
    result = await services.limiter.hitAll(
      limits.map((l) => ({ key: `${l.name}:${l.subject}`, windows: l.windows })),
      services.clock.now(),
      count,
    );
  } catch (error) {
    services.logger.error({ err: error }, 'rate limiter unavailable');
    throw serviceUnavailable();
  }
  if (!result.allowed) {
    const full = result.exhausted.flat();
    limits.forEach((l, i) => {
      if (result.exhausted[i]!.length > 0) services.metrics.rateLimitRejections.inc({ limit: l.name });
    });
    const retry = Math.max(...full.map((w) => w.retryAfterSeconds));
    throw new HttpError(429, message, undefined, { 'Retry-After': String(retry) });
  }
}
