import type { WidgetSuggestion } from '../../contract/autocomplete.js';
import { widgetAutocompleteRoute, widgetPreflightRoute } from '../../contract/routes.js';
import type { RouteModule } from '../context.js';
import { flagUnverified } from '../unverified.js';
import { widgetCreditsError, widgetSuggestions } from '../widget-ids.js';
import { widgetPreflight } from '../widget-preflight.js';

export { suggestionIdBinding } from '../widget-ids.js';

export const widgetAutocompleteRoutes: RouteModule = (app, services) => {
  const toWidget = widgetSuggestions(services.sealer);
  app.openapi(widgetAutocompleteRoute, async (c) => {
    const body = c.req.valid('json');
    const token = c.get('widget');
    const result = await services.autocomplete
      .autocomplete(
        body,
        {
          accountId: token.accountId,
          credentialId: token.tokenId,
          env: token.env,
          endpoint: '/v1/widget/autocomplete',
          source: body.source ?? null,
          startedAt: c.get('startedAt'),
          requestId: c.get('requestId'),
        },
        () => c.req.raw.signal,
      )
      .catch(widgetCreditsError);
    // Opaque ids sealed to the token: the browser never sees provider ids or payloads.
    const suggestions: WidgetSuggestion[] = result.suggestions.map((s) => toWidget(token.tokenId, s));
    flagUnverified(c, result);
    return c.json({ suggestions, sessionToken: body.sessionToken ?? null, cached: result.cached }, 200);
  });

  app.openapi(widgetPreflightRoute, (c) => widgetPreflight(c, services));
};
