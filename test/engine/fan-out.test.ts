import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ProviderRunner, type RunnerOptions } from '../../src/engine/fan-out.js';
import { type GeocodeQuery, type Provider, ProviderError } from '../../src/providers/provider.js';
import { createProviders, type ProviderSet } from '../../src/providers/registry.js';
import { configFor, type Emulators, startEmulators } from '../providers/harness.js';

const DAMRAK: GeocodeQuery = { query: 'Damrak 1, 1012 LG Amsterdam', components: {}, country: 'NL' };

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
  for (const e of [emulators.pdok, emulators.photon, emulators.nominatim]) {
    e.setFault({ mode: 'none' });
    e.requests.length = 0;
  }
});

function runner(env: Record<string, string> = {}, opts: Partial<RunnerOptions> = {}): ProviderRunner {
  // loadConfig refuses unknown ids at start; the runner still copes with a Config built in code.
  const { PROVIDERS, ...rest } = env;
  const providers = createProviders({ ...configFor(emulators, rest), ...(PROVIDERS ? { PROVIDERS: PROVIDERS.split(',') } : {}) });
  sets.push(providers);
  return new ProviderRunner(providers, { timeoutMs: 10_000, ...opts });
}

const statuses = (attempts: { step: { provider: string; status: string } }[]) => attempts.map((a) => [a.step.provider, a.step.status]);

describe('ProviderRunner planning', () => {
  it('reports one step per enabled provider, in config order, for every reason not to call', async () => {
    const r = runner({ PROVIDERS: 'nominatim,bogus,pdok,photon,local,photon' });
    const attempts = await r.run('geocode', { query: 'Unter den Linden 77 Berlin', components: {}, country: 'DE' });
    expect(statuses(attempts)).toEqual([
      ['nominatim', 'ok'],
      ['bogus', 'unknown-provider'],
      ['pdok', 'no-coverage'],
      ['photon', 'ok'],
      ['local', 'skipped'], // enabled, but no local index was handed in
    ]);
    expect(emulators.pdok.requests).toHaveLength(0);
    expect(attempts.filter((a) => a.answered).map((a) => a.provider)).toEqual(['nominatim', 'photon']);
  });

  it('lists as eligible exactly the providers it would call', () => {
    const r = runner({ PROVIDERS: 'pdok,photon,nominatim,bogus,local' });
    expect(r.eligible('geocode', 'NL')).toEqual(['pdok', 'photon', 'nominatim']);
    expect(r.eligible('geocode', 'DE')).toEqual(['photon', 'nominatim']);
    expect(r.eligible('geocode', undefined)).toEqual(['pdok', 'photon', 'nominatim']);
    expect(r.eligible('autocomplete', 'NL')).toEqual(['pdok', 'photon']);
    expect(r.active()).toEqual(['pdok', 'photon', 'nominatim']);
  });

  it('leaves a provider the start-up probe could not reach out of usable() until it answers a call', async () => {
    const r = runner();
    r.probeFailed('pdok');
    expect(r.usable()).toEqual(['photon', 'nominatim']);
    emulators.pdok.setFault({ mode: 'status', status: 500 });
    await r.run('geocode', DAMRAK);
    expect(r.usable()).toEqual(['photon', 'nominatim']);
    emulators.pdok.setFault({ mode: 'none' });
    await r.run('geocode', DAMRAK);
    expect(r.usable()).toEqual(['pdok', 'photon', 'nominatim']);
  });

  it('marks nominatim unsupported for autocomplete and does not call it', async () => {
    const attempts = await runner().run('autocomplete', { query: 'Damrak', limit: 5, country: 'NL' });
    expect(statuses(attempts)).toEqual([
      ['pdok', 'ok'],
      ['photon', 'ok'],
      ['nominatim', 'unsupported'],
    ]);
    expect(emulators.nominatim.requests).toHaveLength(0);
    expect(attempts[0]?.candidates.length).toBeGreaterThan(0);
  });

  it('skips eligible providers outside `only` (the credits reserved) without calling them', async () => {
    const attempts = await runner().run('geocode', DAMRAK, undefined, { only: ['photon'] });
    expect(statuses(attempts)).toEqual([
      ['pdok', 'skipped'],
      ['photon', 'ok'],
      ['nominatim', 'skipped'],
    ]);
    expect(emulators.pdok.requests.length + emulators.nominatim.requests.length).toBe(0);
  });
});

