import { createRoute, z } from '@hono/zod-openapi';
import { printableString, text } from './text.js';
import { AutocompleteRequest, AutocompleteResponse, WidgetAutocompleteResponse } from './autocomplete.js';
import { DemoRateLimitError, ErrorBody, ValidationErrorBody } from './errors.js';
import { HealthResponse, ReadyResponse } from './health.js';
import { ValidateBatchRequest, ValidateBatchResponse } from './batch.js';
import { UsageResponse } from './usage.js';
import { ReverseRequest, ReverseResponse, WidgetReverseResponse } from './reverse.js';
import { ValidateFeedbackRequest } from './feedback.js';
import { DemoValidateRequest, DemoValidateResponse, ValidateRequest, ValidateResponse } from './validate.js';

/** Every SPEC endpoint, declared once: the runtime validation and the OpenAPI 3.1 document both come from here. */
const json = <T extends z.ZodType>(schema: T, description: string) => ({
  content: { 'application/json': { schema } },
  description,
});

const SourceParam = z.object({
  source: text(0, 64, { storable: true })
    .optional()
    .openapi({ param: { name: 'source', in: 'query' }, description: 'Usage tag; the body `source` wins when both are set' }),
});

const errors = {
  400: json(ValidationErrorBody, 'The body failed schema validation: a bad value, a control character in text, or a field the schema does not declare'),
  401: json(ErrorBody, 'Missing, malformed, unknown or revoked API key, or a publishable token (those are for the widget endpoints)'),
  429: json(ErrorBody, 'Monthly credits exhausted, or the test-key rate limit reached'),
  503: {
    ...json(ErrorBody, 'The database (or the rate limiter) cannot be reached right now; nothing was billed, retry shortly'),
    headers: z.object({ 'Retry-After': z.number().int().openapi({ description: 'Seconds to wait before retrying' }) }),
  },
};
const secret = [{ secretKey: [] }];

export const healthRoute = createRoute({
  method: 'get',
  path: '/healthz',
  tags: ['Service'],
  summary: 'Health and active providers',
  responses: { 200: json(HealthResponse, 'The service is up') },
});

export const readyRoute = createRoute({
  method: 'get',
  path: '/readyz',
  tags: ['Service'],
  summary: 'Readiness for load balancers: the database answers and the address parser is loaded',
  responses: {
    200: json(ReadyResponse, 'Ready to answer keyed requests'),
    503: errors[503],
  },
});

export const validateRoute = createRoute({
  method: 'post',
  path: '/v1/validate',
  tags: ['Validation'],
  summary: 'Validate an address',
  security: secret,
  request: {
    query: SourceParam,
    body: { required: true, content: { 'application/json': { schema: ValidateRequest } } },
  },
  responses: { 200: json(ValidateResponse, 'Verdict, confidence and the standardized address'), ...errors },
});

export const autocompleteRoute = createRoute({
  method: 'post',
  path: '/v1/autocomplete',
  tags: ['Autocomplete'],
  summary: 'Autocomplete a partial address (servers)',
  security: secret,
  request: {
    query: SourceParam,
    body: { required: true, content: { 'application/json': { schema: AutocompleteRequest } } },
  },
  responses: { 200: json(AutocompleteResponse, 'Suggestions'), ...errors },
});

// Required by SPEC, yet optional to the validator: a missing Origin must get the widget's 403 (POST)
// or a bodiless 403 (preflight), never a 400, so the document marks it required by hand.
const originHeader = (description: string) =>
  z.string().optional().openapi({ param: { name: 'origin', in: 'header', required: true }, description });

const OriginHeader = z.object({ origin: originHeader('Exact HTTPS origin on the token allowlist') });

export const widgetAutocompleteRoute = createRoute({
  method: 'post',
  path: '/v1/widget/autocomplete',
  tags: ['Autocomplete'],
  summary: 'Autocomplete for the browser widget (publishable token)',
  security: [{ publishableToken: [] }],
  request: {
    headers: OriginHeader,
    body: { required: true, content: { 'application/json': { schema: AutocompleteRequest } } },
  },
  responses: {
    200: json(WidgetAutocompleteResponse, 'Suggestions with opaque ids'),
    400: errors[400],
    401: json(ErrorBody, 'Token missing, malformed, revoked or origin-restricted'),
    403: json(ErrorBody, 'No Origin header, or not an exact HTTPS origin'),
    429: json(ErrorBody, 'Widget rate limit or credits exhausted'),
    503: errors[503],
  },
});

export const widgetPreflightRoute = createRoute({
  method: 'options',
  path: '/v1/widget/autocomplete',
  tags: ['Autocomplete'],
  summary: 'CORS preflight for the widget endpoint',
  request: {
    headers: z.object({
      origin: originHeader('Exact HTTPS origin the page runs on'),
      'access-control-request-method': z
        .string()
        .optional()
        .openapi({ param: { name: 'access-control-request-method', in: 'header', required: true }, example: 'POST' }),
    }),
  },
  responses: {
    204: { description: 'The origin is allowed by at least one active publishable token; CORS headers set' },
    403: { description: 'Origin missing, not HTTPS, or on no active allowlist (no body)' },
  },
});

