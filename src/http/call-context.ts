import type { Context } from 'hono';
import type { CallContext } from '../engine/billing.js';
import type { AppEnv } from './context.js';

/** Billing context of a secret-key call; `source` from the body, else the query parameter (SPEC). */
export function callContext(c: Context<AppEnv>, endpoint: string, bodySource: string | undefined): CallContext {
  const key = c.get('key');
  const querySource = c.req.query('source');
  const source = bodySource ?? (querySource ? querySource : undefined);
  return {
    accountId: key.accountId,
    credentialId: key.keyId,
    env: key.env,
    endpoint,
    source: source ?? null,
    startedAt: c.get('startedAt'),
    requestId: c.get('requestId'),
  };
}
