import { validateFeedbackRoute } from '../../contract/routes.js';
import type { RouteModule } from '../context.js';
import { HttpError, Messages } from '../errors.js';
import { enforceLimit } from '../rate-limit.js';

/**
 * POST /v1/validate/feedback (issue 29): free, its own limit, no quota gate (secretKeyAuth `free`).
 * The limit is the account's, not the key's: keys cost nothing to create, so a per-key allowance would have none.
 */
export const validateFeedbackRoutes: RouteModule = (app, services) => {
  const windows = [{ name: 'minute', max: services.config.FEEDBACK_RATE_PER_MINUTE, periodSeconds: 60 }] as const;
  app.openapi(validateFeedbackRoute, async (c) => {
    const key = c.get('key');
    await enforceLimit(services, 'feedback', key.accountId, windows, Messages.feedbackRate);
    const { responseId, conclusion } = c.req.valid('json');
    const result = await services.feedback.give(key.accountId, responseId, conclusion);
    if (result === 'unknown') throw new HttpError(404, Messages.unknownResponseId(services.config.FEEDBACK_RETENTION_DAYS));
    if (result === 'conflict') throw new HttpError(409, Messages.feedbackConflict);
    return c.body(null, 204);
  });
};
