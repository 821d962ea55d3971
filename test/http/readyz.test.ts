import { describe, expect, it } from 'vitest';
import { STORAGE_BACKENDS } from '../support/backends.js';
import { startTestServer } from '../support/server.js';

describe.each(STORAGE_BACKENDS)('GET /readyz on %s', (backend) => {
  it('is 200 ready while the database answers, 503 {message} with Retry-After once it does not', async () => {
    const server = await startTestServer({ backend });
    try {
      const ready = await fetch(`${server.url}/readyz`);
      expect(ready.status).toBe(200);
      expect(ready.headers.get('cache-control')).toBe('no-store');
      expect(await ready.json()).toEqual({ status: 'ready' });

      // The database going away under a running process (PostgreSQL's own outage is in database-faults.test.ts).
      await server.services.database.close();
      const down = await fetch(`${server.url}/readyz`);
      expect(down.status).toBe(503);
      expect(down.headers.get('retry-after')).toBe('5');
      expect(await down.json()).toEqual({ message: 'Not ready: the database does not answer' });
      // The process itself is still up.
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});
