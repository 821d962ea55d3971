import type { Context, MiddlewareHandler } from 'hono';
import { parseExactHttpsOrigin } from '../accounts/origins.js';
import { CreditsExhaustedError } from '../engine/errors.js';
import type { Services } from '../services.js';
import type { AppEnv } from './context.js';
import { HttpError, Messages } from './errors.js';
import { visitorIp } from './client-address.js';
import { enforceLimit, enforceLimits } from './rate-limit.js';
import { EXPOSED_HEADERS } from './unverified.js';

/** SPEC limits: 120/min per live token and per origin; 60/min for test tokens. */
const windowFor = (max: number) => [{ name: 'minute', max, periodSeconds: 60 }] as const;

/**
 * Widget calls: an exact HTTPS `Origin` (403), a publishable token bound to that origin (401),
 * the widget rate limits and the account's credits (429). Secret keys never pass: they are not
 * of the publishable token form, so they get the same 401 as any unknown token.
 */
export function widgetAuth(services: Services): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    c.set('startedAt', services.clock.now());
    const origin = parseExactHttpsOrigin(c.req.header('origin'));
    if (!origin || origin !== c.req.header('origin')) throw new HttpError(403, Messages.widgetOrigin);
    const match = c.req.header('authorization')?.match(/^Bearer\s+(\S+)\s*$/i);
    const token = match?.[1] ? await services.auth.widgetToken(match[1], origin) : null;
    if (!token) throw new HttpError(401, Messages.widgetToken);
    c.set('widget', token);
    // From here on the origin is verified: let the browser read our answers, errors included.
    c.header('Access-Control-Allow-Origin', origin);
    c.header('Vary', 'Origin');
    c.header('Access-Control-Expose-Headers', EXPOSED_HEADERS.join(', '));

    // Both limits in one hit: one Redis round trip, and a call the origin's limit refuses uses up none of the token's.
    await enforceLimits(
      services,
      [
        { name: 'widget:token', subject: token.tokenId, windows: windowFor(token.env === 'live' ? 120 : 60) },
        { name: 'widget:origin', subject: origin, windows: windowFor(120) },
      ],
      Messages.widgetRate,
    );
    try {
      await services.biller.ensureCredits(token.accountId);
    } catch (error) {
      if (error instanceof CreditsExhaustedError) throw new HttpError(429, Messages.widgetCredits);
      throw error;
    }
    await next();
  };
}

/**
 * `GET /widget/v1/access` needs no credential: 60 probes a minute per visitor address (a page
 * load asks once, on the first focus), shared by every instance like the other limits.
 */
const ACCESS_PER_IP = [{ name: 'minute', max: 60, periodSeconds: 60 }] as const;

export function widgetAccessThrottle(services: Services): (c: Context) => Promise<void> {
  return (c) => enforceLimit(services, 'widget:access:ip', visitorIp(c, services.config.TRUST_PROXY), ACCESS_PER_IP, Messages.widgetAccessRate);
}
