import { validateRoute } from '../../contract/routes.js';
import type { RouteModule } from '../context.js';
import { callContext } from '../call-context.js';
import { flagUnverified } from '../unverified.js';
import { jsonAnswer } from '../json-answer.js';

export const validateRoutes: RouteModule = (app, services) => {
  app.openapi(validateRoute, async (c) => {
    const body = c.req.valid('json');
    const account = c.get('account');
    const response = await services.validate.validate(
      body,
      { ...callContext(c, '/v1/validate', body.source), thresholds: account.thresholds },
      () => c.req.raw.signal,
    );
    flagUnverified(c, response);
    return jsonAnswer(c, response);
  });
};