describe('ProviderRunner calls', () => {
  it('returns candidates, result counts and latency for answering providers', async () => {
    const attempts = await runner().run('geocode', DAMRAK);
    for (const a of attempts) {
      expect(a).toMatchObject({ answered: true, step: { status: 'ok', resultCount: a.candidates.length } });
      expect(Number.isInteger(a.step.latencyMs)).toBe(true);
      expect(a.candidates[0]?.components).toMatchObject({ street: 'Damrak', houseNumber: '1' });
    }
  });

  it('calls the providers in parallel', async () => {
    // Each stub waits until all three have started: sequential calls would all time out.
    let started = 0;
    let release!: () => void;
    const allStarted = new Promise<void>((resolve) => (release = resolve));
    const stub = (id: 'pdok' | 'photon' | 'nominatim'): Provider => ({
      id,
      covers: () => true,
      geocode: async () => {
        if (++started === 3) release();
        await allStarted;
        return [];
      },
    });
    const stubs = new Map([stub('pdok'), stub('photon'), stub('nominatim')].map((p) => [p.id as string, p]));
    const set: ProviderSet = { enabled: [...stubs.keys()], active: ['pdok', 'photon', 'nominatim'], get: (id) => stubs.get(id), close: async () => {} };
    const attempts = await new ProviderRunner(set, { timeoutMs: 2000 }).run('geocode', DAMRAK);
    expect(attempts.map((a) => a.step.status)).toEqual(['ok', 'ok', 'ok']);
  });

  it('never fails the request when one provider fails', async () => {
    emulators.pdok.setFault({ mode: 'status', status: 500 });
    const attempts = await runner().run('geocode', DAMRAK);
    expect(attempts[0]).toMatchObject({ answered: false, candidates: [], step: { provider: 'pdok', status: 'error', error: 'HTTP 500' } });
    expect(attempts.slice(1).map((a) => a.step.status)).toEqual(['ok', 'ok']);
  });

  it.each([
    [{ mode: 'malformed' as const }, /malformed JSON/],
    [{ mode: 'wrong-content-type' as const }, /content type/],
    [{ mode: 'wrong-shape' as const }, /unexpected response shape/],
    [{ mode: 'status' as const, status: 429 as const }, /HTTP 429/],
  ])('reports %o as an error step', async (fault, message) => {
    emulators.photon.setFault(fault);
    const [, photon] = await runner().run('geocode', DAMRAK);
    expect(photon?.step).toMatchObject({ status: 'error', error: expect.stringMatching(message) });
    expect(photon?.answered).toBe(false);
  });

  it('gives up on a provider at its timeout and returns within a small margin', async () => {
    emulators.pdok.setFault({ mode: 'hang' });
    const started = Date.now();
    // Only the hanging one: on a busy machine the others could miss so short a timeout too.
    const attempts = await runner({ PROVIDERS: 'pdok' }, { timeoutMs: 300 }).run('geocode', DAMRAK);
    const elapsed = Date.now() - started;
    expect(attempts[0]?.step).toMatchObject({ provider: 'pdok', status: 'timeout', error: 'no answer within 300 ms' });
    expect(attempts[0]?.step.latencyMs).toBeGreaterThanOrEqual(290);
    expect(elapsed).toBeLessThan(300 + 1000);
    expect(emulators.pdok.requests).toHaveLength(1);
  });

  it('reports a slow answer past the timeout as timeout, and within it as ok', async () => {
    emulators.photon.setFault({ mode: 'slow', delayMs: 500 });
    const [, late] = await runner({}, { timeoutMs: 200 }).run('geocode', DAMRAK);
    const [, inTime] = await runner({}, { timeoutMs: 10_000 }).run('geocode', DAMRAK);
    expect([late?.step.status, inTime?.step.status]).toEqual(['timeout', 'ok']);
  });
});

