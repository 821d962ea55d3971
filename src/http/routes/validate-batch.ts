import type { z } from '@hono/zod-openapi';
import type { BatchItemError, ValidateBatchResponse } from '../../contract/batch.js';
import { validateBatchRoute } from '../../contract/routes.js';
import { ValidateRequest } from '../../contract/validate.js';
import { isUnverified } from '../../engine/unverified.js';
import { callContext } from '../call-context.js';
import type { RouteModule } from '../context.js';
import { creditsExhausted } from '../errors.js';
import { countTestKeyWork } from '../secret-key-auth.js';
import { flagUnverified, UNVERIFIED_ITEMS_HEADER } from '../unverified.js';

/**
 * POST /v1/validate/batch: each item is checked against ValidateRequest on its own (a bad one is
 * its own 400 entry), the good ones go through the engine as single validates would, billed as one
 * (engine/validate-batch.ts).
 */
export const validateBatchRoutes: RouteModule = (app, services) => {
  app.openapi(validateBatchRoute, async (c) => {
    const body = c.req.valid('json');
    await countTestKeyWork(services, c, body.items.length);
    const account = c.get('account');
    const results: ValidateBatchResponse['results'] = new Array(body.items.length);
    const runnable: { index: number; request: ValidateRequest }[] = [];
    body.items.forEach((item, index) => {
      const parsed = ValidateRequest.safeParse(item);
      if (parsed.success) runnable.push({ index, request: parsed.data });
      else results[index] = invalidItem(parsed.error.issues);
    });

    const outcomes = await services.validateBatch.validate(
      account.id,
      runnable.map((r) => r.request),
      account.thresholds,
      (i) => ({
        ...callContext(c, '/v1/validate/batch', runnable[i]?.request.source ?? body.source),
        startedAt: services.clock.now(),
      }),
      { concurrency: services.config.BATCH_CONCURRENCY, signal: c.req.raw.signal },
    );
    const unverified: number[] = [];
    outcomes.forEach((outcome, i) => {
      const index = runnable[i]?.index ?? i;
      if (outcome.ok && isUnverified(outcome.response)) unverified.push(index);
      results[index] = outcome.ok
        ? outcome.response
        : { status: 429, error: { message: creditsExhausted(outcome.exhausted, services.consoleUrl).message } };
    });
    // As on /v1/validate: some item's verdict is not a finding (no provider answered it); which ones.
    flagUnverified(c, unverified.length > 0);
    if (unverified.length > 0) c.header(UNVERIFIED_ITEMS_HEADER, unverified.sort((a, b) => a - b).join(','));
    return c.json({ results }, 200);
  });
};

/** SPEC's ValidationError for one item; Zod allows symbol path keys, JSON has none. */
function invalidItem(issues: readonly z.core.$ZodIssue[]): BatchItemError {
  const issuesJson = issues.map((issue) => ({ ...issue, path: issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p)) }));
  return { status: 400, error: { message: 'Validation failed', issues: issuesJson } };
}
