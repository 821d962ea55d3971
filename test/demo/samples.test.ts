import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_SAMPLES } from '../../src/demo/samples.js';
import { cacheKey } from '../../src/engine/cache-key.js';
import { DEFAULT_THRESHOLDS } from '../../src/engine/types.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { SAMPLE_ANSWERS } from './sample-answers.js';

/**
 * The samples are written down so the homepage needs no provider; this keeps them honest: each is
 * what the real engine (scoring, consensus, verdict) decides from the providers' answers to it.
 */
describe('homepage samples', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it('are one valid, one correctable and one invalid address', () => {
    expect(DEMO_SAMPLES.map((s) => s.response.verdict)).toEqual(['valid', 'correctable', 'invalid']);
    expect(Object.keys(SAMPLE_ANSWERS)).toEqual(DEMO_SAMPLES.map((s) => s.query));
  });

  it.each(DEMO_SAMPLES.map((s) => [s.query, s] as const))('%s answers what the engine decides from the providers', async (query, sample) => {
    const { cache, runner, validate } = server.services;
    const attempts = SAMPLE_ANSWERS[query];
    expect(attempts?.map((a) => a.provider).sort()).toEqual([...runner.active()].sort());
    await cache.set(cacheKey('validate', { query, country: 'NL', providers: runner.active() }), { attempts }, 60_000);
    expect(await validate.cached({ query, country: 'NL' }, DEFAULT_THRESHOLDS)).toEqual(sample.response);
  });
});
