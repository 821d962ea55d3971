import { z } from '@hono/zod-openapi';

export const HealthResponse = z
  .object({ status: z.literal('ok'), providers: z.array(z.string()) })
  .openapi('HealthResponse');
export type HealthResponse = z.infer<typeof HealthResponse>;
