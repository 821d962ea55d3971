import { UsageReporter } from '../../billing/usage-report.js';
import { usageRoute } from '../../contract/routes.js';
import type { RouteModule } from '../context.js';

/** GET /v1/usage: the quota gate ran in secretKeyAuth; the report itself is free and writes nothing. */
export const usageRoutes: RouteModule = (app, services) => {
  const reporter = new UsageReporter(services.database.db, services.ledger, services.clock, (a, m, s) => services.feedback.counts(a, m, s));
  app.openapi(usageRoute, async (c) => {
    const key = c.get('key');
    // An empty `?source=` means no filter, as it means no tag on validate and autocomplete.
    const source = c.req.valid('query').source || null;
    const report = await reporter.report({ accountId: key.accountId, environment: key.env, source });
    return c.json(report, 200);
  });
};
