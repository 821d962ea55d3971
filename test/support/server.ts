import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import type { Environment, PlanId } from '../../src/contract/enums.js';
import type { App } from '../../src/http/context.js';
import type { Clock } from '../../src/lib/clock.js';
import { createLogger, type Logger } from '../../src/lib/logger.js';
import { listen } from '../../src/server.js';
import { createServices, type Services } from '../../src/services.js';
import {
  type Emulator,
  type EmulatorAddress,
  startNominatimEmulator,
  startPdokEmulator,
  startPhotonEmulator,
} from '../emulators/index.js';
import { Redis } from 'ioredis';
import { createSandbox, REDIS_URL, type Sandbox, type StorageBackend } from './backends.js';

/** Removes every key a test deployment wrote to the shared Redis. */
async function deleteRedisPrefix(prefix: string): Promise<void> {
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      cursor = next;
      if (keys.length) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

export interface TestServerOptions {
  backend?: StorageBackend;
  /** Use the real Redis for cache and limits (else in-process), under a prefix of this sandbox. */
  redis?: boolean;
  /** Share another server's storage (a second instance of the same deployment). */
  sandbox?: Sandbox;
  /** PROVIDERS; default all three HTTP providers against their emulators. */
  providers?: string;
  dataset?: EmulatorAddress[];
  clock?: Clock;
  /** Default silent; a test that asserts on log lines passes its own. */
  logger?: Logger;
  env?: Record<string, string>;
}

export interface TestServer {
  url: string;
  app: App;
  services: Services;
  sandbox: Sandbox;
  emulators: { pdok: Emulator; photon: Emulator; nominatim: Emulator };
  /** An account with one secret key (live unless said otherwise). */
  createAccount(opts?: { plan?: PlanId; extraCredits?: number; env?: Environment }): Promise<{ accountId: string; key: string; keyId: string }>;
  createToken(accountId: string, origins: string[], env?: Environment): Promise<{ tokenId: string; token: string }>;
  /** fetch against the server with JSON helpers; resolves once the server's usage writes of the call are written. */
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<Response>;
  close(): Promise<void>;
}

/** The real app on a real port, real storage (SQLite or PostgreSQL), provider emulators on 127.0.0.1. */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const ownSandbox = !options.sandbox;
  const sandbox = options.sandbox ?? (await createSandbox(options.backend ?? 'sqlite'));
  const dataset = options.dataset ? { dataset: options.dataset } : {};
  const [pdok, photon, nominatim] = await Promise.all([
    startPdokEmulator(dataset),
    startPhotonEmulator(dataset),
    startNominatimEmulator(dataset),
  ]);
  const config = loadConfig({
    ...sandbox.env,
    PORT: '0',
    HOST: '127.0.0.1',
    PROVIDERS: options.providers ?? 'pdok,photon,nominatim',
    PDOK_URL: pdok.url,
    PHOTON_URL: photon.url,
    NOMINATIM_URL: nominatim.url,
    // Far above what a loaded 2-core machine needs to answer from an emulator: a test that is not
    // about timeouts must never see one. Tests of timeouts set their own short value with a hang.
    PROVIDER_TIMEOUT_MS: '10000',
    LOG_LEVEL: 'silent',
    ...(options.redis ? { REDIS_URL, REDIS_PREFIX: `test:${sandbox.id}:` } : {}),
    ...options.env,
  });
  const services = await createServices(config, {
    logger: options.logger ?? createLogger('silent'),
    ...(options.clock ? { clock: options.clock } : {}),
  });
  const app = buildApp(services);
  // The production server set-up (keep-alive and header timeouts, drain mode), on a free port.
  const { server, port } = await listen(app, config);
  const url = `http://127.0.0.1:${port}`;

  return {
    url,
    app,
    services,
    sandbox,
    emulators: { pdok, photon, nominatim },
    async createAccount(opts = {}) {
      const account = await services.accounts.create({
        ...(opts.plan ? { plan: opts.plan } : {}),
        ...(opts.extraCredits !== undefined ? { extraCredits: opts.extraCredits } : {}),
      });
      const key = await services.secretKeys.create(account.id, opts.env ?? 'live');
      return { accountId: account.id, key: key.key, keyId: key.id };
    },
    async createToken(accountId, origins, env = 'live') {
      const token = await services.tokens.create(accountId, env, origins);
      return { tokenId: token.id, token: token.token };
    },
    async post(path, body, headers = {}) {
      const res = await fetch(`${url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      });
      // The answer goes before its usage row (issue 37): a test reading the books after post()
      // reads them once this server's background writes accepted so far are written (at once
      // while the database is away). Tests of that order itself use fetch.
      await services.ledger.flushed();
      return res;
    },
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await services.close();
      await Promise.all([pdok.close(), photon.close(), nominatim.close()]);
      if (ownSandbox && options.redis) await deleteRedisPrefix(`test:${sandbox.id}:`);
      if (ownSandbox) await sandbox.cleanup();
    },
  };
}
