import { describe, expect, it } from 'vitest';
import { DemoValidateResponse, type ValidateRequest } from '../../src/contract/validate.js';
import { DemoLimiterUnavailableError, DemoValidator } from '../../src/demo/demo-validator.js';
import { DEMO_SAMPLES } from '../../src/demo/samples.js';
import type { ValidateResult } from '../../src/engine/validate.js';
import { ManualClock } from '../../src/lib/clock.js';
import { MemoryRateLimiter } from '../../src/store/limits/memory-limiter.js';
import type { RateLimiter } from '../../src/store/limits/rate-limiter.js';

const FOUND: ValidateResult = {
  verdict: 'valid',
  confidence: 97,
  address: {
    street: 'Domplein', houseNumber: '29', postcode: '3512 JE', city: 'Utrecht', country: 'NL', lat: 52.09086, lng: 5.12234,
    lines: ['Domplein 29', '3512 JE Utrecht'], formatted: 'Domplein 29, 3512 JE Utrecht', inferred: [],
  },
  components: { street: 'match', houseNumber: 'match' },
  provider: 'pdok',
  reasons: [],
  consensus: { status: 'single-provider', score: null, baseConfidence: 97, confidenceDelta: 0, supportingProviders: ['pdok'], conflictingProviders: [], disagreements: [] },
  granularity: { input: 'house', validated: 'house', geocode: 'house' },
  action: 'accept',
  unresolved: [],
  alternatives: [],
  candidates: [],
  trace: [],
};

/** An engine whose cache holds the queries in `cached`; records what it was asked. */
function fakeEngine(cached: string[] = []) {
  const calls = { cached: [] as ValidateRequest[], uncached: [] as ValidateRequest[] };
  return {
    calls,
    engine: {
      async cached(request: ValidateRequest) {
        calls.cached.push(request);
        return cached.includes(request.query ?? '') ? FOUND : undefined;
      },
      async uncached(request: ValidateRequest) {
        calls.uncached.push(request);
        return FOUND;
      },
    },
  };
}

/** A limiter whose backend is down: every hit rejects. */
const failingLimiter = (): RateLimiter => ({ hit: () => Promise.reject(new Error('down')), hitAll: () => Promise.reject(new Error('down')), close: async () => {} });

function demo(engine = fakeEngine(), limiter: RateLimiter = new MemoryRateLimiter()) {
  return new DemoValidator({ engine: engine.engine, limiter, clock: new ManualClock(), freeMonthlyCredits: 500 });
}

describe('DemoValidator', () => {
  it('answers the samples from their written-down responses, without engine or limiter', async () => {
    const engine = fakeEngine();
    const failing = failingLimiter();
    for (const sample of DEMO_SAMPLES) {
      const outcome = await demo(engine, failing).validate(`  ${sample.query.toUpperCase()}, nl `, '198.51.100.1');
      expect(outcome).toEqual({ kind: 'answer', source: 'sample', response: sample.response });
    }
    expect(engine.calls.cached).toEqual([]);
    expect(engine.calls.uncached).toEqual([]);
  });

  it('has three samples, one per verdict, each a well-formed DemoValidateResponse', () => {
    expect(DEMO_SAMPLES.map((s) => s.response.verdict).sort()).toEqual(['correctable', 'invalid', 'valid']);
    for (const s of DEMO_SAMPLES) expect(DemoValidateResponse.strict().parse(s.response)).toEqual(s.response);
  });

  it('asks the engine with the trailing country split off, with no country otherwise (as the API)', async () => {
    const engine = fakeEngine();
    const d = demo(engine);
    await d.validate('Unter den Linden 77, Berlin, DE', '198.51.100.1');
    await d.validate('Domplein 29, Utrecht', '198.51.100.1');
    expect(engine.calls.uncached).toEqual([
      { query: 'Unter den Linden 77, Berlin', country: 'DE' },
      { query: 'Domplein 29, Utrecht' },
    ]);
  });

  it('returns exactly the DemoValidateResponse fields: no cached, candidates or trace', async () => {
    const outcome = await demo().validate('Domplein 29, Utrecht', '198.51.100.1');
    expect(outcome.kind).toBe('answer');
    if (outcome.kind !== 'answer') return;
    expect(Object.keys(outcome.response).sort()).toEqual(
      ['action', 'address', 'alternatives', 'components', 'confidence', 'consensus', 'granularity', 'provider', 'reasons', 'unresolved', 'verdict'],
    );
  });

  it('serves cache hits without touching the allowance', async () => {
    const engine = fakeEngine(['Domplein 29, Utrecht']);
    const failing = failingLimiter();
    const outcome = await demo(engine, failing).validate('Domplein 29, Utrecht', '198.51.100.1');
    expect(outcome).toMatchObject({ kind: 'answer', source: 'cache' });
    expect(engine.calls.uncached).toEqual([]);
  });

  it('fails closed when the limiter backend fails', async () => {
    const failing = failingLimiter();
    const engine = fakeEngine();
    await expect(demo(engine, failing).validate('Domplein 29, Utrecht', '198.51.100.1')).rejects.toBeInstanceOf(DemoLimiterUnavailableError);
    expect(engine.calls.uncached).toEqual([]);
  });
});
