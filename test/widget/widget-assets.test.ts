import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import zlib, { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWidget, type WidgetBuildFile } from '../../scripts/build-widget.js';
import { Hono } from 'hono';
import { widgetAssetApp, widgetAssetRoutes, WidgetAccessResponse } from '../../src/http/routes/widget-assets.js';

// Contract limit from the issue: the widget (script + stylesheet) at most 10 KB minified and gzipped.
const MAX_GZIP_BYTES = 10 * 1024;

let dir: string;
let files: WidgetBuildFile[];
let app: ReturnType<typeof widgetAssetApp>;
let service: Hono;
const checks: [string, string][] = [];
/** Publishable tokens of the real form: anything else is refused before checkAccess is asked. */
const GOOD = `svc_pk_live_${'g'.repeat(32)}`;
const OTHER = `svc_pk_live_${'o'.repeat(32)}`;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'widget-build-'));
  files = await buildWidget(dir);
  app = widgetAssetApp({
    dir,
    checkAccess: async (token, origin) => {
      checks.push([token, origin]);
      return token === GOOD && origin === 'https://shop.example';
    },
  });
  service = new Hono();
  widgetAssetRoutes(service, { dir });
  // Read once at start: the directory can vanish and the files are still served.
  rmSync(dir, { recursive: true, force: true });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const file = (name: string) => files.find((f) => f.name === name) as WidgetBuildFile;

describe('widget bundle', () => {
  it('is at most 10 KB minified and gzipped, script and stylesheet together', () => {
    for (const script of ['widget.js', 'widget.mjs']) {
      expect(file(script).gzipBytes + file('widget.css').gzipBytes).toBeLessThanOrEqual(MAX_GZIP_BYTES);
    }
  });
});

