import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ProviderRunner } from '../../src/engine/fan-out.js';
import type { GeocodeQuery } from '../../src/providers/provider.js';
import { createProviders, type ProviderSet } from '../../src/providers/registry.js';
import { captureLogs, LEVEL } from '../support/log-capture.js';
import { configFor, type Emulators, startEmulators } from '../providers/harness.js';

const DAMRAK: GeocodeQuery = { query: 'Damrak 1, 1012 LG Amsterdam', components: {}, country: 'NL' };

/** What the operator reads when a provider misbehaves: one `warn` line per failed call and per circuit transition. */
describe('provider failures in the logs', () => {
  let emulators: Emulators;
  const sets: ProviderSet[] = [];

  beforeAll(async () => {
    emulators = await startEmulators();
  });
  afterAll(async () => {
    await Promise.all(sets.map((s) => s.close()));
    await emulators.close();
  });
  afterEach(() => {
    vi.useRealTimers();
    for (const e of [emulators.pdok, emulators.photon, emulators.nominatim]) e.setFault({ mode: 'none' });
  });

  // Faults answer at once; only `hang` waits for the timeout, long enough for a busy machine.
  function runner(failures = 5) {
    const providers = createProviders(configFor(emulators, { PROVIDERS: 'pdok' }));
    sets.push(providers);
    const logs = captureLogs();
    const r = new ProviderRunner(providers, { timeoutMs: 2000, breaker: { failures, halfOpenAfterMs: 30_000 }, logger: logs.logger });
    return { r, lines: logs.lines };
  }

  it.each([
    [{ mode: 'status', status: 500 } as const, { status: 'error', cause: '500', error: 'HTTP 500' }],
    [{ mode: 'status', status: 429 } as const, { status: 'error', cause: '429', error: 'HTTP 429' }],
    [{ mode: 'malformed' } as const, { status: 'error', cause: 'malformed', error: expect.stringMatching(/malformed JSON/) }],
    [{ mode: 'wrong-shape' } as const, { status: 'error', cause: 'malformed', error: expect.stringMatching(/unexpected response shape/) }],
    [{ mode: 'hang' } as const, { status: 'timeout', cause: 'timeout', error: 'no answer within 2000 ms' }],
  ])('logs %o at warn with provider, status and cause', async (fault, expected) => {
    const { r, lines } = runner();
    emulators.pdok.setFault(fault);
    await r.run('geocode', DAMRAK);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: LEVEL.warn, provider: 'pdok', kind: 'geocode', ...expected });
  });

  it('logs nothing for a provider that answered', async () => {
    const { r, lines } = runner();
    await r.run('geocode', DAMRAK);
    expect(lines).toEqual([]);
  });

  it('logs each circuit transition once: open (with the cause), half-open, closed', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const { r, lines } = runner(2);
    emulators.pdok.setFault({ mode: 'status', status: 503 });
    await r.run('geocode', DAMRAK);
    await r.run('geocode', DAMRAK);
    await r.run('geocode', DAMRAK); // circuit-open: no line of its own
    const circuit = () => lines.filter((l) => 'circuit' in l).map((l) => [l.level, l.provider, l.circuit, l.cause]);
    expect(circuit()).toEqual([[LEVEL.warn, 'pdok', 'open', 'HTTP 503']]);
    expect(lines.filter((l) => l.status === 'error')).toHaveLength(2);

    emulators.pdok.setFault({ mode: 'none' });
    vi.setSystemTime(Date.now() + 31_000);
    await r.run('geocode', DAMRAK);
    expect(circuit()).toEqual([
      [LEVEL.warn, 'pdok', 'open', 'HTTP 503'],
      [LEVEL.warn, 'pdok', 'half-open', undefined],
      [LEVEL.warn, 'pdok', 'closed', undefined],
    ]);
  });
});
