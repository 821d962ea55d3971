import { LRUCache } from 'lru-cache';
import type { WidgetSuggestion } from '../../contract/autocomplete.js';
import { parseExactHttpsOrigin } from '../../accounts/origins.js';
import { widgetAutocompleteRoute, widgetPreflightRoute } from '../../contract/routes.js';
import { CreditsExhaustedError } from '../../engine/errors.js';
import type { RouteModule } from '../context.js';
import { HttpError, Messages } from '../errors.js';
import { flagUnverified } from '../unverified.js';

/** Associated data that binds a suggestion id to the token it was issued to: it opens under no other. */
export const suggestionIdBinding = (tokenId: string): string => `widget:${tokenId}`;

export const widgetAutocompleteRoutes: RouteModule = (app, services) => {
  // A suggestion's id, sealed once per token: AES-GCM setup cost more than the rest of a cache hit.
  // The same suggestion to the same token gets the same opaque id; it still opens under no other.
  const sealedIds = new LRUCache<string, string>({ max: 20_000 });
  const idOf = (tokenId: string, s: { provider: string; label: string }) => {
    const key = `${tokenId}\n${s.provider}\n${s.label}`;
    let id = sealedIds.get(key);
    if (id === undefined) {
      id = `svc_s_${services.sealer.seal(JSON.stringify({ p: s.provider, l: s.label }), suggestionIdBinding(tokenId))}`;
      sealedIds.set(key, id);
    }
    return id;
  };
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

  // Browsers send no Authorization on preflight, so any active token allowing the origin is enough here;
  // the POST then binds the exact token and origin.
  app.openapi(widgetPreflightRoute, async (c) => {
    const raw = c.req.header('origin');
    const origin = parseExactHttpsOrigin(raw);
    const method = c.req.header('access-control-request-method');
    if (!origin || origin !== raw || method !== 'POST' || !(await services.auth.originAllowed(origin))) {
      return c.body(null, 403);
    }
    c.header('Access-Control-Allow-Origin', origin);
    c.header('Access-Control-Allow-Methods', 'POST');
    c.header('Access-Control-Allow-Headers', 'Authorization, Content-Type');
    c.header('Access-Control-Max-Age', '600');
    c.header('Vary', 'Origin');
    return c.body(null, 204);
  });
};