describe('GET /widget/v1/*', () => {
  it.each([
    ['widget.js', 'text/javascript; charset=utf-8'],
    ['widget.mjs', 'text/javascript; charset=utf-8'],
    ['widget.css', 'text/css; charset=utf-8'],
  ])('serves %s with its content type, a revalidating day of cache and CORS for module imports', async (name, type) => {
    const res = await app.request(`/${name}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(type);
    expect(res.headers.get('cache-control')).toBe('public, max-age=86400, stale-while-revalidate=604800');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect((await res.arrayBuffer()).byteLength).toBe(file(name).bytes);
  });

  it('answers at /widget/v1/ itself (SPEC\'s address of the script) with the classic script', async () => {
    const script = await (await service.request('/widget/v1/widget.js')).text();
    const res = await service.request('/widget/v1/');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('public, max-age=86400, stale-while-revalidate=604800');
    expect(await res.text()).toBe(script);
    // Without the slash the script would look for its stylesheet under /widget/: redirect to the address with it.
    const bare = await service.request('/widget/v1');
    expect(bare.status).toBe(301);
    expect(new URL(bare.headers.get('location') ?? '', 'https://svc.example/widget/v1').pathname).toBe('/widget/v1/');
  });

  it('serves the content-hashed names as immutable for a year', async () => {
    for (const f of files) {
      const res = await app.request(`/${f.hashedName}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    }
    const manifest = (await (await app.request('/manifest.json')).json()) as Record<string, string>;
    expect(manifest['widget.js']).toBe(file('widget.js').hashedName);
  });

  it('points the script at the hashed stylesheet, so the page caches it for good', async () => {
    const js = await (await app.request('/widget.js')).text();
    expect(js).toContain(file('widget.css').hashedName);
  });

  it('answers a matching If-None-Match with 304 and no body', async () => {
    const first = await app.request('/widget.js');
    const etag = first.headers.get('etag') as string;
    const again = await app.request('/widget.js', { headers: { 'If-None-Match': etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
  });

  it('sends gzip to clients that accept it, decoding to the same bytes', async () => {
    const plain = new Uint8Array(await (await app.request('/widget.mjs')).arrayBuffer());
    const res = await app.request('/widget.mjs', { headers: { 'Accept-Encoding': 'gzip' } });
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(res.headers.get('vary')).toContain('Accept-Encoding');
    expect(new Uint8Array(gunzipSync(new Uint8Array(await res.arrayBuffer())))).toEqual(plain);
  });

  it('answers HEAD like GET without a body, and 404 for anything else', async () => {
    const head = await app.request('/widget.css', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('text/css; charset=utf-8');
    const missing = await app.request('/../package.json');
    expect(missing.status).toBe(404);
    expect((await app.request('/widget.ts')).status).toBe(404);
    // The compressed forms the build writes beside each file are not files of their own.
    expect((await app.request('/widget.js.br')).status).toBe(404);
  });
});

describe('compressed forms written by the build', () => {
  const body = async (served: Hono | ReturnType<typeof widgetAssetApp>, encoding: string) => {
    const res = await served.request('/widget.js', { headers: { 'Accept-Encoding': encoding } });
    expect(res.headers.get('content-encoding')).toBe(encoding);
    return new Uint8Array(await res.arrayBuffer());
  };

  it('are served as written, so a start compresses nothing', async () => {
    const built = mkdtempSync(join(tmpdir(), 'widget-forms-'));
    try {
      await buildWidget(built);
      const script = readFileSync(join(built, 'widget.js'));
      // The build writes both forms beside every file it serves.
      for (const f of [...files.flatMap((x) => [x.name, x.hashedName]), 'manifest.json']) {
        expect(brotliDecompressSync(readFileSync(join(built, `${f}.br`)))).toEqual(readFileSync(join(built, f)));
        expect(gunzipSync(readFileSync(join(built, `${f}.gz`)))).toEqual(readFileSync(join(built, f)));
      }
      // Other valid forms than the service's own settings would give: served byte for byte, so read, not made.
      const fast = { br: brotliCompressSync(script, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1 } }), gzip: gzipSync(script, { level: 1 }) };
      writeFileSync(join(built, 'widget.js.br'), fast.br);
      writeFileSync(join(built, 'widget.js.gz'), fast.gzip);
      const served = widgetAssetApp({ dir: built });
      expect(await body(served, 'br')).toEqual(new Uint8Array(fast.br));
      expect(await body(served, 'gzip')).toEqual(new Uint8Array(fast.gzip));
    } finally {
      rmSync(built, { recursive: true, force: true });
    }
  });

  it('are never served when they do not decode to the file (a stale or broken one): the file is compressed instead', async () => {
    const built = mkdtempSync(join(tmpdir(), 'widget-forms-'));
    try {
      await buildWidget(built);
      const script = readFileSync(join(built, 'widget.js'));
      writeFileSync(join(built, 'widget.js.br'), brotliCompressSync(Buffer.from('an older widget')));
      writeFileSync(join(built, 'widget.js.gz'), Buffer.from('not gzip at all'));
      const served = widgetAssetApp({ dir: built });
      expect(brotliDecompressSync(await body(served, 'br'))).toEqual(script);
      expect(gunzipSync(await body(served, 'gzip'))).toEqual(script);
    } finally {
      rmSync(built, { recursive: true, force: true });
    }
  });
});

describe('GET /widget/v1/access (origin probe)', () => {
  const probe = async (token: string, origin?: string) => {
    const res = await app.request(`/access?token=${encodeURIComponent(token)}`, { headers: origin ? { Origin: origin } : {} });
    // Always 200 and readable from any page: a refused page must not see a CORS failure.
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    return WidgetAccessResponse.parse(await res.json()).allowed;
  };

  it('says yes only for a token allowed on the calling origin', async () => {
    expect(await probe(GOOD, 'https://shop.example')).toBe(true);
    expect(await probe(GOOD, 'https://evil.example')).toBe(false);
    expect(await probe(OTHER, 'https://shop.example')).toBe(false);
    expect(checks).toContainEqual([GOOD, 'https://evil.example']);
  });

  it('says no without asking when the origin is missing or not HTTPS', async () => {
    checks.length = 0;
    expect(await probe(GOOD)).toBe(false);
    expect(await probe(GOOD, 'http://shop.example')).toBe(false);
    expect(checks).toEqual([]);
  });
});
