import { expect } from 'vitest';
import type { ProviderId } from '../../../src/contract/enums.js';
import type { ValidateRequest } from '../../../src/contract/validate.js';
import { ProviderRunner } from '../../../src/engine/fan-out.js';
import { DEFAULT_THRESHOLDS, type Thresholds } from '../../../src/engine/types.js';
import { ValidateEngine, type ValidateResult } from '../../../src/engine/validate.js';
import type { ProviderCandidate } from '../../../src/providers/provider.js';
import type { ProviderSet } from '../../../src/providers/registry.js';
import { MemoryResponseCache } from '../../../src/store/cache/memory-cache.js';

export type Answers = Partial<Record<ProviderId, ProviderCandidate[]>>;

/**
 * The real validate engine (fan-out, scoring, consensus, verdict, answer shaping, cache) over
 * providers that answer what the test says, in provider order. `ask` returns the fresh answer
 * and checks that the cached one (derived again from the cached provider answers) is the same.
 */
export function answeringEngine(answers: Answers, thresholds: Thresholds = DEFAULT_THRESHOLDS) {
  const ids = Object.keys(answers) as ProviderId[];
  const providers: ProviderSet = {
    enabled: ids,
    active: ids,
    close: async () => {},
    get: (id) => (ids.includes(id as ProviderId) ? { id: id as ProviderId, covers: () => true, geocode: async () => structuredClone(answers[id as ProviderId] ?? []) } : undefined),
  };
  const engine = new ValidateEngine({
    runner: new ProviderRunner(providers, { timeoutMs: 5_000 }),
    cache: new MemoryResponseCache(),
    biller: {
      ensureCredits: async () => {},
      billed: async (_ctx, want, work) => (await work(want)).value,
      free: async () => {},
    },
    cacheTtlMs: 60_000,
  });
  return async function ask(request: ValidateRequest): Promise<ValidateResult> {
    const fresh = await engine.uncached(request, thresholds);
    // The cache keeps provider answers, not verdicts: a hit must shape the same answer again.
    expect(await engine.cached(request, thresholds)).toEqual(fresh);
    return fresh;
  };
}
