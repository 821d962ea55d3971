import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { PLAN_QUOTAS } from '../../src/billing/plans.js';
import type { PlanId } from '../../src/contract/enums.js';
import { ManualClock } from '../../src/lib/clock.js';
import { createLogger } from '../../src/lib/logger.js';
import { createServices } from '../../src/services.js';
import { STORAGE_BACKENDS } from '../support/backends.js';
import { startTestServer, type TestServer } from '../support/server.js';

const bearer = (key: string) => ({ authorization: `Bearer ${key}`, 'content-type': 'application/json' });
const VALIDATE = { query: 'Damrak 1, 1012 LG Amsterdam', country: 'NL' };

describe.each(STORAGE_BACKENDS)('the shared quota gate on %s', (backend) => {
  let server: TestServer;
  const clock = new ManualClock();
  const providerCalls = () => Object.values(server.emulators).reduce((sum, e) => sum + e.requests.length, 0);
  const eventCount = async (accountId: string) =>
    (await server.services.database.db.selectFrom('usage_events').select('id').where('account_id', '=', accountId).execute()).length;

  /** An account with a live and a test key that has `left` credits of its plan grant left. */
  async function accountWith(plan: PlanId, left: number) {
    const { accountId, key: live } = await server.createAccount({ plan });
    const test = (await server.services.secretKeys.create(accountId, 'test')).key;
    const { ledger } = server.services;
    const spend = PLAN_QUOTAS[plan] - left;
    const reservation = await ledger.reserve(accountId, spend);
    await ledger.settle(reservation!, spend, {
      accountId,
      credentialId: 'earlier',
      env: 'live',
      endpoint: '/v1/validate',
      verdict: 'valid',
      provider: 'pdok',
      latencyMs: 1,
      cached: false,
      query: 'earlier traffic',
      source: null,
    });
    return { accountId, live, test };
  }

  beforeAll(async () => {
    // A generous provider timeout: the 100 parallel requests must not time out on a busy machine,
    // or nobody answers and the test proves nothing about spending.
    server = await startTestServer({ backend, clock, env: { PROVIDER_TIMEOUT_MS: '15000' } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it.each(['free', 'starter'] as const)('answers 429 on every keyed endpoint once a %s account is exhausted, calling no provider', async (plan) => {
    const { accountId, live, test } = await accountWith(plan, 0);
    const calls = providerCalls();
    const events = await eventCount(accountId);
    const attempts = [
      () => fetch(`${server.url}/v1/validate`, { method: 'POST', headers: bearer(live), body: JSON.stringify(VALIDATE) }),
      () => fetch(`${server.url}/v1/validate?source=x`, { method: 'POST', headers: bearer(test), body: JSON.stringify(VALIDATE) }),
      () => fetch(`${server.url}/v1/autocomplete`, { method: 'POST', headers: bearer(live), body: JSON.stringify({ query: 'Damrak' }) }),
      () => fetch(`${server.url}/v1/autocomplete`, { method: 'POST', headers: bearer(test), body: JSON.stringify({ query: 'Dam' }) }),
      () => fetch(`${server.url}/v1/usage`, { headers: bearer(live) }),
      () => fetch(`${server.url}/v1/usage?source=checkout`, { headers: bearer(test) }),
    ];
    for (const attempt of attempts) {
      const response = await attempt();
      expect(response.status).toBe(429);
      const body = (await response.json()) as { message: string };
      expect(Object.keys(body)).toEqual(['message']);
      // SPEC: monthly credits exhausted, with the plan quota and plan name, pointing to the console.
      expect(body.message).toMatch(/monthly credits exhausted/i);
      expect(body.message).toContain(String(PLAN_QUOTAS[plan]));
      expect(body.message).toContain(plan);
      expect(body.message).toContain(server.services.consoleUrl);
    }
    expect(providerCalls()).toBe(calls);
    expect(await eventCount(accountId)).toBe(events);
  });

  it('opens again with bought extra credits, calling only as many providers as credits remain', async () => {
    const { accountId, live } = await accountWith('free', 0);
    await server.services.accounts.addExtraCredits(accountId, 2);
    const report = await fetch(`${server.url}/v1/usage`, { headers: bearer(live) });
    expect(report.status).toBe(200);
    expect(await report.json()).toMatchObject({ extraCredits: 2, creditsUsedThisMonth: 500 });

    const calls = providerCalls();
    const body = JSON.stringify({ ...VALIDATE, query: 'Dam 1, Amsterdam' });
    const response = await fetch(`${server.url}/v1/validate`, { method: 'POST', headers: bearer(live), body });
    expect(response.status).toBe(200);
    expect(providerCalls() - calls).toBe(2);
    expect(await server.services.ledger.balance(accountId)).toMatchObject({ extraCredits: 0, usedThisMonth: 502, available: 0 });
    const refused = await fetch(`${server.url}/v1/validate`, { method: 'POST', headers: bearer(live), body: JSON.stringify(VALIDATE) });
    expect(refused.status).toBe(429);
  });

  it('spends at most the 10 credits left over 100 parallel requests', async () => {
    const { accountId, live } = await accountWith('free', 10);
    const calls = providerCalls();
    // On PostgreSQL a second app on its own connection pool takes half the requests, as a second instance would.
    const other = backend === 'postgres' ? await createServices(server.services.config, { clock, logger: createLogger('silent') }) : undefined;
    try {
      const otherApp = other ? buildApp(other) : undefined;
      const responses = await Promise.all(
        Array.from({ length: 100 }, (_, i) => {
          const init = { method: 'POST', headers: bearer(live), body: JSON.stringify({ query: `Kalverstraat ${i + 1}, Amsterdam`, country: 'NL' }) };
          return otherApp && i % 2 === 1 ? otherApp.request('/v1/validate', init) : fetch(`${server.url}/v1/validate`, init);
        }),
      );
      const statuses = responses.map((r) => r.status);
      await Promise.all(responses.map((r) => r.arrayBuffer()));
      expect(statuses.every((s) => s === 200 || s === 429)).toBe(true);

      const balance = await server.services.ledger.balance(accountId);
      const spent = balance.usedThisMonth - 490;
      expect(spent).toBeGreaterThan(0);
      expect(spent).toBeLessThanOrEqual(10);
      expect(balance.available).toBe(10 - spent);
      // Every provider call was paid for in advance: never more calls than credits.
      expect(providerCalls() - calls).toBeLessThanOrEqual(10);
      expect(spent).toBeLessThanOrEqual(providerCalls() - calls);
      const rows = await server.services.database.db.selectFrom('usage_events').select('credits').where('account_id', '=', accountId).where('credential_id', '!=', 'earlier').execute();
      expect(rows).toHaveLength(statuses.filter((s) => s === 200).length);
      expect(rows.reduce((sum, r) => sum + Number(r.credits), 0)).toBe(spent);
      expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(90);
    } finally {
      await other?.close();
    }
  });
});
