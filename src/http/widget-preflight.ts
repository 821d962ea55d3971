import type { Context } from 'hono';
import { parseExactHttpsOrigin } from '../accounts/origins.js';
import type { Services } from '../services.js';

/**
 * The widget endpoints' CORS preflight. Browsers send no Authorization on preflight, so any active
 * token allowing the origin is enough here; the POST then binds the exact token and origin.
 */
export async function widgetPreflight(c: Context, services: Services): Promise<Response> {
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
}
