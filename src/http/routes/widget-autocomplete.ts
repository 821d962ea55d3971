import type { WidgetSuggestion } from '../../contract/autocomplete.js';
import { widgetAutocompleteRoute, widgetPreflightRoute } from '../../contract/routes.js';
import { CreditsExhaustedError } from '../../engine/errors.js';
import type { RouteModule } from '../context.js';
import { HttpError, Messages } from '../errors.js';
import { flagUnverified } from '../unverified.js';
import { widgetSuggestionIds } from '../widget-ids.js';
import { widgetPreflight } from '../widget-preflight.js';

export { suggestionIdBinding } from '../widget-ids.js';

export const widgetAutocompleteRoutes: RouteModule = (app, services) => {
  const idOf = widgetSuggestionIds(services.sealer);
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
      .catch((error: unknown) => {
        // Credits ran out between the gate and the reservation (a concurrent call spent them).
        if (error instanceof CreditsExhaustedError) throw new HttpError(429, Messages.widgetCredits);
        throw error;
      });
    // Opaque ids sealed to the token: the browser never sees provider ids or payloads.
    const suggestions: WidgetSuggestion[] = result.suggestions.map((s) => ({
      id: idOf(token.tokenId, s),
      label: s.label,
      provider: s.provider,
      address: s.components,
      type: s.type,
      matches: s.matches,
      ...(s.action ? { action: s.action } : {}),
    }));
    flagUnverified(c, result);
    return c.json({ suggestions, sessionToken: body.sessionToken ?? null, cached: result.cached }, 200);
  });

  app.openapi(widgetPreflightRoute, (c) => widgetPreflight(c, services));
};
