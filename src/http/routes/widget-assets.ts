import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from '@hono/zod-openapi';
import { Hono, type Context, type Env } from 'hono';
import { LRUCache } from 'lru-cache';
import { parseExactHttpsOrigin } from '../../accounts/origins.js';
import { PUBLISHABLE_TOKEN_PATTERN } from '../../accounts/publishable-tokens.js';
import { sha256Hex } from '../../lib/ids.js';
import { readEncodedForms } from './widget-compressed.js';

/** Where scripts/build-widget.ts writes the bundle (git-ignored, built by `npm start` / `npm test`). */
export const DEFAULT_WIDGET_DIR = fileURLToPath(new URL('../../../public/widget/v1/', import.meta.url));

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
};

/**
 * Cache policy. Content-hashed names (widget.1a2b3c4d.js) never change: a year, immutable.
 * The stable names everyone embeds (widget.js, widget.mjs, widget.css) must pick up fixes, so they get
 * a day fresh plus a week of stale-while-revalidate (visitors never wait on the check), and an ETag
 * makes the daily check a cheap 304.
 * manifest.json (stable name → hashed name) is always revalidated.
 */
export const CACHE_IMMUTABLE = 'public, max-age=31536000, immutable';
export const CACHE_STABLE = 'public, max-age=86400, stale-while-revalidate=604800';
export const CACHE_MANIFEST = 'no-cache';
const HASHED = /\.[0-9a-f]{8}\.(js|mjs|css)$/;

export interface WidgetAsset {
  type: string;
  cacheControl: string;
  etag: string;
  identity: Uint8Array<ArrayBuffer>;
  gzip: Uint8Array<ArrayBuffer>;
  br: Uint8Array<ArrayBuffer>;
}

/** Reads every built file and its compressed forms once (widget-compressed.ts); requests never touch the disk. */
export function loadWidgetAssets(dir: string = DEFAULT_WIDGET_DIR): Map<string, WidgetAsset> {
  const assets = new Map<string, WidgetAsset>();
  if (!existsSync(dir)) return assets;
  for (const name of readdirSync(dir)) {
    const type = TYPES[extname(name)];
    if (!type || name.startsWith('.')) continue;
    const identity = new Uint8Array(readFileSync(join(dir, name)));
    assets.set(name, {
      type,
      cacheControl: name === 'manifest.json' ? CACHE_MANIFEST : HASHED.test(name) ? CACHE_IMMUTABLE : CACHE_STABLE,
      etag: `W/"${createHash('sha256').update(identity).digest('base64url').slice(0, 22)}"`,
      identity,
      ...readEncodedForms(dir, name, identity),
    });
  }
  return assets;
}

/** Answer of `GET /widget/v1/access?token=…`: may this page's origin use the token? */
export const WidgetAccessResponse = z.object({ allowed: z.boolean() });
export type WidgetAccessResponse = z.infer<typeof WidgetAccessResponse>;

export interface WidgetAssetOptions {
  dir?: string;
  /**
   * Token + exact HTTPS origin → allowed? (e.g. `(t, o) => tokens.verify(t, o).then(Boolean)`).
   * Without it the probe answers `allowed: true` and a page outside the allowlist finds out from
   * the browser's CORS error instead of quietly.
   */
  checkAccess?: (token: string, origin: string) => Promise<boolean>;
  /**
   * Counts one probe (e.g. per visitor address) and throws a 429 `HttpError` past the limit.
   * The probe needs no credential, so without it anyone could make the service check tokens
   * (and fill the verdict cache) as fast as they can send requests.
   */
  throttle?: (c: Context) => Promise<void>;
}

// Headers every widget file needs: ES-module imports from other origins are CORS requests.
const SHARED_HEADERS = {
  'Access-Control-Allow-Origin': '*',
  'Cross-Origin-Resource-Policy': 'cross-origin',
  'X-Content-Type-Options': 'nosniff',
  Vary: 'Accept-Encoding',
};

