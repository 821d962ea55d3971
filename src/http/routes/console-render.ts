import type { Context } from 'hono';
import { type WebAssets, webAssets } from '../../web/assets.js';
import type { Html } from '../../web/layout.js';

/**
 * A console page: never cached (keys appear in clear), never framed (clickjacking), and no
 * Referer with its query leaves for other sites.
 */
export async function page(c: Context, render: (assets: WebAssets) => Html, status: 200 | 400 | 401 | 403 | 404 | 409 | 429 | 500 | 503 = 200): Promise<Response> {
  const text = String(await render(await webAssets()));
  c.header('Cache-Control', 'no-store');
  c.header('X-Frame-Options', 'DENY');
  c.header('Referrer-Policy', 'same-origin');
  return c.html(text, status);
}
