import type { MiddlewareHandler } from 'hono';
import { CreditsExhaustedError } from '../engine/errors.js';
import type { Services } from '../services.js';
import type { AppEnv } from './context.js';
import { creditsExhausted, HttpError, Messages } from './errors.js';
import { enforceLimit } from './rate-limit.js';

const TEST_KEY_WINDOW = [{ name: 'minute', max: 60, periodSeconds: 60 }] as const;

/**
 * Secret-key endpoints: `Authorization: Bearer ak_…` → key → account, then the `ak_test_`
 * 60/minute limit, then the shared quota gate (429 once the account is exhausted, SPEC).
 * `free` endpoints (POST /v1/validate/feedback) skip both: they cost nothing and have their own limit.
 */
export function secretKeyAuth(services: Services, options: { free?: boolean } = {}): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    c.set('startedAt', services.clock.now());
    // No header, another scheme or an empty Bearer: say how to send a key. A Bearer value that is
    // not one key (spaces inside, say) is a key sent wrongly: malformed.
    const header = c.req.header('authorization');
    const presented = header?.match(/^Bearer\s+(.*?)\s*$/i)?.[1];
    // A header without a Bearer value (a bare key, another scheme) is a key sent wrongly, not a
    // missing one: say how the header must look.
    if (!presented) throw new HttpError(401, header?.trim() ? Messages.keyWithoutBearer : Messages.missingKey);
    const check = await services.auth.secretKey(presented);
    if (!check.ok) throw new HttpError(401, check.reason === 'malformed' ? Messages.malformedKey : Messages.unknownKey);
    void services.secretKeys.touch(check.key.keyId, (error) => services.logger.warn({ reqId: c.get('requestId'), err: error }, 'could not record key use'));
    const { account } = check;
    c.set('key', check.key);
    c.set('account', account);
    if (options.free) return next();
    if (check.key.env === 'test') {
      await enforceLimit(services, 'testkey', check.key.keyId, TEST_KEY_WINDOW, Messages.testKeyRate);
    }
    try {
      await services.biller.ensureCredits(account.id);
    } catch (error) {
      if (error instanceof CreditsExhaustedError) throw creditsExhausted(error, services.consoleUrl);
      throw error;
    }
    await next();
  };
}
