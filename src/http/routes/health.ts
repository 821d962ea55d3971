import { healthRoute } from '../../contract/routes.js';
import type { RouteModule } from '../context.js';

export const healthRoutes: RouteModule = (app, services) => {
  app.openapi(healthRoute, (c) =>
    c.json(
      {
        status: 'ok' as const,
        providers: services.runner.usable(),
        ...(services.localIndex ? { local: { covered: [...services.localIndex.covered()] } } : {}),
      },
      200,
    ),
  );
};
