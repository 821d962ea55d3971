import type { Context, MiddlewareHandler } from 'hono';
import { CreditsExhaustedError } from '../engine/errors.js';
import type { Services } from '../services.js';
import type { AppEnv } from './context.js';
import { creditsExhausted, HttpError, Messages } from './errors.js';
import { enforceLimit } from './rate-limit.js';

const TEST_KEY_WINDOW = [{ name: 'minute', max: 60, periodSeconds: 60 }] as const;

/**
 * The `ak_test_` limit counts work: one per request, each item of a batch (issue 28 §10: counted
 * per request, 6,000 items a minute went through). A batch beyond the allowance is refused whole,
 * before anything is looked up or billed.
 */
export async function countTestKeyWork(services: Services, c: Context<AppEnv>, items: number): Promise<void> {
  const key = c.get('key');
  if (key.env !== 'test') return;
  await enforceLimit(services, 'testkey', key.keyId, TEST_KEY_WINDOW, items > 1 ? Messages.testKeyBatchRate : Messages.testKeyRate, items);
}

export interface SecretKeyAuthOptions {
  /** Costs nothing (POST /v1/validate/feedback): no test-key count and no quota gate; the route has its own limit. */
  free?: boolean;
  /** The route counts its own work with `countTestKeyWork` once it knows how much (the batch). */
  routeCountsWork?: boolean;
}

/**
 * Secret-key endpoints: `Authorization: Bearer ak_…` → key → account, then the `ak_test_`
 * 60/minute limit, then the shared quota gate (429 once the account is exhausted, SPEC).
 * `free` endpoints (POST /v1/validate/feedback) skip both: they cost nothing and have their own limit.
 */
export function secretKeyAuth(services: Services, options: SecretKeyAuthOptions = {}): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    c.set('startedAt', services.clock.now());
    // No header, another scheme or an empty Bearer: say how to send a key. A Bearer value that is
    // not one key (spaces inside, say) is a key sent wrongly: malformed.
    const header = c.req.header('authorization');
    const presented = header?.match(/^Bearer\s+(.*?)\s*$/i)?.[1];
    // A header without a Bearer value (a bare key, another scheme) is a key sent wrongly, not a
    // missing one: say how the header must look.
    if (!presented) throw new HttpError(401, header?.trim() ? Messages.keyWithoutBearer : Messages.missingKey);
    // The likeliest wrong credential is the other one we issue: say which endpoints it is for (issue 36).
    if (presented.startsWith('svc_pk_')) throw new HttpError(401, Messages.publishableOnSecretEndpoint);
    const check = await services.auth.secretKey(presented);
    if (!check.ok) throw new HttpError(401, check.reason === 'malformed' ? Messages.malformedKey : Messages.unknownKey);
    void services.secretKeys.touch(check.key.keyId, (error) => services.logger.warn({ reqId: c.get('requestId'), err: error }, 'could not record key use'));
    const { account } = check;
    c.set('key', check.key);
    c.set('account', account);
    if (options.free) return next();
    if (!options.routeCountsWork) await countTestKeyWork(services, c, 1);
    try {
      await services.biller.ensureCredits(account.id);
    } catch (error) {
      if (error instanceof CreditsExhaustedError) throw creditsExhausted(error, services.consoleUrl);
      throw error;
    }
    await next();
  };
}
