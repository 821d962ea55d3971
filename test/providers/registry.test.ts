import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Provider } from '../../src/providers/provider.js';
import { createProviders } from '../../src/providers/registry.js';
import { configFor, type Emulators, signal, startEmulators, TEST_AGENT } from './harness.js';

let emulators: Emulators;
beforeAll(async () => {
  emulators = await startEmulators();
});
afterAll(async () => emulators.close());

const fakeLocal: Provider = {
  id: 'local',
  covers: (country) => country === 'LI',
  geocode: async () => [],
  autocomplete: async () => [],
};

describe('createProviders', () => {
  it('keeps PROVIDERS as configured and builds the known ones in that order', async () => {
    // loadConfig refuses unknown ids at start; the registry still copes with a Config built in code.
    const providers = createProviders({ ...configFor(emulators), PROVIDERS: ['nominatim', 'bogus', 'pdok', 'nominatim'] });
    try {
      expect(providers.enabled).toEqual(['nominatim', 'bogus', 'pdok', 'nominatim']);
      expect(providers.active).toEqual(['nominatim', 'pdok']);
      expect(providers.get('bogus')).toBeUndefined();
      expect(providers.get('photon')).toBeUndefined(); // known, but not enabled
      expect(providers.get('pdok')?.id).toBe('pdok');
    } finally {
      await providers.close();
    }
  });

  it('takes the local provider ready-made, and leaves it out when there is none', async () => {
    const config = configFor(emulators, { PROVIDERS: 'local,photon' });
    const withLocal = createProviders(config, { local: fakeLocal });
    const without = createProviders(config);
    try {
      expect(withLocal.get('local')).toBe(fakeLocal);
      expect(withLocal.active).toEqual(['local', 'photon']);
      expect(without.get('local')).toBeUndefined();
      expect(without.active).toEqual(['photon']);
    } finally {
      await Promise.all([withLocal.close(), without.close()]);
    }
  });

  it('points every adapter at its configured URL and sends the configured User-Agent', async () => {
    const providers = createProviders(configFor(emulators));
    try {
      await Promise.all(['pdok', 'photon', 'nominatim'].map((id) => providers.get(id)!.geocode({ query: 'Damrak 1 Amsterdam', components: {} }, signal())));
      for (const e of [emulators.pdok, emulators.photon, emulators.nominatim]) {
        expect(e.requests.at(-1)?.headers['user-agent']).toBe(TEST_AGENT);
      }
    } finally {
      await providers.close();
    }
  });
});
