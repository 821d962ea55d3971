import type { Context } from 'hono';
import { FREE_MONTHLY_CREDITS } from '../../billing/plans.js';
import { demoValidateRoute } from '../../contract/routes.js';
import { DemoLimiterUnavailableError, DemoValidator } from '../../demo/demo-validator.js';
import { instanceSamples } from '../../demo/instance-samples.js';
import { visitorIp } from '../client-address.js';
import type { RouteModule } from '../context.js';
import { Messages, serviceUnavailable } from '../errors.js';
import { flagUnverified } from '../unverified.js';

/** `recorded-example` on a sample's written-down answer (demo/samples.ts). */
export const DEMO_ANSWER_HEADER = 'X-Addressd-Demo-Answer';

const prompt = (c: Context) => c.json({ message: Messages.demoPrompt }, 400);

/** POST /demo/validate: unauthenticated, per-IP allowance, 0 credits (SPEC). */
export const demoRoutes: RouteModule = (app, services) => {
  const demo = new DemoValidator({
    engine: services.validate,
    limiter: services.limiter,
    clock: services.clock,
    freeMonthlyCredits: FREE_MONTHLY_CREDITS,
    samples: instanceSamples(services.providers, services.localIndex),
  });

  // A body that is not JSON, or malformed JSON, is "no address typed" here too: the one 400 shape
  // SPEC gives this endpoint, not the API's ValidationError or a 415.
  app.use(demoValidateRoute.path, async (c, next) => {
    if (c.req.method !== 'POST') return next();
    if (!/^application\/([\w.-]+\+)?json\b/i.test(c.req.header('content-type') ?? '')) return prompt(c);
    try {
      await c.req.json();
    } catch {
      return prompt(c);
    }
    return next();
  });

  app.openapi(
    demoValidateRoute,
    async (c) => {
      const { query } = c.req.valid('json');
      if (query.trim() === '') return prompt(c);
      const ip = visitorIp(c, services.config.TRUST_PROXY);
      let outcome;
      try {
        outcome = await demo.validate(query, ip, c.req.raw.signal, c.get('requestId'));
      } catch (error) {
        if (error instanceof DemoLimiterUnavailableError) {
          services.logger.error({ reqId: c.get('requestId'), err: error.cause }, 'demo rate limiter failed');
          throw serviceUnavailable();
        }
        throw error;
      }
      c.header('Cache-Control', 'no-store');
      if (outcome.kind === 'limited') {
        services.metrics.rateLimitRejections.inc({ limit: 'demo' });
        c.header('Retry-After', String(outcome.error.retryAfterSeconds));
        return c.json(outcome.error, 429);
      }
      flagUnverified(c, outcome.unverified === true);
      // A sample's answer is recorded, not looked up here: the page labels it as such.
      if (outcome.source === 'sample') c.header(DEMO_ANSWER_HEADER, 'recorded-example');
      return c.json(outcome.response, 200);
    },
    (result, c) => {
      if (result.success) return undefined;
      // A field the demo does not take is named (issue 36), in the demo's own {message} shape.
      const unknown = result.error.issues.find((issue) => issue.code === 'unrecognized_keys');
      return unknown ? c.json({ message: unknown.message }, 400) : prompt(c);
    },
  );
};
