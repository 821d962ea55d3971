import type { MiddlewareHandler } from 'hono';
import { secureHeaders } from 'hono/secure-headers';

/**
 * Headers of the HTML pages (/, /docs, /dashboard): no sniffing, never framed, no Referer beyond
 * our own origin, and a CSP allowing only what the pages load themselves (every script and style
 * is served from /assets and /widget/v1, none inline). HSTS is left to whoever terminates TLS.
 */
const BASE_CSP = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'"],
  imgSrc: ["'self'", 'data:'],
  fontSrc: ["'self'"],
  connectSrc: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
};

function pageHeaders(csp: typeof BASE_CSP & { workerSrc?: string[] }): MiddlewareHandler {
  return secureHeaders({
    contentSecurityPolicy: csp,
    xFrameOptions: 'DENY',
    referrerPolicy: 'same-origin',
    strictTransportSecurity: false,
  });
}

/** The homepage (demo box) and the console (its token page previews the hosted widget). */
export const sitePageHeaders = (): MiddlewareHandler => pageHeaders(BASE_CSP);

/**
 * /docs: Redoc (served from /assets) writes its styles into <style> elements at run time and runs
 * its search index in a worker made from a blob: URL; scripts stay 'self' only.
 */
export const docsPageHeaders = (): MiddlewareHandler =>
  pageHeaders({ ...BASE_CSP, styleSrc: ["'self'", "'unsafe-inline'"], workerSrc: ["'self'", 'blob:'] });
