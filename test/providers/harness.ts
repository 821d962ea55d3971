import { afterAll, afterEach, beforeAll } from 'vitest';
import { type Config, loadConfig } from '../../src/config.js';
import { HttpClient } from '../../src/providers/http.js';
import { type Provider, ProviderError } from '../../src/providers/provider.js';
import { type Emulator, startNominatimEmulator, startPdokEmulator, startPhotonEmulator } from '../emulators/index.js';

export const TEST_AGENT = 'addressd-tests/1.0 (provider adapter tests)';

export interface Emulators {
  pdok: Emulator;
  photon: Emulator;
  nominatim: Emulator;
  close(): Promise<void>;
}

export async function startEmulators(): Promise<Emulators> {
  const [pdok, photon, nominatim] = await Promise.all([startPdokEmulator(), startPhotonEmulator(), startNominatimEmulator()]);
  return { pdok, photon, nominatim, close: async () => void (await Promise.all([pdok.close(), photon.close(), nominatim.close()])) };
}

export function configFor(e: Pick<Emulators, 'pdok' | 'photon' | 'nominatim'>, env: Record<string, string> = {}): Config {
  return loadConfig({
    PROVIDERS: 'pdok,photon,nominatim',
    PDOK_URL: e.pdok.url,
    PHOTON_URL: e.photon.url,
    NOMINATIM_URL: e.nominatim.url,
    USER_AGENT: TEST_AGENT,
    PROVIDER_TIMEOUT_MS: '1000',
    ...env,
  });
}

export function testHttp(): HttpClient {
  return new HttpClient({ userAgent: TEST_AGENT });
}

export const signal = (): AbortSignal => AbortSignal.timeout(5_000);

/** The ProviderError an adapter call rejects with (fails the test if it resolves). */
export async function providerError(promise: Promise<unknown>): Promise<ProviderError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ProviderError) return error;
    throw error;
  }
  throw new Error('expected the call to fail with a ProviderError');
}

/** What an adapter test file works with: the adapter, its emulator and the client it sends through. */
export interface AdapterUnderTest {
  emulator: Emulator;
  http: HttpClient;
  provider: Provider;
}

/**
 * One adapter against its emulator for a whole test file: both started before the first test,
 * the emulator's fault and request log cleared after each, everything closed at the end.
 */
export function adapterAgainstEmulator(
  start: () => Promise<Emulator>,
  create: (options: { baseUrl: string; http: HttpClient }) => Provider,
): AdapterUnderTest {
  const under = {} as AdapterUnderTest;
  beforeAll(async () => {
    under.emulator = await start();
    under.http = testHttp();
    under.provider = create({ baseUrl: under.emulator.url, http: under.http });
  });
  afterAll(async () => {
    await under.http.close();
    await under.emulator.close();
  });
  afterEach(() => {
    under.emulator.setFault({ mode: 'none' });
    under.emulator.requests.length = 0;
  });
  return under;
}
