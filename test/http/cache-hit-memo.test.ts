import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ValidateResponse } from '../../src/contract/validate.js';
import { DEFAULT_DATASET } from '../emulators/index.js';
import { startTestServer, type TestServer } from '../support/server.js';

/**
 * Cache hits reuse the decided answer of the same request (engine/answer-memo.ts); these pin down
 * that the reuse never changes an answer: thresholds count, and a refreshed entry is decided anew.
 */
describe('cache hits decided once per request and entry', () => {
  let server: TestServer;
  beforeAll(async () => {
    // Generous: only lookups every provider answered are cached, and this machine is shared.
    server = await startTestServer({ env: { PROVIDER_TIMEOUT_MS: '5000' } });
  });
  afterAll(async () => server.close());

  const keyFor = async (thresholds: { validThreshold: number; correctableThreshold: number }) => {
    const account = await server.services.accounts.create({ plan: 'starter', ...thresholds });
    return (await server.services.secretKeys.create(account.id, 'live')).key;
  };
  const validate = async (key: string, body: Record<string, unknown>) => {
    const res = await server.post('/v1/validate', body, { authorization: `Bearer ${key}` });
    expect(res.status).toBe(200);
    return (await res.json()) as ValidateResponse;
  };

  it('the same cached entry gives each account the verdict of its own thresholds', async () => {
    const lenient = await keyFor({ validThreshold: 80, correctableThreshold: 50 });
    const strict = await keyFor({ validThreshold: 100, correctableThreshold: 100 });
    const body = { query: 'Damrak 1, 1012 LG Amsterdam', country: 'NL' };
    const fresh = await validate(lenient, body);
    expect(fresh).toMatchObject({ cached: false, verdict: 'valid' });
    for (let i = 0; i < 2; i += 1) {
      expect(await validate(lenient, body)).toMatchObject({ cached: true, verdict: 'valid' });
      const strictAnswer = await validate(strict, body);
      expect(strictAnswer.cached).toBe(true);
      expect(strictAnswer.confidence).toBe(fresh.confidence);
      if (fresh.confidence < 100) expect(strictAnswer.verdict).toBe('invalid');
    }
  });

  it('an entry refreshed by a debug call is answered from the new provider data, not the remembered answer', async () => {
    const key = await keyFor({ validThreshold: 80, correctableThreshold: 50 });
    const body = { query: 'Lijsterstraat 20, 3815 DT Amersfoort', country: 'NL' };
    const before = await validate(key, body);
    expect((await validate(key, body)).cached).toBe(true);
    // The providers now place the address elsewhere and only one of them knows it.
    const target = DEFAULT_DATASET.find((a) => a.street === 'Lijsterstraat')!;
    const moved = DEFAULT_DATASET.map((a) => (a === target ? { ...a, lat: a.lat + 0.01 } : a));
    server.emulators.pdok.setDataset(moved);
    server.emulators.photon.setDataset(DEFAULT_DATASET.filter((a) => a !== target));
    server.emulators.nominatim.setDataset(DEFAULT_DATASET.filter((a) => a !== target));
    try {
      const refreshed = await validate(key, { ...body, debug: true });
      const after = await validate(key, body);
      expect(after.cached).toBe(true);
      expect({ ...after, cached: false, responseId: '' }).toEqual({ ...refreshed, cached: false, responseId: '', candidates: undefined, trace: undefined });
      expect(after.consensus).not.toEqual(before.consensus);
      expect(after.address?.lat).toBeCloseTo(target.lat + 0.01, 5);
    } finally {
      for (const e of Object.values(server.emulators)) e.setDataset(DEFAULT_DATASET);
    }
  });
});
