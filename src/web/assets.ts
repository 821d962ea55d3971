import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

/** One file under /assets/, held in memory with its gzip form. */
export interface WebAsset {
  /** Content-hashed URL path, e.g. `/assets/home.1a2b3c4d.js`: served as immutable. */
  path: string;
  type: string;
  body: Uint8Array<ArrayBuffer>;
  gzip: Uint8Array<ArrayBuffer>;
}

export interface WebAssets {
  homeScript: WebAsset;
  docsScript: WebAsset;
  consoleScript: WebAsset;
  styles: WebAsset;
  redoc: WebAsset;
  icon: WebAsset;
  byPath: ReadonlyMap<string, WebAsset>;
}

const REDOC_CDN_LOGO = 'https://cdn.redoc.ly/redoc/logo-mini.svg';
const HERE = fileURLToPath(new URL('.', import.meta.url));
// Under `npm run build` the page scripts beside this module are compiled .js files; from src, .ts.
const SOURCE_EXT = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
const TARGET = ['es2020'];

// A map pin in the accent colour: the tab icon, so browsers do not ask for /favicon.ico.
const ICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><path fill="#0b57d0" d="M16 2a10 10 0 0 0-10 10c0 7.5 10 18 10 18s10-10.5 10-18A10 10 0 0 0 16 2z"/><circle cx="16" cy="12" r="4" fill="#fff"/></svg>`;

function asset(name: string, type: string, body: Uint8Array): WebAsset {
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 8);
  // Copies into plain ArrayBuffers, the body type Response accepts.
  const gzip = new Uint8Array(gzipSync(body, { level: 9 }));
  return { path: `/assets/${name.replace(/\.(\w+)$/, `.${hash}.$1`)}`, type, body: new Uint8Array(body), gzip };
}

/** esbuild's API, loaded with the first page asked for: a start (and a restart under load) skips it. */
const esbuild = () => import('esbuild');

async function bundle(entry: string): Promise<Uint8Array> {
  const { build } = await esbuild();
  const result = await build({
    entryPoints: [`${HERE}client/${entry}${SOURCE_EXT}`],
    bundle: true,
    minify: true,
    format: 'iife',
    target: TARGET,
    write: false,
    legalComments: 'none',
    logLevel: 'silent',
  });
  const out = result.outputFiles[0];
  if (!out) throw new Error(`esbuild produced nothing for ${entry}`);
  return out.contents;
}

async function load(): Promise<WebAssets> {
  const { transform } = await esbuild();
  const css = await transform(await readFile(`${HERE}site.css`, 'utf8'), { loader: 'css', minify: true, target: TARGET });
  // Redoc's standalone bundle from node_modules: the docs page needs no CDN.
  const redocFile = createRequire(import.meta.url).resolve('redoc/bundles/redoc.standalone.js');
  const [home, docs, consoleJs, redocSource] = await Promise.all([
    bundle('home'),
    bundle('docs'),
    bundle('console'),
    readFile(redocFile, 'utf8'),
  ]);
  const text = (s: string) => new TextEncoder().encode(s);
  // Redoc's sidebar credit loads its logo from Redocly's CDN; an empty data URL makes its onError hide it.
  const redoc = text(redocSource.replaceAll(REDOC_CDN_LOGO, 'data:,'));
  const assets = {
    homeScript: asset('home.js', 'text/javascript; charset=utf-8', home),
    docsScript: asset('docs.js', 'text/javascript; charset=utf-8', docs),
    consoleScript: asset('console.js', 'text/javascript; charset=utf-8', consoleJs),
    styles: asset('site.css', 'text/css; charset=utf-8', text(css.code)),
    redoc: asset('redoc.standalone.js', 'text/javascript; charset=utf-8', redoc),
    icon: asset('icon.svg', 'image/svg+xml', text(ICON)),
  };
  return { ...assets, byPath: new Map(Object.values(assets).map((a) => [a.path, a])) };
}

let loading: Promise<WebAssets> | undefined;

/**
 * Bundled on first use and kept for the life of the process (the sources do not change while it
 * runs), so starting the app, and every test server that never opens a page, costs nothing.
 */
export function webAssets(): Promise<WebAssets> {
  loading ??= load().catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}
