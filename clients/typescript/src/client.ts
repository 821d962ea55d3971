import createFetchClient from 'openapi-fetch';
import { AddressdError } from './addressd-error.js';
import type { paths } from './schema.js';
import type {
  AutocompleteRequest,
  AutocompleteResponse,
  FeedbackRequest,
  ReverseRequest,
  ReverseResponse,
  UsageQuery,
  UsageResponse,
  ValidateBatchRequest,
  ValidateBatchResponse,
  ValidateRequest,
  ValidateResponse,
} from './types.js';

export interface ClientOptions {
  /** Where the service answers, e.g. `https://addressd.example` (without `/v1`). */
  baseUrl: string;
  /** A secret API key, `ak_live_…` or `ak_test_…`: for servers only, never ship it to a browser. */
  apiKey: string;
  /** Another fetch (a proxy agent, retries, tests); the global one by default. */
  fetch?: (request: Request) => Promise<Response>;
}

/** Per call: abort a request the caller no longer needs (a checkout left, a newer keystroke). */
export interface CallOptions {
  signal?: AbortSignal;
}

export interface AddressdClient {
  /** `POST /v1/validate`: verdict, confidence, the standardized address and why. */
  validate(request: ValidateRequest, options?: CallOptions): Promise<ValidateResponse>;
  /** `POST /v1/validate/batch`: up to 100; a bad or unaffordable item is its own `{status, error}` result, not a throw. */
  validateBatch(request: ValidateBatchRequest, options?: CallOptions): Promise<ValidateBatchResponse>;
  /** `POST /v1/autocomplete`: suggestions for partial text (servers; browsers use the widget). */
  autocomplete(request: AutocompleteRequest, options?: CallOptions): Promise<AutocompleteResponse>;
  /** `POST /v1/reverse`: the addresses nearest to a position, nearest first, each with `distanceMeters` (radius 200 m and 5 by default). */
  reverse(request: ReverseRequest, options?: CallOptions): Promise<ReverseResponse>;
  /** `GET /v1/usage`: credits and usage of the key's account, optionally for one `source` tag. */
  usage(query?: UsageQuery, options?: CallOptions): Promise<UsageResponse>;
  /**
   * `POST /v1/validate/feedback` (free): what the customer finally used for an answer's `responseId`.
   * Sending the same conclusion again resolves too; another one is a 409, an unknown or expired id a 404.
   */
  feedback(request: FeedbackRequest, options?: CallOptions): Promise<void>;
}

/** What openapi-fetch resolves to: the parsed body on 2xx, else the parsed error body. */
type Outcome<T> = { data?: T; error?: unknown; response: Response };

/** The body of a 2xx; every other status becomes an AddressdError. */
async function unwrap<T>(pending: Promise<Outcome<T>>): Promise<T> {
  const { data, error, response } = await pending;
  if (!response.ok) throw AddressdError.from(response, error);
  return data as T;
}

/** A client for one API key. Requests go through openapi-fetch, typed by the service's own document. */
export function createClient(options: ClientOptions): AddressdClient {
  const api = createFetchClient<paths>({
    baseUrl: options.baseUrl,
    headers: { authorization: `Bearer ${options.apiKey}` },
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  return {
    validate: (body, { signal } = {}) => unwrap(api.POST('/v1/validate', { body, signal })),
    validateBatch: (body, { signal } = {}) => unwrap(api.POST('/v1/validate/batch', { body, signal })),
    autocomplete: (body, { signal } = {}) => unwrap(api.POST('/v1/autocomplete', { body, signal })),
    reverse: (body, { signal } = {}) => unwrap(api.POST('/v1/reverse', { body, signal })),
    usage: (query = {}, { signal } = {}) => unwrap(api.GET('/v1/usage', { params: { query }, signal })),
    feedback: async (body, { signal } = {}) => {
      await unwrap(api.POST('/v1/validate/feedback', { body, signal }));
    },
  };
}
