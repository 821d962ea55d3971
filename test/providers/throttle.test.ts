import { MockAgent } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { ProviderRunner } from '../../src/engine/fan-out.js';
import { ManualClock } from '../../src/lib/clock.js';
import { createNominatimProvider } from '../../src/providers/nominatim/adapter.js';
import { ProviderSkipped } from '../../src/providers/provider.js';
import { createProviders, type ProviderSet } from '../../src/providers/registry.js';
import { SlotThrottle } from '../../src/providers/throttle.js';
import { type Emulator, startNominatimEmulator } from '../emulators/index.js';
import { signal, TEST_AGENT, testHttp } from './harness.js';

const PUBLIC = 'https://nominatim.openstreetmap.org';

/** A throttle on a hand-moved clock: sleeping records the wait and moves the clock. */
function manualThrottle(maxWaitMs: number) {
  const clock = new ManualClock();
  const waits: number[] = [];
  const throttle = new SlotThrottle({
    intervalMs: 1000,
    maxWaitMs,
    clock,
    sleep: async (ms) => {
      waits.push(ms);
    },
  });
  return { clock, waits, throttle };
}

describe('SlotThrottle', () => {
  it('hands out slots one interval apart, in call order', async () => {
    const { waits, throttle } = manualThrottle(5000);
    for (let i = 0; i < 3; i++) await throttle.acquire(signal());
    expect(waits).toEqual([1000, 2000]);
  });

  it('skips at once when the next slot is further away than it may wait', async () => {
    const { clock, waits, throttle } = manualThrottle(500);
    await throttle.acquire(signal());
    clock.advance(400);
    await expect(throttle.acquire(signal())).rejects.toBeInstanceOf(ProviderSkipped);
    clock.advance(100); // the slot is now 500 ms away: waited for
    await throttle.acquire(signal());
    expect(waits).toEqual([500]);
  });

  it('is free again once an interval has passed', async () => {
    const { clock, waits, throttle } = manualThrottle(0);
    await throttle.acquire(signal());
    clock.advance(1000);
    await throttle.acquire(signal());
    expect(waits).toEqual([]);
  });
});

describe('public Nominatim instance (no network: undici MockAgent)', () => {
  let providers: ProviderSet | undefined;
  afterEach(async () => {
    await providers?.close();
    providers = undefined;
  });

  function publicSetup() {
    const agent = new MockAgent();
    agent.disableNetConnect();
    const seen: string[] = [];
    agent
      .get(PUBLIC)
      .intercept({ path: (p) => p.startsWith('/search?'), method: 'GET' })
      .reply((opts) => {
        const headers = opts.headers as Record<string, string>;
        seen.push(headers['user-agent'] ?? '');
        return { statusCode: 200, data: '[]', responseOptions: { headers: { 'content-type': 'application/json; charset=utf-8' } } };
      })
      .persist();
    const clock = new ManualClock();
    // Timeout 1000 ms: a slot more than 500 ms away is not waited for.
    const config = loadConfig({ PROVIDERS: 'nominatim', NOMINATIM_URL: PUBLIC, USER_AGENT: TEST_AGENT, PROVIDER_TIMEOUT_MS: '1000' });
    providers = createProviders(config, { dispatcher: agent, clock });
    return { clock, seen, providers };
  }

  it('keeps to 1 request/s: a second call within the second is skipped, not sent', async () => {
    const { clock, seen, providers } = publicSetup();
    const nominatim = providers.get('nominatim')!;
    await expect(nominatim.geocode({ query: 'Damrak 1', components: {} }, signal())).resolves.toEqual([]);
    await expect(nominatim.geocode({ query: 'Damrak 1', components: {} }, signal())).rejects.toBeInstanceOf(ProviderSkipped);
    expect(seen).toEqual([TEST_AGENT]);
    clock.advance(1000);
    await expect(nominatim.geocode({ query: 'Damrak 1', components: {} }, signal())).resolves.toEqual([]);
    expect(seen).toEqual([TEST_AGENT, TEST_AGENT]);
  });

  it('shows up as a skipped, unanswered step in the fan-out', async () => {
    const { providers } = publicSetup();
    const runner = new ProviderRunner(providers, { timeoutMs: 1000 });
    const [first] = await runner.run('geocode', { query: 'Damrak 1', components: {} });
    const [second] = await runner.run('geocode', { query: 'Damrak 1', components: {} });
    expect(first?.step.status).toBe('ok');
    expect(second).toMatchObject({ answered: false, step: { provider: 'nominatim', status: 'skipped' } });
  });
});

describe('a configured throttle in front of a real HTTP server', () => {
  let emulator: Emulator | undefined;
  afterEach(async () => emulator?.close());

  it('lets the first calls through and skips the one whose slot is too far away', async () => {
    emulator = await startNominatimEmulator();
    const http = testHttp();
    try {
      const throttle = new SlotThrottle({ intervalMs: 300, maxWaitMs: 400 });
      const nominatim = createNominatimProvider({ baseUrl: emulator.url, http, throttle });
      const calls = [0, 1, 2].map(() => nominatim.geocode({ query: 'Damrak 1 Amsterdam', components: {} }, signal()));
      const [a, b, c] = await Promise.allSettled(calls);
      expect([a?.status, b?.status]).toEqual(['fulfilled', 'fulfilled']);
      expect(c).toMatchObject({ status: 'rejected', reason: expect.any(ProviderSkipped) });
      expect(emulator.requests).toHaveLength(2);
    } finally {
      await http.close();
    }
  });
});
