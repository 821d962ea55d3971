import { OpenAPIHono } from '@hono/zod-openapi';
import { openApiDocument } from './contract/openapi.js';
import type { AppEnv, App } from './http/context.js';
import { accessLog } from './http/access-log.js';
import { limitBody } from './http/body-limit.js';
import { methodNotAllowed } from './http/method-not-allowed.js';
import { openCors } from './http/open-cors.js';
import { errorHandler } from './http/error-handler.js';
import { Messages } from './http/errors.js';
import { autocompleteRoutes } from './http/routes/autocomplete.js';
import { reverseRoutes } from './http/routes/reverse.js';
import { widgetReverseRoutes } from './http/routes/widget-reverse.js';
import { consoleRoutes } from './http/routes/console.js';
import { demoRoutes } from './http/routes/demo.js';
import { healthRoutes } from './http/routes/health.js';
import { metricsRoutes } from './http/routes/metrics.js';
import { pageRoutes } from './http/routes/pages.js';
import { readyRoutes } from './http/routes/ready.js';
import { usageRoutes } from './http/routes/usage.js';
import { validateRoutes } from './http/routes/validate.js';
import { validateBatchRoutes } from './http/routes/validate-batch.js';
import { validateFeedbackRoutes } from './http/routes/validate-feedback.js';
import { widgetAssetRoutes } from './http/routes/widget-assets.js';
import { widgetAutocompleteRoutes } from './http/routes/widget-autocomplete.js';
import { secretKeyAuth } from './http/secret-key-auth.js';
import { docsPageHeaders, sitePageHeaders } from './http/security-headers.js';
import { EXPOSED_HEADERS } from './http/unverified.js';
import { widgetAccessThrottle, widgetAuth } from './http/widget-auth.js';
import type { Services } from './services.js';

const BATCH_PATH = '/v1/validate/batch';
const FEEDBACK_PATH = '/v1/validate/feedback';
const SECRET_KEY_PATHS = ['/v1/validate', BATCH_PATH, '/v1/autocomplete', '/v1/reverse', '/v1/usage', FEEDBACK_PATH] as const;
/** The publishable-token endpoints (the widget's): token, origin, widget limits and credits first. */
const WIDGET_PATHS = ['/v1/widget/autocomplete', '/v1/widget/reverse'] as const;
/** Far above any valid request (a ValidateRequest tops out near 2 KiB); Messages.bodyTooLarge names it. */
const BODY_LIMIT_BYTES = 64 * 1024;
/** A batch holds up to 100 of them. */
const BATCH_BODY_LIMIT_BYTES = 512 * 1024;

/** The HTTP app without listen(), so tests drive it in-process or on a real port. */
export function buildApp(services: Services): App {
  const app: App = new OpenAPIHono<AppEnv>({
    // SPEC: every schema violation is 400 {message: "Validation failed", issues} with Zod's issues as they are.
    defaultHook: (result, c) => {
      if (!result.success) return c.json({ message: 'Validation failed', issues: result.error.issues }, 400);
      return undefined;
    },
  });

  // First, so every answer (a 413 and a 404 included) gets its request id, log line and metrics.
  app.use('*', accessLog(services));
  // Before authentication: a wrong method on a known path is 405 with Allow, key or no key.
  app.use('*', methodNotAllowed(() => app.routes));
  const defaultLimit = limitBody(BODY_LIMIT_BYTES, Messages.bodyTooLarge);
  const batchLimit = limitBody(BATCH_BODY_LIMIT_BYTES, Messages.batchBodyTooLarge);
  app.use('*', (c, next) => (c.req.path === BATCH_PATH ? batchLimit(c, next) : defaultLimit(c, next)));
  // Secret-key routes answer any origin (SPEC: permissive CORS; the key is the caller's to protect).
  for (const path of SECRET_KEY_PATHS) {
    app.use(path, openCors({ allowHeaders: ['Authorization', 'Content-Type'], allowMethods: ['GET', 'POST', 'OPTIONS'], exposeHeaders: EXPOSED_HEADERS, maxAgeSeconds: 600 }));
    // Feedback is free: no quota gate, and its own limit instead of the test keys' (its route).
    // A batch counts its items against the test-key limit itself, once its body is read.
    const auth = secretKeyAuth(services, { free: path === FEEDBACK_PATH, routeCountsWork: path === BATCH_PATH });
    app.use(path, async (c, next) => (c.req.method === 'OPTIONS' ? next() : auth(c, next)));
  }
  // The HTML pages: CSP, no framing, no sniffing, Referer kept to our origin.
  for (const path of ['/', '/dashboard', '/dashboard/*']) app.use(path, sitePageHeaders());
  app.use('/docs', docsPageHeaders());
  for (const path of WIDGET_PATHS) {
    app.use(path, async (c, next) => (c.req.method === 'POST' ? widgetAuth(services)(c, next) : next()));
  }

  for (const register of [healthRoutes, readyRoutes, metricsRoutes, validateRoutes, validateBatchRoutes, validateFeedbackRoutes, autocompleteRoutes, widgetAutocompleteRoutes, reverseRoutes, widgetReverseRoutes, usageRoutes, demoRoutes, pageRoutes, consoleRoutes]) {
    register(app, services);
  }
  // The hosted widget; its access check lets the script stay silent on origins no token allows.
  widgetAssetRoutes(app, {
    checkAccess: async (token, origin) => (await services.auth.widgetToken(token, origin)) !== null,
    throttle: widgetAccessThrottle(services),
  });

  // Generated with its first reader, once every route is registered: ~0.1 s a start (and a
  // restart under load) would otherwise spend before it listens.
  let document: ReturnType<typeof openApiDocument> | undefined;
  app.get('/openapi.json', (c) => c.json((document ??= openApiDocument(app, services.baseUrl, services.config.PUBLIC_BASE_URL))));

  app.notFound((c) => c.json({ message: Messages.notFound }, 404));
  app.onError(errorHandler(services.logger, services.consoleUrl));
  return app;
}
