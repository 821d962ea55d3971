import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DemoRateLimitError } from '../../src/contract/errors.js';
import { DEMO_SAMPLES } from '../../src/demo/samples.js';
import { DEMO_WINDOWS, demoLimitKey } from '../../src/demo/windows.js';
import { ManualClock } from '../../src/lib/clock.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { DemoVisitors } from './demo-visitors.js';

const S = 1000;
const H = 3600 * S;
const MESSAGE = 'Demo request allowance reached.';

/** The 429 as SPEC shapes it, with its Retry-After header. */
async function limited(res: Response) {
  expect(res.status).toBe(429);
  const body = DemoRateLimitError.strict().parse(await res.json());
  expect(body.message).toBe(MESSAGE);
  expect(body.freeMonthlyCredits).toBe(500);
  expect(res.headers.get('retry-after')).toBe(String(body.retryAfterSeconds));
  return body;
}

describe.each([
  { backend: 'in-process', redis: false },
  { backend: 'Redis', redis: true },
])('demo allowance ($backend limiter)', ({ redis }) => {
  let server: TestServer;
  let visitors: DemoVisitors;
  const clock = new ManualClock();
  beforeAll(async () => {
    server = await startTestServer({ clock, redis, env: { TRUST_PROXY: 'true' } });
    visitors = new DemoVisitors(server);
  });
  afterAll(async () => {
    await visitors.cleanup();
    await server.close();
  });

  it('counts only cache misses: repeated queries and samples never use it up', async () => {
    const ip = visitors.newIp();
    const repeated = visitors.freshQuery();
    expect((await visitors.ask(repeated, ip)).status).toBe(200);
    for (let i = 0; i < 12; i++) expect((await visitors.ask(repeated, ip)).status).toBe(200);
    for (const sample of [...DEMO_SAMPLES, ...DEMO_SAMPLES]) expect((await visitors.ask(sample.query, ip)).status).toBe(200);
    // One miss so far: nine more fit in the five-minute window, the tenth does not.
    await visitors.spend(ip, 9);
    await limited(await visitors.ask(visitors.freshQuery(), ip));
    // Exhausted, the visitor still gets cached answers and samples.
    expect((await visitors.ask(repeated, ip)).status).toBe(200);
    expect((await visitors.ask(DEMO_SAMPLES[0]!.query, ip)).status).toBe(200);
  });

  it('five_minute: 10 lookups, then 429 until the oldest leaves the window', async () => {
    const ip = visitors.newIp();
    await visitors.spend(ip, 10);
    expect(await limited(await visitors.ask(visitors.freshQuery(), ip))).toEqual({
      message: MESSAGE,
      limits: [{ window: 'five_minute', max: 10, periodSeconds: 300, retryAfterSeconds: 300 }],
      retryAfterSeconds: 300,
      freeMonthlyCredits: 500,
    });
    clock.advance(120 * S);
    expect((await limited(await visitors.ask(visitors.freshQuery(), ip))).retryAfterSeconds).toBe(180);
    clock.advance(180 * S);
    expect((await visitors.ask(visitors.freshQuery(), ip)).status).toBe(200);
  });

  it('daily: 20 lookups a day; the 429 lists every full window and waits for the longest', async () => {
    const ip = visitors.newIp();
    await visitors.spend(ip, 10);
    clock.advance(300 * S);
    await visitors.spend(ip, 10);
    const both = await limited(await visitors.ask(visitors.freshQuery(), ip));
    expect(both.limits).toEqual([
      { window: 'five_minute', max: 10, periodSeconds: 300, retryAfterSeconds: 300 },
      { window: 'daily', max: 20, periodSeconds: 86_400, retryAfterSeconds: 86_100 },
    ]);
    expect(both.retryAfterSeconds).toBe(86_100);

    clock.advance(300 * S);
    const daily = await limited(await visitors.ask(visitors.freshQuery(), ip));
    expect(daily.limits).toEqual([{ window: 'daily', max: 20, periodSeconds: 86_400, retryAfterSeconds: 85_800 }]);
    expect(daily.retryAfterSeconds).toBe(85_800);
    clock.advance(85_800 * S);
    expect((await visitors.ask(visitors.freshQuery(), ip)).status).toBe(200);
  });

  it('weekly: 50 lookups in 7 days, even when spread below the daily limit', async () => {
    const ip = visitors.newIp();
    const start = clock.now();
    // One lookup every 3 hours: 8 a day, never near the daily or five-minute limits. The earlier
    // 49 are recorded straight into the limiter the route uses; the 50th is a real lookup.
    for (let i = 0; i < 49; i++) {
      expect((await server.services.limiter.hit(demoLimitKey(ip), DEMO_WINDOWS, start + i * 3 * H)).allowed).toBe(true);
    }
    clock.set(start + 49 * 3 * H);
    await visitors.spend(ip, 1);
    const body = await limited(await visitors.ask(visitors.freshQuery(), ip));
    // The first lookup (at start) leaves the 168 h window at start + 168 h; now is start + 147 h.
    expect(body.limits).toEqual([{ window: 'weekly', max: 50, periodSeconds: 604_800, retryAfterSeconds: 21 * 3600 }]);
    expect(body.retryAfterSeconds).toBe(21 * 3600);
  });

  it('monthly: 200 lookups in 30 days', async () => {
    const ip = visitors.newIp();
    const start = clock.now();
    const every = 12_343 * S; // 7 a day and 49 a week: only the monthly window fills
    // The visitor's earlier 199 lookups, recorded straight into the limiter the route uses.
    for (let i = 0; i < 199; i++) {
      const hit = await server.services.limiter.hit(demoLimitKey(ip), DEMO_WINDOWS, start + i * every);
      expect(hit.allowed).toBe(true);
    }
    clock.set(start + 199 * every);
    await visitors.spend(ip, 1);
    const body = await limited(await visitors.ask(visitors.freshQuery(), ip));
    const wait = 2_592_000 - 199 * 12_343;
    expect(body.limits).toEqual([{ window: 'monthly', max: 200, periodSeconds: 2_592_000, retryAfterSeconds: wait }]);
    expect(body.retryAfterSeconds).toBe(wait);
  });

  it('keeps each IP to its own allowance', async () => {
    const [a, b] = [visitors.newIp(), visitors.newIp()];
    await visitors.spend(a, 10);
    await limited(await visitors.ask(visitors.freshQuery(), a));
    expect((await visitors.ask(visitors.freshQuery(), b)).status).toBe(200);
    await limited(await visitors.ask(visitors.freshQuery(), a));
  });
});

