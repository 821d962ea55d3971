import { describe, expect, it } from 'vitest';
import { ProviderRunner } from '../../src/engine/fan-out.js';
import { DEFAULT_THRESHOLDS } from '../../src/engine/types.js';
import { ValidateEngine } from '../../src/engine/validate.js';
import type { ProviderSet } from '../../src/providers/registry.js';
import type { ProviderCandidate } from '../../src/providers/provider.js';
import { MemoryResponseCache } from '../../src/store/cache/memory-cache.js';
import type { ResponseCache } from '../../src/store/cache/response-cache.js';


const DAMRAK: ProviderCandidate = {
  components: { street: 'Damrak', houseNumber: '1', postcode: '1012 LG', city: 'Amsterdam', country: 'NL' },
  location: { lat: 52.376, lng: 4.896 },
  precision: 'address',
};

/** A cache whose writes land in memory at once but whose shared store never acknowledges them (a stalled Redis). */
function stalledWrites(): { cache: ResponseCache; writes: string[] } {
  const memory = new MemoryResponseCache();
  const writes: string[] = [];
  const cache = Object.assign(Object.create(memory) as ResponseCache, {
    getText: (key: string) => memory.getText(key),
    set: async <T>(key: string, value: T, ttlMs: number) => {
      writes.push(key);
      await memory.set(key, value, ttlMs);
      await new Promise<void>(() => undefined);
    },
  });
  return { cache, writes };
}

describe('the cache write after an uncached answer', () => {
  it('is not waited for: the answer goes while the write is still on its way, and the next call is a hit', async () => {
    const providers: ProviderSet = {
      enabled: ['pdok'],
      active: ['pdok'],
      close: async () => {},
      get: (id) => (id === 'pdok' ? { id: 'pdok', covers: () => true, geocode: async () => [structuredClone(DAMRAK)] } : undefined),
    };
    const { cache, writes } = stalledWrites();
    const engine = new ValidateEngine({
      runner: new ProviderRunner(providers, { timeoutMs: 5_000 }),
      cache,
      biller: { ensureCredits: async () => {}, billed: async (_ctx, want, work) => (await work(want)).value, free: async () => {} },
      cacheTtlMs: 60_000,
    });
    const ctx = { accountId: 'acc', credentialId: 'key', env: 'live', endpoint: '/v1/validate', source: null, startedAt: 0, thresholds: DEFAULT_THRESHOLDS };
    const request = { query: 'Damrak 1, 1012 LG Amsterdam', country: 'NL' };
    const first = await engine.validate(request, ctx);
    expect(first.cached).toBe(false);
    expect(writes).toHaveLength(1);
    const second = await engine.validate(request, ctx);
    expect(second.cached).toBe(true);
    expect(second.verdict).toBe(first.verdict);
  });
});
