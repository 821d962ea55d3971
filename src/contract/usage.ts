import { z } from '@hono/zod-openapi';
import { Environment, PlanId } from './enums.js';
import { FeedbackCounts } from './feedback.js';

export const UsageQuery = z.object({
  source: z.string().optional().openapi({ param: { name: 'source', in: 'query' } }),
});

export const UsageDay = z.object({ day: z.string(), n: z.number().int(), credits: z.number().int() });
export const UsageSummaryRow = z.object({
  endpoint: z.string(),
  verdict: z.string().nullable(),
  n: z.number().int(),
  credits: z.number().int(),
});
export const UsageSourceRow = z.object({ source: z.string(), n: z.number().int(), credits: z.number().int() });
export const UsageEventRow = z
  .object({
    endpoint: z.string(),
    verdict: z.string().nullable(),
    provider: z.string().nullable(),
    latency_ms: z.number().int(),
    cached: z.number().int(),
    credits: z.number().int(),
    query: z.string().nullable(),
    source: z.string().nullable(),
    at: z.string().openapi({ example: '2026-11-21 12:00:00' }),
  })
  .openapi('UsageEvent');
export type UsageEventRow = z.infer<typeof UsageEventRow>;

export const UsageResponse = z
  .object({
    plan: PlanId,
    quota: z.number().int(),
    extraCredits: z.number().int(),
    creditsUsedThisMonth: z.number().int(),
    environment: Environment,
    filteredBySource: z.string().nullable(),
    daily: z.array(UsageDay),
    summary: z.array(UsageSummaryRow),
    sources: z.array(UsageSourceRow),
    recent: z.array(UsageEventRow),
    feedback: FeedbackCounts,
  })
  .openapi('UsageResponse');
export type UsageResponse = z.infer<typeof UsageResponse>;
