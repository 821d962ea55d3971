import { z } from '@hono/zod-openapi';
import { text } from './text.js';
import { requestObject } from './request-object.js';

/**
 * Outcome feedback (issue 29): what the customer finally used for one validate answer, in
 * Google's vocabulary (`provideValidationFeedback`), lower case.
 */
export const FeedbackConclusion = z
  .enum(['validated_used', 'user_used', 'unvalidated_used', 'unused'])
  .openapi('FeedbackConclusion', {
    description:
      '`validated_used`: the standardized address we returned was used; `user_used`: the address as the customer typed it was used ' +
      '(they overrode us); `unvalidated_used`: an address never validated was used; `unused`: the checkout was abandoned.',
  });
export type FeedbackConclusion = z.infer<typeof FeedbackConclusion>;
export const FEEDBACK_CONCLUSIONS = FeedbackConclusion.options;

/** `rsp_` + an opaque signed value (feedback/response-ids.ts), never longer than this: an id that would be leaves the address out. */
export const RESPONSE_ID_MAX = 1024;

export const ResponseId = text(1, RESPONSE_ID_MAX)
  .openapi({
    description: 'Opaque id of one validate answer, scoped to the account; accepted by `POST /v1/validate/feedback` for FEEDBACK_RETENTION_DAYS (default 30)',
    example: 'rsp_AbC…',
  });

export const ValidateFeedbackRequest = requestObject({ responseId: ResponseId, conclusion: FeedbackConclusion })
  .openapi('ValidateFeedbackRequest', { example: { responseId: 'rsp_3q2-7wAAAAx…', conclusion: 'validated_used' } });
export type ValidateFeedbackRequest = z.infer<typeof ValidateFeedbackRequest>;

export const FeedbackCounts = z
  .object({
    validated_used: z.number().int(),
    user_used: z.number().int(),
    unvalidated_used: z.number().int(),
    unused: z.number().int(),
  })
  .openapi('FeedbackCounts', {
    description: 'Feedback received this UTC month, per conclusion, for answers given this month (filtered by `?source=` like summary)',
    example: { validated_used: 812, user_used: 37, unvalidated_used: 4, unused: 21 },
  });
export type FeedbackCounts = z.infer<typeof FeedbackCounts>;

/** Every conclusion at zero: a period without feedback. */
export function noFeedback(): FeedbackCounts {
  return { validated_used: 0, user_used: 0, unvalidated_used: 0, unused: 0 };
}
