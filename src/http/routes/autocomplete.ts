import { autocompleteRoute } from '../../contract/routes.js';
import { callContext } from '../call-context.js';
import type { RouteModule } from '../context.js';
import { flagUnverified } from '../unverified.js';
import { jsonAnswer } from '../json-answer.js';
import { withSharedField } from '../../engine/shared-answer-json.js';

export const autocompleteRoutes: RouteModule = (app, services) => {
  app.openapi(autocompleteRoute, async (c) => {
    const body = c.req.valid('json');
    const result = await services.autocomplete.autocomplete(
      body,
      callContext(c, '/v1/autocomplete', body.source),
      () => c.req.raw.signal,
    );
    flagUnverified(c, result);
    // A cache hit's suggestions are the memo's, shared by every hit: written to JSON once.
    return jsonAnswer(c, withSharedField('suggestions', result.suggestions, { cached: result.cached, sessionToken: body.sessionToken ?? null }));
  });
};