describe('demo allowance without a trusted proxy', () => {
  let server: TestServer;
  let visitors: DemoVisitors;
  beforeAll(async () => {
    server = await startTestServer({ clock: new ManualClock() });
    visitors = new DemoVisitors(server);
  });
  afterAll(async () => {
    await visitors.cleanup();
    await server.close();
  });

  it('ignores X-Forwarded-For, so a forged header gets no fresh allowance', async () => {
    for (let i = 0; i < 10; i++) expect((await visitors.ask(visitors.freshQuery(), visitors.newIp())).status).toBe(200);
    await limited(await visitors.ask(visitors.freshQuery(), visitors.newIp()));
  });
});

describe('demo allowance when the limiter backend fails', () => {
  it('answers 503 and looks nothing up', async () => {
    const server = await startTestServer({ redis: true, env: { TRUST_PROXY: 'true' } });
    const visitors = new DemoVisitors(server);
    try {
      await server.services.limiter.close();
      const before = server.emulators.pdok.requests.length;
      const res = await visitors.ask(visitors.freshQuery(), visitors.newIp());
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({ message: 'Service temporarily unavailable: try again shortly' });
      expect(res.headers.get('retry-after')).toBe('5');
      expect(server.emulators.pdok.requests.length).toBe(before);
      // Samples need no limiter.
      expect((await visitors.ask(DEMO_SAMPLES[1]!.query, visitors.newIp())).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});
