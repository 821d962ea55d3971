import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProviderRunner } from '../../src/engine/fan-out.js';
import type { GeocodeQuery, Provider } from '../../src/providers/provider.js';
import { createProviders, type ProviderSet } from '../../src/providers/registry.js';
import { configFor, type Emulators, startEmulators } from '../providers/harness.js';

const q = (query: string, country?: string): GeocodeQuery => ({ query, components: {}, ...(country ? { country } : {}) });

/**
 * ProviderRunner.prime (a batch's items handed ahead to providers that look many up at once): each
 * such provider gets, in one call, the queries it would be asked; providers without it, and a
 * provider known to be down, are left alone; a failed priming fails nothing.
 */
describe('ProviderRunner.prime', () => {
  let emulators: Emulators;
  const sets: ProviderSet[] = [];
  beforeAll(async () => {
    emulators = await startEmulators();
  });
  afterAll(async () => {
    await Promise.all(sets.map((s) => s.close()));
    await emulators.close();
  });

  function runnerWith(local: Provider, providers = 'pdok,photon,local'): ProviderRunner {
    const set = createProviders(configFor(emulators, { PROVIDERS: providers }), { local });
    sets.push(set);
    return new ProviderRunner(set, { timeoutMs: 1000 });
  }

  function primingLocal(covered: string[], fail = false) {
    const calls: GeocodeQuery[][] = [];
    const provider: Provider = {
      id: 'local',
      covers: (country) => country === undefined || covered.includes(country),
      geocode: async () => [],
      prime: async (queries) => {
        calls.push(queries);
        if (fail) throw new Error('connection terminated');
      },
    };
    return { provider, calls };
  }

  it('hands a provider that primes, in one call, the queries it would be asked, and no others', async () => {
    const { provider, calls } = primingLocal(['DE', 'NL']);
    const runner = runnerWith(provider);
    const queries = [q('Hauptstraße 1, Berlin', 'DE'), q('Rue de Rivoli 1, Paris', 'FR'), q('Damrak 1, Amsterdam', 'NL'), q('Damrak 1')];
    await runner.prime(queries);
    expect(calls).toEqual([[queries[0], queries[2], queries[3]]]);
    // The HTTP providers have no priming: nothing was sent to them.
    expect(emulators.pdok.requests.length + emulators.photon.requests.length).toBe(0);
  });

  it('asks nothing when no query is one the provider would be asked', async () => {
    const { provider, calls } = primingLocal(['DE']);
    await runnerWith(provider).prime([q('Rue de Rivoli 1, Paris', 'FR')]);
    await runnerWith(provider, 'pdok,photon').prime([q('Hauptstraße 1, Berlin', 'DE')]);
    expect(calls).toEqual([]);
  });

  it('a priming that fails fails nothing: the geocodes are still asked, and answered', async () => {
    const { provider, calls } = primingLocal(['DE'], true);
    const runner = runnerWith(provider, 'local');
    await expect(runner.prime([q('Hauptstraße 1, Berlin', 'DE')])).resolves.toBeUndefined();
    expect(calls).toHaveLength(1);
    const attempts = await runner.run('geocode', q('Hauptstraße 1, Berlin', 'DE'));
    expect(attempts.map((a) => [a.provider, a.answered])).toEqual([['local', true]]);
  });

  it('leaves a provider known to be down alone', async () => {
    const { provider, calls } = primingLocal(['DE']);
    const runner = runnerWith(provider, 'local');
    runner.probeFailed('local');
    await runner.prime([q('Hauptstraße 1, Berlin', 'DE')]);
    expect(calls).toEqual([]);
  });
});
