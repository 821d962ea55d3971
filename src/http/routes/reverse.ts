import { reverseRoute } from '../../contract/routes.js';
import { callContext } from '../call-context.js';
import type { RouteModule } from '../context.js';
import { flagUnverified } from '../unverified.js';

export const reverseRoutes: RouteModule = (app, services) => {
  app.openapi(reverseRoute, async (c) => {
    const body = c.req.valid('json');
    const result = await services.reverse.reverse(body, callContext(c, '/v1/reverse', body.source), () => c.req.raw.signal);
    flagUnverified(c, result);
    return c.json({ suggestions: result.suggestions, cached: result.cached }, 200);
  });
};