describe('ProviderRunner cancellation', () => {
  it('marks calls in flight as aborted when the caller aborts', async () => {
    emulators.pdok.setFault({ mode: 'hang' });
    emulators.photon.setFault({ mode: 'hang' });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const started = Date.now();
    const attempts = await runner({ PROVIDERS: 'pdok,photon' }, { timeoutMs: 5000 }).run('geocode', DAMRAK, controller.signal);
    expect(attempts.map((a) => a.step.status)).toEqual(['aborted', 'aborted']);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('calls nobody when the signal is already aborted', async () => {
    const attempts = await runner().run('geocode', DAMRAK, AbortSignal.abort());
    expect(attempts.map((a) => a.step.status)).toEqual(['aborted', 'aborted', 'aborted']);
    expect(emulators.pdok.requests.length + emulators.photon.requests.length + emulators.nominatim.requests.length).toBe(0);
  });

  it('does not count caller aborts against the circuit breaker', async () => {
    emulators.photon.setFault({ mode: 'hang' });
    const r = runner({ PROVIDERS: 'photon' }, { timeoutMs: 5000, breaker: { failures: 2, halfOpenAfterMs: 60_000 } });
    for (let i = 0; i < 3; i++) await r.run('geocode', DAMRAK, AbortSignal.timeout(30));
    emulators.photon.setFault({ mode: 'none' });
    expect((await r.run('geocode', DAMRAK))[0]?.step.status).toBe('ok');
  });
});

/** Stand-in providers whose behaviour a test switches; they count their calls. */
function stubSet(ids: readonly ('pdok' | 'photon')[]) {
  const mode: Record<string, 'ok' | 'fail' | 'hang'> = {};
  const calls: Record<string, number> = {};
  const stubs = new Map<string, Provider>(
    ids.map((id) => {
      mode[id] = 'ok';
      calls[id] = 0;
      const provider: Provider = {
        id,
        covers: () => true,
        geocode: (_query, signal) => {
          calls[id] = (calls[id] ?? 0) + 1;
          if (mode[id] === 'fail') return Promise.reject(new ProviderError('HTTP 503', 'http'));
          if (mode[id] === 'hang') return new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason)));
          return Promise.resolve([]);
        },
      };
      return [id, provider];
    }),
  );
  const set: ProviderSet = { enabled: [...ids], active: [...ids], get: (id) => stubs.get(id), close: async () => {} };
  return { set, mode, calls };
}

