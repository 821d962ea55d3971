import type { Logger } from '../lib/logger.js';
import type { ProviderId } from '../contract/enums.js';
import type { ProviderSet } from './registry.js';

/**
 * The start-up check: one log line per active provider saying whether it can be reached (info)
 * or not (warn, with why), so a machine without internet says so at once instead of answering
 * every address `invalid` in silence. Runs after listen and never delays start: each probe has
 * `timeoutMs`, and they run in parallel. `unreachable` hears of each failed probe before its
 * line is written (the runner stops listing the provider in /healthz); without `logger` the
 * probe is silent (cluster workers other than the first).
 */
export async function logReachability(
  providers: ProviderSet,
  logger: Logger | undefined,
  timeoutMs: number,
  unreachable?: (provider: ProviderId) => void,
): Promise<void> {
  const probe = providers.probe?.bind(providers);
  if (!probe) return;
  await Promise.all(
    providers.active.map(async (provider) => {
      const { reachable, detail } = await probe(provider, AbortSignal.timeout(timeoutMs));
      if (!reachable) unreachable?.(provider);
      if (!logger) return;
      if (reachable) logger.info({ provider, reachable, detail }, `provider ${provider} reachable (${detail})`);
      else logger.warn({ provider, reachable, detail }, `provider ${provider} NOT reachable (${detail}): its answers will be missing`);
    }),
  );
}
