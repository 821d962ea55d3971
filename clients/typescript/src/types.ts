import type { paths } from './schema.js';

/**
 * Request and answer types of each method, read off the generated document types by path, so they
 * follow the service's contract (and its schema names may change freely).
 */
type JsonOf<T> = T extends { content: { 'application/json': infer Body } } ? Body : never;
type PostOf<P extends keyof paths> = paths[P] extends { post: infer Operation } ? Operation : never;
type RequestOf<P extends keyof paths> = PostOf<P> extends { requestBody: infer Body } ? JsonOf<Body> : never;
type OkOf<Operation> = Operation extends { responses: { 200: infer Ok } } ? JsonOf<Ok> : never;

export type ValidateRequest = RequestOf<'/v1/validate'>;
export type ValidateResponse = OkOf<PostOf<'/v1/validate'>>;
export type ValidateBatchRequest = RequestOf<'/v1/validate/batch'>;
export type ValidateBatchResponse = OkOf<PostOf<'/v1/validate/batch'>>;
export type AutocompleteRequest = RequestOf<'/v1/autocomplete'>;
export type AutocompleteResponse = OkOf<PostOf<'/v1/autocomplete'>>;
export type ReverseRequest = RequestOf<'/v1/reverse'>;
export type ReverseResponse = OkOf<PostOf<'/v1/reverse'>>;
export type FeedbackRequest = RequestOf<'/v1/validate/feedback'>;
export type UsageQuery = NonNullable<paths['/v1/usage']['get']['parameters']['query']>;
export type UsageResponse = OkOf<paths['/v1/usage']['get']>;
/** One schema violation of a 400 (`code`, `path`, `message`, and what else Zod says, e.g. `minimum`). */
export type ValidationIssue = JsonOf<PostOf<'/v1/validate'>['responses'][400]>['issues'][number];
