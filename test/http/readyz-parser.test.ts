import { describe, expect, it } from 'vitest';
import { addressParserReady, warmUpAddressParser } from '../../src/address/parse.js';
import { startTestServer } from '../support/server.js';
import { waitFor } from '../support/wait-for.js';

/**
 * A started server builds the address parser's classifier in a thread (0.5-2 s) while it already
 * listens; a validate meanwhile would hold the process until it is built. /readyz says so, so a
 * load balancer sends traffic elsewhere until then (its own file: the thread is per process).
 */
describe('GET /readyz while the address parser loads', () => {
  it('is 503 with Retry-After until the classifier is built, then 200, and validates use it', async () => {
    const server = await startTestServer({ backend: 'sqlite' });
    try {
      // As src/main.ts does at start; the thread only begins loading its dictionaries now.
      warmUpAddressParser({ peliasThread: true });
      expect(addressParserReady()).toBe(false);
      const loading = await fetch(`${server.url}/readyz`);
      expect(loading.status).toBe(503);
      expect(loading.headers.get('retry-after')).toBe('1');
      expect(await loading.json()).toEqual({ message: 'Not ready: the address parser is still loading' });
      // The process itself is up.
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);

      await waitFor(() => addressParserReady(), 'the classifier to be built', 60_000);
      const { key } = await server.createAccount();
      const ready = await fetch(`${server.url}/readyz`);
      expect([ready.status, await ready.json()]).toEqual([200, { status: 'ready' }]);
      const answer = await fetch(`${server.url}/v1/validate`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ query: 'Damrak 1, 1012 LG Amsterdam', country: 'NL' }),
      });
      expect(answer.status).toBe(200);
    } finally {
      await server.close();
    }
  });
});
