import { z } from '@hono/zod-openapi';
import { ValidationIssue } from './errors.js';
import { SourceTag, ValidateResponse } from './validate.js';
import { requestObject } from './request-object.js';

/** Items per `POST /v1/validate/batch` (issue 13). */
export const BATCH_MAX_ITEMS = 100;

/**
 * `{items, source?}`. The items are checked one by one after this envelope passes, so one bad
 * item gets its own 400 entry instead of failing the other 99; the document still says each
 * item is a ValidateRequest.
 */
export const ValidateBatchRequest = requestObject({
    items: z
      .array(z.unknown())
      .min(1)
      .max(BATCH_MAX_ITEMS)
      .openapi({ items: { $ref: '#/components/schemas/ValidateRequest' }, description: 'Validate requests, answered in this order' }),
    source: SourceTag.optional().openapi({ description: "Usage tag for items without their own `source`; the `?source=` parameter is the fallback" }),
  })
  .openapi('ValidateBatchRequest', {
    example: { items: [{ query: 'Damrak 1, 1012 LG Amsterdam', country: 'NL' }, { query: 'Domplein 29, Utrecht', country: 'NL', source: 'crm' }], source: 'import' },
  });
export type ValidateBatchRequest = z.infer<typeof ValidateBatchRequest>;

/** One item that was not answered: its own status and the body a single validate would have sent. */
export const BatchItemError = z
  .object({
    status: z.union([z.literal(400), z.literal(429)]).openapi({ type: 'integer', enum: [400, 429] }),
    error: z.object({ message: z.string(), issues: z.array(ValidationIssue).optional() }),
  })
  .openapi('BatchItemError', {
    description: '400: the item failed schema validation (issue paths are relative to the item). 429: credits ran out before the item ran; it cost nothing.',
  });
export type BatchItemError = z.infer<typeof BatchItemError>;

export const ValidateBatchResponse = z
  .object({ results: z.array(z.union([ValidateResponse, BatchItemError])).openapi({ description: 'One entry per item, in input order' }) })
  .openapi('ValidateBatchResponse');
export type ValidateBatchResponse = z.infer<typeof ValidateBatchResponse>;
