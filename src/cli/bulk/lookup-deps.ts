import type { Config } from '../../config.js';
import { ProviderRunner } from '../../engine/fan-out.js';
import type { Clock } from '../../lib/clock.js';
import { localIndexOptions } from '../../local-index/config-options.js';
import { openLocalIndex } from '../../local-index/index.js';
import { createLocalProvider } from '../../providers/local/adapter.js';
import { createProviders } from '../../providers/registry.js';
import { createResponseCache } from '../../store/cache/index.js';
import { RunResponseCache } from '../../store/cache/run-cache.js';
import { localPrimer } from './prime.js';
import type { LookupDeps } from './row-lookup.js';

/**
 * What a lookup thread builds for itself, as createServices does for the API: the local index
 * opened on its own connection (it only searches it), the providers, a runner with the same
 * timeout and breaker, the response cache. No ledger, no sweeper: billing stays in the main thread.
 */
export async function openLookupDeps(config: Config, clock: Clock): Promise<LookupDeps & { close(): Promise<void> }> {
  // Searches read where the API's do (a replica when LOCAL_INDEX_READ_URL is set).
  const localIndex = config.PROVIDERS.includes('local')
    ? await openLocalIndex({ ...localIndexOptions(config, true), clock })
    : undefined;
  // Redis is shared with the API; without it the cache is this run's own (run-cache.ts).
  const cache = config.REDIS_URL ? await createResponseCache({ redisUrl: config.REDIS_URL, keyPrefix: config.REDIS_PREFIX }) : new RunResponseCache(clock);
  const providers = createProviders(config, localIndex ? { local: createLocalProvider(localIndex) } : {});
  const runner = new ProviderRunner(providers, {
    timeoutMs: config.PROVIDER_TIMEOUT_MS,
    breaker: { failures: config.BREAKER_FAILURES, halfOpenAfterMs: config.BREAKER_HALF_OPEN_MS },
  });
  return {
    runner,
    cache,
    cacheTtlMs: config.VALIDATE_CACHE_TTL_MS,
    clock,
    prime: localIndex && localPrimer(localIndex),
    async close() {
      await cache.close();
      await localIndex?.close();
    },
  };
}
