export { AddressdError } from './addressd-error.js';
export { type AddressdClient, type CallOptions, type ClientOptions, createClient } from './client.js';
export type { components, paths } from './schema.js';
export type * from './types.js';