function serve(c: Context, asset: WidgetAsset): Response {
  const headers: Record<string, string> = { ...SHARED_HEADERS, 'Cache-Control': asset.cacheControl, ETag: asset.etag };
  const tags = (c.req.header('If-None-Match') ?? '').split(',').map((t) => t.trim().replace(/^W\//, ''));
  if (tags.includes(asset.etag.replace(/^W\//, '')) || tags.includes('*')) return new Response(null, { status: 304, headers });
  const accepts = c.req.header('Accept-Encoding') ?? '';
  const [encoding, body] = /\bbr\b/.test(accepts) ? ['br', asset.br] : /\bgzip\b/.test(accepts) ? ['gzip', asset.gzip] : [null, asset.identity];
  if (encoding) headers['Content-Encoding'] = encoding;
  headers['Content-Type'] = asset.type;
  headers['Content-Length'] = String(body.byteLength);
  return new Response(body, { status: 200, headers });
}

/** The `/widget/v1/*` sub-app: built files plus the origin probe the widget calls before its first request. */
export function widgetAssetApp(options: WidgetAssetOptions = {}): Hono {
  const assets = loadWidgetAssets(options.dir);
  const verdicts = new LRUCache<string, boolean>({ max: 10_000, ttl: 30_000 });
  const app = new Hono();

  app.get('/access', async (c) => {
    // Always `*`, a refusal and a 429 included: a refused page must not get a CORS failure logged in its console.
    c.header('Access-Control-Allow-Origin', '*');
    c.header('Vary', 'Origin');
    await options.throttle?.(c);
    const origin = parseExactHttpsOrigin(c.req.header('Origin') ?? sameOriginPage(c));
    const token = c.req.query('token') ?? '';
    // Only a token of the publishable form is ever looked up or cached; the cache holds its digest,
    // never the text a caller sent (which could be kilobytes).
    let allowed = origin !== null && PUBLISHABLE_TOKEN_PATTERN.test(token);
    if (allowed && options.checkAccess && origin) {
      const key = `${sha256Hex(token)} ${origin}`;
      allowed = verdicts.get(key) ?? (await options.checkAccess(token, origin));
      verdicts.set(key, allowed);
    }
    const body: WidgetAccessResponse = { allowed };
    return c.json(body, 200, { 'Cache-Control': 'private, max-age=60' });
  });

  // SPEC places the hosted script at /widget/v1/ itself: the directory answers with the classic script.
  app.get('/', (c) => {
    const asset = assets.get('widget.js');
    return asset ? serve(c, asset) : c.json({ message: 'Widget not built: run `npm run build:widget`' }, 404);
  });

  app.get('/:file', (c) => {
    const asset = assets.get(c.req.param('file'));
    if (asset) return serve(c, asset);
    const message = assets.size ? 'Not found' : 'Widget not built: run `npm run build:widget`';
    return c.json({ message }, 404);
  });
  return app;
}

/**
 * Browsers send no `Origin` on a same-origin GET: the console's live preview, on the service's own
 * origin, names its page by `Referer` instead, trusted only when the browser says it is same-origin.
 */
function sameOriginPage(c: Context): string | undefined {
  const referer = c.req.header('Referer');
  if (c.req.header('Sec-Fetch-Site') !== 'same-origin' || !referer) return undefined;
  try {
    return new URL(referer).origin;
  } catch {
    return undefined;
  }
}

/** Mounts the widget files at /widget/v1/ on the service app. */
export function widgetAssetRoutes<E extends Env>(app: Hono<E>, options: WidgetAssetOptions = {}): void {
  const widget = widgetAssetApp(options);
  // Without the slash the script would resolve its stylesheet one folder too high: send browsers to SPEC's address.
  app.get('/widget/v1', (c) => c.redirect('v1/', 301));
  app.get('/widget/v1/', (c) => widget.fetch(new Request(new URL('/', c.req.url), c.req.raw)));
  app.route('/widget/v1', widget);
}
