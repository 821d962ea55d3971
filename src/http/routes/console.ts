import { Hono } from 'hono';
import { NotFoundError } from '../../accounts/accounts.js';
import { problemPage } from '../../web/console/auth-pages.js';
import type { RouteModule, AppEnv } from '../context.js';
import { isDatabaseUnavailable } from '../../store/db/faults.js';
import { HttpError, serviceUnavailable } from '../errors.js';
import { storableConsoleInputs } from '../console-inputs.js';
import { currentCaller, Redirect } from '../console-session.js';
import { consoleAuthRoutes } from './console-auth.js';
import { consoleKeyRoutes } from './console-keys.js';
import { page } from './console-render.js';
import { consoleTokenRoutes } from './console-tokens.js';
import { consoleUsageRoutes } from './console-usage.js';

/**
 * `/dashboard`: the console. Its own error handler answers in HTML (the API's stays JSON):
 * redirects, refusals (CSRF 403, throttled 429 with Retry-After) and ids of other accounts (404).
 */
export const consoleRoutes: RouteModule = (app, services) => {
  const web = new Hono<AppEnv>();
  web.use('*', storableConsoleInputs());
  web.get('/', async (c) => c.redirect((await currentCaller(c, services)) ? '/dashboard/usage' : '/dashboard/login', 302));
  consoleAuthRoutes(web, services);
  consoleKeyRoutes(web, services);
  consoleTokenRoutes(web, services);
  consoleUsageRoutes(web, services);

  web.onError(async (error, c) => {
    if (error instanceof Redirect) {
      c.header('Cache-Control', 'no-store');
      return c.redirect(error.location, error.status);
    }
    const back = { href: '/dashboard', label: 'Back to the console' };
    if (error instanceof NotFoundError) {
      return page(c, (assets) => problemPage(assets, 'Not found', 'There is no such key or token in this account.', back), 404);
    }
    if (isDatabaseUnavailable(error)) {
      services.logger.warn({ reqId: c.get('requestId'), err: error, path: c.req.path }, 'database unavailable');
      error = serviceUnavailable();
    }
    if (error instanceof HttpError && (error.status === 400 || error.status === 403 || error.status === 429 || error.status === 503)) {
      for (const [name, value] of Object.entries(error.headers ?? {})) c.header(name, value);
      const title = error.status === 400 ? 'Unusable input' : error.status === 403 ? 'Request refused' : error.status === 429 ? 'Too many attempts' : 'Try again shortly';
      // A throttle's wait is minutes; a 503's few seconds are not worth a number.
      const wait = error.status === 429 ? error.headers?.['Retry-After'] : undefined;
      const message = wait ? `${error.message} (about ${Math.ceil(Number(wait) / 60)} min)` : error.message;
      return page(c, (assets) => problemPage(assets, title, message, back), error.status);
    }
    services.logger.error({ reqId: c.get('requestId'), err: error, path: c.req.path }, 'console error');
    return page(c, (assets) => problemPage(assets, 'Something went wrong', 'The console could not finish this request. Try again.', back), 500);
  });
  app.route('/dashboard', web);
};
