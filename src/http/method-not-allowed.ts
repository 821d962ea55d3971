import type { MiddlewareHandler } from 'hono';
import type { RouterRoute } from 'hono/types';
import type { AppEnv } from './context.js';
import { Messages } from './errors.js';

interface KnownPath {
  pattern: RegExp;
  methods: Set<string>;
}

/** A hono route path (`/dashboard/keys/:id/revoke`, `/widget/v1/*`) as an anchored RegExp. */
function pathPattern(path: string): RegExp {
  const source = path
    .split('/')
    .map((part) => (part.startsWith(':') ? '[^/]+' : part === '*' ? '.*' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${source}$`);
}

/**
 * A known path asked with a method it does not answer (`GET /v1/validate`) is 405 with `Allow`,
 * not 404 "Not found": the path is right, the method is what to change. Runs before
 * authentication, so the answer is the same with or without a key. The table is built from the
 * app's routes at the first request (every route is registered by then); middleware entries
 * (method ALL) name no method and are left out. OPTIONS goes on to the CORS preflight handlers,
 * and HEAD is answered wherever GET is.
 */
export function methodNotAllowed(routes: () => readonly RouterRoute[]): MiddlewareHandler<AppEnv> {
  let known: KnownPath[] | undefined;
  /** The methods of each path without parameters: a request to one it answers needs no pattern scan. */
  let exact: Map<string, Set<string>> | undefined;
  const table = () => {
    if (known) return known;
    const byPath = new Map<string, Set<string>>();
    for (const route of routes()) {
      if (route.method === 'ALL') continue;
      const methods = byPath.get(route.path) ?? new Set<string>();
      methods.add(route.method);
      if (route.method === 'GET') methods.add('HEAD');
      byPath.set(route.path, methods);
    }
    known = [...byPath].map(([path, methods]) => ({ pattern: pathPattern(path), methods }));
    exact = new Map([...byPath].filter(([path]) => !/[:*]/.test(path)));
    return known;
  };
  return async (c, next) => {
    const method = c.req.method;
    if (method === 'OPTIONS') return next();
    // The hot path (a known route, its own method) without testing every route's pattern.
    const patterns = table();
    if (exact?.get(c.req.path)?.has(method)) return next();
    const matching = patterns.filter((k) => k.pattern.test(c.req.path));
    if (matching.length === 0 || matching.some((k) => k.methods.has(method))) return next();
    const allowed = [...new Set(matching.flatMap((k) => [...k.methods]))];
    c.header('Allow', allowed.join(', '));
    return c.json({ message: Messages.methodNotAllowed(method, c.req.path, allowed) }, 405);
  };
}