export const usageRoute = createRoute({
  method: 'get',
  path: '/v1/usage',
  tags: ['Usage'],
  summary: 'Credits and usage of the calling account',
  security: secret,
  request: {
    query: z.object({
      source: printableString().optional().openapi({ param: { name: 'source', in: 'query' }, description: 'Filter summary, daily and recent to one tag' }),
    }),
  },
  responses: {
    200: json(UsageResponse, 'Usage report'),
    401: errors[401],
    429: errors[429],
    503: errors[503],
  },
});

export const demoValidateRoute = createRoute({
  method: 'post',
  path: '/demo/validate',
  tags: ['Demo'],
  summary: 'Public demo validation for the homepage (rate limited, not for production)',
  request: { body: { required: true, content: { 'application/json': { schema: DemoValidateRequest } } } },
  responses: {
    200: json(DemoValidateResponse, 'Validation result'),
    400: json(ErrorBody, 'Missing or invalid query'),
    429: {
      ...json(DemoRateLimitError, 'Demo allowance reached'),
      headers: z.object({ 'Retry-After': z.number().int().openapi({ description: 'Seconds until the longest exhausted window admits a request' }) }),
    },
    503: errors[503],
  },
});

export const validateBatchRoute = createRoute({
  method: 'post',
  path: '/v1/validate/batch',
  tags: ['Validation'],
  summary: 'Validate up to 100 addresses in one call',
  description:
    'Each item is billed, cached and recorded exactly like one `POST /v1/validate` (one usage event per item, endpoint `/v1/validate/batch`). ' +
    'Items run a few at a time; a bad item or running out of credits answers that item alone. Body limit 512 KiB. ' +
    "An `ak_test_` key's limit of 60 a minute counts each item: a batch beyond what is left of it is refused whole with 429 and `Retry-After`, nothing looked up or billed.",
  security: secret,
  request: {
    query: SourceParam,
    body: { required: true, content: { 'application/json': { schema: ValidateBatchRequest } } },
  },
  responses: {
    200: json(ValidateBatchResponse, 'One result per item, in input order: a ValidateResponse or a BatchItemError'),
    ...errors,
    413: json(ErrorBody, 'The body exceeds 512 KiB'),
  },
});

export const validateFeedbackRoute = createRoute({
  method: 'post',
  path: '/v1/validate/feedback',
  tags: ['Validation'],
  summary: 'Tell what the customer finally used for one validate answer (free)',
  description:
    'Send once the checkout is over: the `responseId` of the answer and what was used. Free (no credits, no usage event) with its own rate limit ' +
    '(FEEDBACK_RATE_PER_MINUTE per account, all its keys together). Counted in `GET /v1/usage` `feedback`; a `user_used` conclusion on an answer that found no such street or ' +
    'house number records an index gap for the operator. Sending the same conclusion again is harmless (204); another conclusion is 409. ' +
    'With FEEDBACK=off the service checks the id and answers 204 but keeps nothing.',
  security: secret,
  request: { body: { required: true, content: { 'application/json': { schema: ValidateFeedbackRequest } } } },
  responses: {
    204: { description: 'Recorded (or already recorded with this conclusion)' },
    400: errors[400],
    401: errors[401],
    404: json(ErrorBody, 'Unknown responseId, expired (older than FEEDBACK_RETENTION_DAYS) or issued to another account'),
    409: json(ErrorBody, 'Feedback with another conclusion was already recorded for this responseId'),
    429: json(ErrorBody, 'Feedback rate limit reached'),
    503: errors[503],
  },
});

const reverseDescription =
  'The addresses nearest to a position (a phone\'s location), nearest first, each with its distance: from the `local` index and the providers that look up ' +
  'positions (Photon, Nominatim, PDOK in the Netherlands). Billed like autocomplete (a credit per answering provider; a cached answer is free), cached 24 h ' +
  'for the same position to 5 decimal places. Defaults: `limit` 5 (at most 10), `radiusMeters` 200 (at most 5000). No address within the radius (the open sea): an empty list.';

export const reverseRoute = createRoute({
  method: 'post',
  path: '/v1/reverse',
  tags: ['Reverse'],
  summary: 'The nearest addresses to a position (servers)',
  description: reverseDescription,
  security: secret,
  request: {
    query: SourceParam,
    body: { required: true, content: { 'application/json': { schema: ReverseRequest } } },
  },
  responses: { 200: json(ReverseResponse, 'The nearest addresses, nearest first'), ...errors },
});

export const widgetReverseRoute = createRoute({
  method: 'post',
  path: '/v1/widget/reverse',
  tags: ['Reverse'],
  summary: 'The nearest addresses to a position, for the browser widget (publishable token)',
  description: `${reverseDescription} The widget's origin allowlist, rate limits and credits apply as on \`/v1/widget/autocomplete\`; suggestion ids are opaque and sealed to the token.`,
  security: [{ publishableToken: [] }],
  request: {
    headers: OriginHeader,
    body: { required: true, content: { 'application/json': { schema: ReverseRequest } } },
  },
  responses: {
    200: json(WidgetReverseResponse, 'The nearest addresses with opaque ids'),
    400: errors[400],
    401: json(ErrorBody, 'Token missing, malformed, revoked or origin-restricted'),
    403: json(ErrorBody, 'No Origin header, or not an exact HTTPS origin'),
    429: json(ErrorBody, 'Widget rate limit or credits exhausted'),
    503: errors[503],
  },
});

export const widgetReversePreflightRoute = createRoute({
  ...widgetPreflightRoute,
  path: '/v1/widget/reverse',
  tags: ['Reverse'],
  summary: 'CORS preflight for the widget reverse endpoint',
});
