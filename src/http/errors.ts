import type { CreditsExhaustedError } from '../engine/errors.js';

/**
 * The one table of error texts (SPEC "Errors"). Handlers throw HttpError; app.onError renders
 * `{message}` (or a richer body) with the status. Tests match these texts.
 */
export const Messages = {
  missingKey: 'Missing API key: send Authorization: Bearer <API_KEY>',
  keyWithoutBearer: 'Send the key as Authorization: Bearer <API_KEY> (the word Bearer, a space, then the key)',
  malformedKey: 'Malformed API key',
  publishableOnSecretEndpoint:
    'Publishable tokens (svc_pk_…) are for the widget endpoints (/v1/widget/…) in the browser: send a secret key (ak_live_… or ak_test_…) to this endpoint, from your server',
  unknownKey: 'Unknown or revoked API key',
  widgetToken: 'Unknown, revoked, or origin-restricted publishable token',
  widgetOrigin: 'A permitted HTTPS Origin is required',
  widgetRate: 'Widget autocomplete rate limit reached',
  widgetAccessRate: 'Too many widget access checks from this address: try again in a minute',
  widgetCredits: 'Monthly project credits exhausted',
  testKeyRate: 'Test key rate limit reached: ak_test_ keys allow 60 requests per minute',
  testKeyBatchRate: 'Test key rate limit reached: ak_test_ keys allow 60 validations per minute, and a batch counts each of its items',
  demoPrompt: 'Type an address first: send {"query": "<address>"} with 1 to 200 characters',
  demoRate: 'Demo request allowance reached.',
  notFound: 'Not found',
  bodyTooLarge: 'Request body too large: the limit is 64 KiB',
  batchBodyTooLarge: 'Request body too large: the limit for a batch is 512 KiB',
  jsonBodyRequired: 'Send the request body as JSON with Content-Type: application/json',
  internal: 'Internal server error',
  unavailable: 'Service temporarily unavailable: try again shortly',
  notReady: 'Not ready: the database does not answer',
  parserNotReady: 'Not ready: the address parser is still loading',
  methodNotAllowed: (method: string, path: string, allowed: readonly string[]) =>
    `Method ${method} is not allowed on ${path}: use ${allowed.filter((m) => m !== 'HEAD').join(' or ')}`,
  metricsToken: 'Missing or wrong metrics token: send Authorization: Bearer <METRICS_TOKEN>',
  unknownResponseId: (days: number) =>
    `Unknown or expired responseId: send an id this account received from POST /v1/validate within the last ${days} days`,
  feedbackConflict: 'Feedback for this responseId was already given with another conclusion: the first one stands',
  feedbackRate: 'Feedback rate limit reached: try again in a minute',
} as const;

/** SPEC: states monthly credits exhausted with the plan quota and the plan name, and points to the console. */
export function creditsExhausted(error: CreditsExhaustedError, consoleUrl: string): HttpError {
  return new HttpError(
    429,
    `Monthly credits exhausted: the ${error.plan} plan includes ${error.quota} credits per month and no extra credits remain. Upgrade or buy credits in the console at ${consoleUrl}`,
  );
}

/** Seconds a client is told to wait before retrying a 503: long enough for a pool to reconnect. */
export const RETRY_AFTER_UNAVAILABLE_SECONDS = 5;

/**
 * A dependency (the database, the rate limiter's Redis) cannot be reached right now: 503 with
 * Retry-After, so clients and load balancers retry instead of treating it as a bug.
 */
export function serviceUnavailable(): HttpError {
  return new HttpError(503, Messages.unavailable, undefined, { 'Retry-After': String(RETRY_AFTER_UNAVAILABLE_SECONDS) });
}

export class HttpError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 409 | 413 | 429 | 500 | 503,
    message: string,
    readonly body?: Record<string, unknown>,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}
