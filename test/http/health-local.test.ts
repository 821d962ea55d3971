import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORAGE_BACKENDS } from '../support/backends.js';
import { startTestServer, type TestServer } from '../support/server.js';

describe.each(STORAGE_BACKENDS)('/healthz and the local provider (%s)', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ backend, providers: 'pdok,local' });
  });
  afterAll(async () => server?.close());

  it('lists local only once its index holds data, without a restart', async () => {
    const before = (await (await fetch(`${server.url}/healthz`)).json()) as { providers: string[] };
    expect(before.providers).toEqual(['pdok']);
    await server.services.localIndex!.importFile(path.resolve('test/fixtures/import/amsterdam.oa.csv'), { format: 'openaddresses', country: 'NL' });
    const after = (await (await fetch(`${server.url}/healthz`)).json()) as { providers: string[] };
    expect(after.providers).toEqual(['pdok', 'local']);
  });
});
