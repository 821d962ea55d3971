import { z } from '@hono/zod-openapi';

export const HealthResponse = z
  .object({ status: z.literal('ok'), providers: z.array(z.string()) })
  .openapi('HealthResponse');
export type HealthResponse = z.infer<typeof HealthResponse>;

/** GET /readyz: the service can answer keyed requests (its database answers); for load balancers. */
export const ReadyResponse = z.object({ status: z.literal('ready') }).openapi('ReadyResponse');
export type ReadyResponse = z.infer<typeof ReadyResponse>;
