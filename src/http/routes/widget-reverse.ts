import type { WidgetReverseSuggestion } from '../../contract/reverse.js';
import { widgetReversePreflightRoute, widgetReverseRoute } from '../../contract/routes.js';
import type { RouteModule } from '../context.js';
import { flagUnverified } from '../unverified.js';
import { widgetCreditsError, widgetSuggestions } from '../widget-ids.js';
import { widgetPreflight } from '../widget-preflight.js';

/** `POST /v1/widget/reverse`: the widget's "use my location", behind the widget's token, origin, limits and credits (widget-auth.ts). */
export const widgetReverseRoutes: RouteModule = (app, services) => {
  const toWidget = widgetSuggestions(services.sealer);
  app.openapi(widgetReverseRoute, async (c) => {
    const body = c.req.valid('json');
    const token = c.get('widget');
    const ctx = {
      accountId: token.accountId,
      credentialId: token.tokenId,
      env: token.env,
      endpoint: '/v1/widget/reverse',
      source: body.source ?? null,
      startedAt: c.get('startedAt'),
      requestId: c.get('requestId'),
    };
    const result = await services.reverse.reverse(body, ctx, () => c.req.raw.signal).catch(widgetCreditsError);
    // Opaque ids sealed to the token, as autocomplete's: the browser never sees provider ids or payloads.
    const suggestions: WidgetReverseSuggestion[] = result.suggestions.map((s) => ({ ...toWidget(token.tokenId, s), type: s.type, distanceMeters: s.distanceMeters }));
    flagUnverified(c, result);
    return c.json({ suggestions, cached: result.cached }, 200);
  });
  app.openapi(widgetReversePreflightRoute, (c) => widgetPreflight(c, services));
};
