import { z } from '@hono/zod-openapi';

export const HealthResponse = z
  .object({
    status: z.literal('ok'),
    providers: z.array(z.string()),
    /** Present once the `local` provider's index holds data: the countries it answers for as checked. */
    local: z
      .object({ covered: z.array(z.string()).openapi({ description: 'ISO alpha-2 countries an import was made for (or LOCAL_COUNTRIES); elsewhere `local` answers are unverified' }) })
      .optional(),
  })
  .openapi('HealthResponse');
export type HealthResponse = z.infer<typeof HealthResponse>;

/** GET /readyz: the service can answer keyed requests (its database answers); for load balancers. */
export const ReadyResponse = z.object({ status: z.literal('ready') }).openapi('ReadyResponse');
export type ReadyResponse = z.infer<typeof ReadyResponse>;
