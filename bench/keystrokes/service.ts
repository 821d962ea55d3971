import type { GeoPoint } from '../../src/contract/address.js';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { AutocompleteRequest, type AutocompleteResponse } from '../../src/contract/autocomplete.js';
import { createLogger } from '../../src/lib/logger.js';
import { createServices } from '../../src/services.js';
import { createStorage, type Storage } from '../compare/deployment.js';
import type { Ask } from './typing.js';

/** The service with only `local`, its index filled by `fill`, asked over its HTTP API with a secret key. */
export interface KeystrokeService {
  ask: Ask;
  /** How `near` reaches the index: the API's request, or (a build whose API has no `near` yet) the index itself. */
  nearVia: 'api' | 'index';
  close(): Promise<void>;
}

/** Whether this build's `POST /v1/autocomplete` takes `near` (issue 35). */
const apiTakesNear = 'near' in AutocompleteRequest.shape;

export async function openService(store: 'sqlite' | 'postgres', fill: (index: NonNullable<Awaited<ReturnType<typeof createServices>>['localIndex']>, dataDir: string) => Promise<void>): Promise<KeystrokeService> {
  const storage: Storage = await createStorage(store === 'sqlite' ? 'embedded' : 'pg+redis');
  const services = await createServices(loadConfig({ ...storage.env, PROVIDERS: 'local', LOG_LEVEL: 'silent', PORT: '0' }), { logger: createLogger('silent') });
  const close = async () => {
    await services.close();
    await storage.cleanup();
  };
  try {
    const index = services.localIndex;
    if (!index) throw new Error('the local provider is not active');
    await fill(index, storage.env.DATA_DIR!);
    const app = buildApp(services);
    const account = await services.accounts.create({ plan: 'scale', extraCredits: 10_000_000 });
    const { key } = await services.secretKeys.create(account.id, 'live');
    const overApi = async (query: string, country: string, near?: GeoPoint) => {
      const body = { query, country, limit: 5, ...(near ? { near } : {}) };
      const res = await app.request('/v1/autocomplete', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
        body: JSON.stringify(body),
      });
      if (res.status !== 200) throw new Error(`/v1/autocomplete ${JSON.stringify(body)}: HTTP ${res.status} ${await res.text()}`);
      return ((await res.json()) as AutocompleteResponse).suggestions.map((s) => s.components);
    };
    const ask: Ask = async (query, country, near) => {
      if (!near || apiTakesNear) return overApi(query, country, near);
      return (await index.autocomplete({ query, country, limit: 5, near })).map((h) => h.components);
    };
    return { ask, nearVia: apiTakesNear ? 'api' : 'index', close };
  } catch (err) {
    await close();
    throw err;
  }
}
