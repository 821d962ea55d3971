import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ValidateResponse } from '../../src/contract/validate.js';
import { ChunkBiller } from '../../src/engine/chunk-biller.js';
import { DEFAULT_THRESHOLDS } from '../../src/engine/types.js';
import { isUnverified } from '../../src/engine/unverified.js';
import { ValidateEngine } from '../../src/engine/validate.js';
import { fixture } from '../local-index/support/local-sandbox.js';
import { STORAGE_BACKENDS } from '../support/backends.js';
import { startTestServer, type TestServer } from '../support/server.js';

const HEADER = 'x-addressd-unverified';

/**
 * Issue 20 §1.1-1.2: when the credits left cover fewer providers than are eligible, the call goes
 * to the ones most likely to answer (`local` first when its index holds the country), not the
 * first ones in PROVIDERS order; and a lookup nothing could check is unverified, not "invalid".
 */
describe.each(STORAGE_BACKENDS)('short credits and nothing to check (%s)', (backend) => {
  let server: TestServer;

  beforeAll(async () => {
    // The setup: default HTTP providers first, `local` last, and the machine offline.
    server = await startTestServer({ backend, providers: 'pdok,photon,nominatim,local', env: { PROVIDER_TIMEOUT_MS: '5000' } });
    await server.services.localIndex!.importFile(fixture('amsterdam.oa.csv'), { format: 'openaddresses', country: 'NL' });
    for (const e of Object.values(server.emulators)) e.setFault({ mode: 'status', status: 503 });
  });
  afterAll(async () => server?.close());

  /** An account with exactly `left` credits available (the rest held by a reservation). */
  async function accountWith(left: number) {
    const account = await server.createAccount({ plan: 'free' });
    const { available } = await server.services.ledger.balance(account.accountId);
    expect(await server.services.ledger.reserve(account.accountId, available - left)).not.toBeNull();
    return account;
  }

  it('API: one credit left goes to local, which holds the country, not to pdok (first in PROVIDERS)', async () => {
    const { key, accountId } = await accountWith(1);
    const calls = server.emulators.pdok.requests.length;
    const res = await server.post('/v1/validate', { query: 'Damrak 1, 1012 LG Amsterdam', country: 'NL', debug: true }, { authorization: `Bearer ${key}` });
    expect(res.status).toBe(200);
    expect(res.headers.get(HEADER)).toBeNull();
    const body = (await res.json()) as ValidateResponse;
    expect(body).toMatchObject({ verdict: 'valid', provider: 'local' });
    expect(body.trace?.map((t) => [t.provider, t.status])).toEqual([
      ['pdok', 'skipped'],
      ['photon', 'skipped'],
      ['nominatim', 'skipped'],
      ['local', 'ok'],
    ]);
    expect(server.emulators.pdok.requests.length).toBe(calls);
    expect((await server.services.ledger.balance(accountId)).available).toBe(0);
  });

  it('bulk path (the engine call of `addressd validate`, one chunk with one credit): local answers the row', async () => {
    const { accountId } = await accountWith(1);
    const reservation = await server.services.ledger.reserve(accountId, 1);
    const biller = new ChunkBiller(server.services.clock, {
      reservation,
      open: true,
      short: true,
      plan: 'free',
      quota: 500,
    });
    const engine = new ValidateEngine({ runner: server.services.runner, cache: server.services.cache, biller, cacheTtlMs: 60_000 });
    const ctx = { accountId, credentialId: 'cli', env: 'live', endpoint: 'cli validate', source: null, startedAt: 0, thresholds: DEFAULT_THRESHOLDS };
    const response = await engine.validate({ query: 'Damrak 2, 1012 LG Amsterdam', country: 'NL' }, ctx);
    expect(isUnverified(response)).toBe(false);
    expect(response).toMatchObject({ verdict: 'valid', provider: 'local' });
    expect(biller.charges.map((c) => c.credits)).toEqual([1]);
  });

  it('a known-down provider is passed over for one that is not: a failed start-up probe ranks pdok after the others', () => {
    const { runner } = server.services;
    expect(runner.likeliest(['pdok', 'photon', 'nominatim'], 1, undefined)).toEqual(['pdok']);
    runner.probeFailed('pdok');
    expect(runner.likeliest(['pdok', 'photon', 'nominatim'], 2, undefined)).toEqual(['photon', 'nominatim']);
    expect(runner.likeliest(['pdok', 'photon', 'nominatim', 'local'], 2, 'NL')).toEqual(['local', 'photon']);
    expect(runner.likeliest(['pdok', 'photon'], 5, 'NL')).toEqual(['pdok', 'photon']);
  });

  it('only a call that asks providers of our own data alone starts its work beside the reservation (BillOptions.early)', () => {
    const { runner } = server.services;
    expect(runner.ownData(['local'])).toBe(true);
    // An HTTP provider costs its own call: its work waits until the credits are held.
    expect(runner.ownData(['pdok', 'local'])).toBe(false);
    expect(runner.ownData(['photon'])).toBe(false);
    expect(runner.ownData([])).toBe(false);
  });

  it('a country the index has nothing for, with only local enabled: unverified header, 0 credits, not cached', async () => {
    const only = await startTestServer({ backend, sandbox: server.sandbox, providers: 'local' });
    try {
      const { key, accountId } = await only.createAccount({ plan: 'free' });
      const ask = () => only.post('/v1/validate', { query: 'Städtle 32, 9490 Vaduz', country: 'LI' }, { authorization: `Bearer ${key}` });
      for (let i = 0; i < 2; i += 1) {
        const res = await ask();
        expect(res.status).toBe(200);
        expect(res.headers.get(HEADER)).toBe('providers-unavailable');
        // Nothing was checked: the customer confirms what they typed (issue 34 item 8), never `fix`.
        expect((await res.json()) as ValidateResponse).toMatchObject({ verdict: 'invalid', reasons: expect.arrayContaining(['no_results']), cached: false, action: 'confirm' });
      }
      expect((await only.services.ledger.balance(accountId)).usedThisMonth).toBe(0);

      // In a batch the item is named, as an item no provider answered is.
      const batch = await only.post(
        '/v1/validate/batch',
        { items: [{ query: 'Damrak 1, 1012 LG Amsterdam', country: 'NL' }, { query: 'Städtle 32, 9490 Vaduz', country: 'LI' }] },
        { authorization: `Bearer ${key}` },
      );
      expect(batch.status).toBe(200);
      expect(batch.headers.get('x-addressd-unverified-items')).toBe('1');
      const { results } = (await batch.json()) as { results: ValidateResponse[] };
      expect(results.map((r) => r.action)).toEqual(['accept', 'confirm']);
    } finally {
      await only.close();
    }
  });
});
