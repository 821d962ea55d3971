import type { Context } from 'hono';
import { FREE_MONTHLY_CREDITS } from '../../billing/plans.js';
import { instanceSamples } from '../../demo/instance-samples.js';
import { type WebAsset, type WebAssets, webAssets } from '../../web/assets.js';
import { docsPage } from '../../web/docs-page.js';
import { homePage } from '../../web/home-page.js';
import type { Html } from '../../web/layout.js';
import type { RouteModule } from '../context.js';

/** `/`, `/docs` and their `/assets/…`: server-rendered HTML, scripts bundled in-process, no CDN. */
export const pageRoutes: RouteModule = (app, services) => {
  const rendered = new Map<string, Promise<string>>();
  const page = (name: string, render: (assets: WebAssets) => Html) => async (c: Context) => {
    let text = rendered.get(name);
    if (!text) {
      text = webAssets().then(async (assets) => String(await render(assets)));
      rendered.set(name, text);
      text.catch(() => rendered.delete(name));
    }
    c.header('Cache-Control', 'no-cache');
    return c.html(await text);
  };

  // The samples follow the data this instance answers from: the page is rendered again when they change.
  const samples = instanceSamples(services.providers, services.localIndex);
  app.get('/', async (c) => {
    const list = await samples.list();
    const name = `home ${JSON.stringify(list)}`;
    for (const other of rendered.keys()) if (other.startsWith('home ') && other !== name) rendered.delete(other);
    return page(name, (assets) => homePage(assets, list, FREE_MONTHLY_CREDITS, services.config.PROVIDERS))(c);
  });
  app.get('/docs', page('docs', docsPage));

  app.get('/assets/:file', async (c) => {
    const found = (await webAssets()).byPath.get(c.req.path);
    return found ? serveAsset(c, found) : c.notFound();
  });
};

/** Hashed names never change content: cache for a year; gzip when the browser takes it. */
function serveAsset(c: Context, asset: WebAsset): Response {
  const gzip = /\bgzip\b/.test(c.req.header('accept-encoding') ?? '');
  const headers: Record<string, string> = {
    'Content-Type': asset.type,
    'Cache-Control': 'public, max-age=31536000, immutable',
    Vary: 'Accept-Encoding',
    'X-Content-Type-Options': 'nosniff',
  };
  if (gzip) headers['Content-Encoding'] = 'gzip';
  return c.body(gzip ? asset.gzip : asset.body, 200, headers);
}
