import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/lib/logger.js';
import { createServices } from '../src/services.js';

/**
 * The OpenAPI document exactly as `GET /openapi.json` serves it, built in-process (no listen, no
 * network): the app is assembled over a throwaway SQLite directory and asked for the route. The
 * typed client is generated from this, so it can never drift from what the service answers.
 */
export async function buildOpenApiDocument(): Promise<Record<string, unknown>> {
  const dataDir = await mkdtemp(join(tmpdir(), 'addressd-openapi-'));
  try {
    const config = loadConfig({ DATA_DIR: dataDir, PROVIDERS: 'pdok', LOG_LEVEL: 'silent' });
    const services = await createServices(config, { logger: createLogger('silent') });
    try {
      const response = await buildApp(services).request('/openapi.json');
      if (!response.ok) throw new Error(`GET /openapi.json answered ${response.status}`);
      return (await response.json()) as Record<string, unknown>;
    } finally {
      await services.close();
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}