describe('ProviderRunner circuit breaker', () => {
  // cockatiel times the open state with Date.now(): moving the system time replaces sleeping.
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('opens after 5 consecutive failures, stops calling, then recovers through half-open', async () => {
    const { set, mode, calls } = stubSet(['pdok']);
    const r = new ProviderRunner(set, { timeoutMs: 1000, breaker: { failures: 5, halfOpenAfterMs: 30_000 } });
    mode.pdok = 'fail';
    for (let i = 0; i < 5; i++) expect((await r.run('geocode', DAMRAK))[0]?.step).toMatchObject({ status: 'error', error: 'HTTP 503' });
    const [open] = await r.run('geocode', DAMRAK);
    expect(open).toMatchObject({ answered: false, step: { status: 'circuit-open' } });
    expect(calls.pdok).toBe(5);
    expect(r.eligible('geocode', 'NL')).toEqual(['pdok']); // still reserved: it may half-open

    // Still open just before the half-open delay.
    vi.setSystemTime(Date.now() + 29_000);
    expect((await r.run('geocode', DAMRAK))[0]?.step.status).toBe('circuit-open');
    expect(calls.pdok).toBe(5);

    // Half-open: one trial call; a failure opens the circuit again at once.
    vi.setSystemTime(Date.now() + 2_000);
    expect((await r.run('geocode', DAMRAK))[0]?.step.status).toBe('error');
    expect((await r.run('geocode', DAMRAK))[0]?.step.status).toBe('circuit-open');
    expect(calls.pdok).toBe(6);

    // A successful trial closes it.
    mode.pdok = 'ok';
    vi.setSystemTime(Date.now() + 31_000);
    expect((await r.run('geocode', DAMRAK))[0]?.step.status).toBe('ok');
    expect((await r.run('geocode', DAMRAK))[0]?.step.status).toBe('ok');
    expect(calls.pdok).toBe(8);
  });

  it('counts timeouts as failures and keeps breakers per provider', async () => {
    const { set, mode, calls } = stubSet(['pdok', 'photon']);
    const r = new ProviderRunner(set, { timeoutMs: 100, breaker: { failures: 2, halfOpenAfterMs: 60_000 } });
    mode.pdok = 'hang';
    expect(statuses(await r.run('geocode', DAMRAK))).toEqual([
      ['pdok', 'timeout'],
      ['photon', 'ok'],
    ]);
    await r.run('geocode', DAMRAK);
    expect(statuses(await r.run('geocode', DAMRAK))).toEqual([
      ['pdok', 'circuit-open'],
      ['photon', 'ok'],
    ]);
    expect(calls).toEqual({ pdok: 2, photon: 3 });
  });

  it('keeps each call within its own deadline while it waits for a half-open trial call', async () => {
    // Call by call: a failure opens the circuit; the trial answers late but in time; the call
    // queued behind the trial then meets a provider that hangs.
    const script: ('fail' | 'late' | 'hang')[] = ['fail', 'late', 'hang'];
    const provider: Provider = {
      id: 'pdok',
      covers: () => true,
      geocode: (_query, signal) => {
        const step = script.shift();
        if (step === 'fail') return Promise.reject(new ProviderError('HTTP 503', 'http'));
        if (step === 'late') return new Promise((resolve) => setTimeout(() => resolve([]), 300));
        return new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason)));
      },
    };
    const set: ProviderSet = { enabled: ['pdok'], active: ['pdok'], get: () => provider, close: async () => {} };
    const r = new ProviderRunner(set, { timeoutMs: 400, breaker: { failures: 1, halfOpenAfterMs: 1_000 } });
    expect((await r.run('geocode', DAMRAK))[0]?.step.status).toBe('error');
    vi.setSystemTime(Date.now() + 2_000);

    const [trial, queued] = await Promise.all([r.run('geocode', DAMRAK), r.run('geocode', DAMRAK)]);
    expect(trial[0]?.step.status).toBe('ok');
    expect(queued[0]?.step.status).toBe('timeout');
    // Its own 400 ms, counted from when it started: not 300 ms of waiting plus another 400.
    expect(queued[0]?.step.latencyMs).toBeLessThan(600);
    expect(script).toEqual([]);
  });

  it('opens the real adapter\'s circuit on HTTP errors from its emulator and stops calling it', async () => {
    vi.useRealTimers();
    const r = runner({ PROVIDERS: 'pdok' }, { breaker: { failures: 3, halfOpenAfterMs: 60_000 } });
    emulators.pdok.setFault({ mode: 'status', status: 503 });
    const seen: string[] = [];
    for (let i = 0; i < 5; i++) seen.push((await r.run('geocode', DAMRAK))[0]?.step.status ?? 'none');
    expect(seen).toEqual(['error', 'error', 'error', 'circuit-open', 'circuit-open']);
    expect(emulators.pdok.requests).toHaveLength(3);
  });
});
