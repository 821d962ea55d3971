import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Account } from '../accounts/accounts.js';
import type { VerifiedToken } from '../accounts/publishable-tokens.js';
import type { VerifiedKey } from '../accounts/secret-keys.js';
import type { Services } from '../services.js';

/** Per-request values set by middleware. */
export interface AppEnv {
  Variables: {
    key: VerifiedKey;
    account: Account;
    widget: VerifiedToken;
    startedAt: number;
    /** From a valid `X-Request-Id`, else generated; echoed back and in every log line of the request. */
    requestId: string;
  };
}

export type App = OpenAPIHono<AppEnv>;

/** Route modules register themselves on the app with the services they need. */
export type RouteModule = (app: App, services: Services) => void;
