import { z } from '@hono/zod-openapi';
import { DemoWindow } from './enums.js';

export const ErrorBody = z.object({ message: z.string() }).openapi('Error');
export type ErrorBody = z.infer<typeof ErrorBody>;

export const ValidationIssue = z
  .object({
    code: z.string(),
    path: z.array(z.union([z.string(), z.number()])),
    message: z.string(),
  })
  .catchall(z.unknown())
  .openapi('ValidationIssue');

export const ValidationErrorBody = z
  .object({ message: z.literal('Validation failed'), issues: z.array(ValidationIssue) })
  .openapi('ValidationError');
export type ValidationErrorBody = z.infer<typeof ValidationErrorBody>;

export const DemoLimit = z.object({
  window: DemoWindow,
  max: z.number().int(),
  periodSeconds: z.number().int(),
  retryAfterSeconds: z.number().int(),
});
export type DemoLimit = z.infer<typeof DemoLimit>;

export const DemoRateLimitError = z
  .object({
    message: z.string(),
    limits: z.array(DemoLimit),
    retryAfterSeconds: z.number().int(),
    freeMonthlyCredits: z.number().int(),
  })
  .openapi('DemoRateLimitError');
export type DemoRateLimitError = z.infer<typeof DemoRateLimitError>;
