import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DemoValidateResponse } from '../../src/contract/validate.js';
import { DEMO_SAMPLES } from '../../src/demo/samples.js';
import { Messages } from '../../src/http/errors.js';
import { ManualClock } from '../../src/lib/clock.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { DemoVisitors } from './demo-visitors.js';

describe('POST /demo/validate', () => {
  let server: TestServer;
  let visitors: DemoVisitors;
  const clock = new ManualClock();
  beforeAll(async () => {
    server = await startTestServer({ clock, env: { TRUST_PROXY: 'true' } });
    visitors = new DemoVisitors(server);
  });
  afterAll(async () => {
    await visitors.cleanup();
    await server.close();
  });

  const requestCount = () => Object.values(server.emulators).reduce((n, e) => n + e.requests.length, 0);

  it('without a country code asks what /v1/validate without a country asks: no country assumed (issue 20 §1.4)', async () => {
    const res = await visitors.ask('Domplein 29, Utrecht', visitors.newIp());
    expect(res.status).toBe(200);
    const body = DemoValidateResponse.strict().parse(await res.json());
    expect(body.address).toMatchObject({ street: 'Domplein', houseNumber: '29', city: 'Utrecht', country: 'NL' });
    expect(server.emulators.nominatim.requests.at(-1)?.query).not.toHaveProperty('countrycodes');
    // Outside the Netherlands too, with the same verdict the API gives.
    const berlin = await visitors.ask('Unter den Linden 77, 10117 Berlin', visitors.newIp());
    const demo = DemoValidateResponse.parse(await berlin.json());
    const { key } = await server.createAccount();
    const api = (await (await server.post('/v1/validate', { query: 'Unter den Linden 77, 10117 Berlin' }, { authorization: `Bearer ${key}` })).json()) as DemoValidateResponse;
    expect(demo.address).toMatchObject({ street: 'Unter den Linden', houseNumber: '77', country: 'DE' });
    expect([demo.verdict, demo.confidence]).toEqual([api.verdict, api.confidence]);
  });

  it('honours a trailing ISO country code and searches without it', async () => {
    const pdokBefore = server.emulators.pdok.requests.length;
    const res = await visitors.ask('Unter den Linden 77, Berlin, DE', visitors.newIp());
    expect(res.status).toBe(200);
    const body = DemoValidateResponse.parse(await res.json());
    expect(body.address).toMatchObject({ street: 'Unter den Linden', houseNumber: '77', city: 'Berlin', country: 'DE' });
    expect(server.emulators.nominatim.requests.at(-1)?.query).toMatchObject({ q: 'Unter den Linden 77, Berlin', countrycodes: 'de' });
    // PDOK covers only NL: with DE it is not asked at all.
    expect(server.emulators.pdok.requests.length).toBe(pdokBefore);
  });

  it('answers each homepage sample with its stable response and no provider call', async () => {
    const before = requestCount();
    for (const sample of DEMO_SAMPLES) {
      const res = await visitors.ask(sample.query, visitors.newIp());
      expect(res.status).toBe(200);
      expect(res.headers.get('x-addressd-demo-answer')).toBe('recorded-example');
      expect(await res.json()).toEqual(sample.response);
    }
    expect(DEMO_SAMPLES.map((s) => s.response.verdict)).toEqual(['valid', 'correctable', 'invalid']);
    expect(requestCount()).toBe(before);
  });

  it('has no cached field, also when the answer comes from the cache', async () => {
    const ip = visitors.newIp();
    const first = await visitors.ask('Dam 1, Amsterdam', ip);
    const again = await visitors.ask('Dam 1, Amsterdam', ip);
    const [a, b] = [await first.json(), await again.json()];
    expect(a).not.toHaveProperty('cached');
    expect(b).not.toHaveProperty('cached');
    expect(b).toEqual(a);
  });

  it.each([
    ['a missing query', {}],
    ['an empty query', { query: '' }],
    ['a query of only spaces', { query: '   ' }],
    ['a query over 200 characters', { query: 'x'.repeat(201) }],
    ['a query that is not text', { query: 42 }],
    ['malformed JSON', '{"query": '],
  ])('prompts to type an address for %s', async (_, body) => {
    const res = await server.post('/demo/validate', body, { 'x-forwarded-for': visitors.newIp() });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ message: Messages.demoPrompt });
  });

  it('prompts to type an address when the body is not JSON', async () => {
    const res = await fetch(`${server.url}/demo/validate`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'Damrak 1' });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ message: Messages.demoPrompt });
  });

  it('accepts a query of exactly 200 characters', async () => {
    const res = await visitors.ask(`Damrak 1, Amsterdam ${'x'.repeat(180)}`, visitors.newIp());
    expect(res.status).toBe(200);
  });
});
