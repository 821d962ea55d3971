import { healthRoute } from '../../contract/routes.js';
import type { RouteModule } from '../context.js';

export const healthRoutes: RouteModule = (app, services) => {
  app.openapi(healthRoute, (c) =>
    c.json(
      {
        status: 'ok' as const,
        providers: services.runner.usable(),
        // Once the index holds data (as `local` in providers): which of its countries it answers for as checked.
        ...(services.localIndex && services.localIndex.knownCountries().length > 0 ? { local: { covered: [...services.localIndex.covered()] } } : {}),
      },
      200,
    ),
  );
};
