import { autocompleteRoute } from '../../contract/routes.js';
import { callContext } from '../call-context.js';
import type { RouteModule } from '../context.js';
import { flagUnverified } from '../unverified.js';

export const autocompleteRoutes: RouteModule = (app, services) => {
  app.openapi(autocompleteRoute, async (c) => {
    const body = c.req.valid('json');
    const result = await services.autocomplete.autocomplete(
      body,
      callContext(c, '/v1/autocomplete', body.source),
      () => c.req.raw.signal,
    );
    flagUnverified(c, result);
    return c.json({ ...result, sessionToken: body.sessionToken ?? null }, 200);
  });
};
