import { createServer, type AddressInfo, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Provider } from '../../src/providers/provider.js';
import { logReachability } from '../../src/providers/reachability.js';
import { createProviders } from '../../src/providers/registry.js';
import { captureLogs, LEVEL } from '../support/log-capture.js';
import { startPdokEmulator, type Emulator } from '../emulators/index.js';
import { configFor } from './harness.js';

/** The start-up line per provider: emulators and dead ports on 127.0.0.1, never the network. */
describe('logReachability', () => {
  let pdok: Emulator;
  let hanging: { url: string; close(): Promise<void> };
  let closedUrl: string;

  beforeAll(async () => {
    pdok = await startPdokEmulator();
    // Accepts and never answers.
    const sockets = new Set<Socket>();
    const server = createServer((s) => void sockets.add(s.resume()));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    hanging = {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      close: () => {
        for (const s of sockets) s.destroy();
        return new Promise((resolve) => server.close(() => resolve()));
      },
    };
    // A port that was free a moment ago: nothing listens there now.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    closedUrl = `http://127.0.0.1:${(probe.address() as AddressInfo).port}`;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
  });
  afterAll(async () => Promise.all([pdok.close(), hanging.close()]));

  it('says per provider whether it answers, and why not', async () => {
    const emptyLocal: Provider = { id: 'local', available: () => false, covers: () => false, geocode: async () => [] };
    const providers = createProviders(
      configFor({ pdok, photon: { url: hanging.url } as Emulator, nominatim: { url: closedUrl } as Emulator }, { PROVIDERS: 'pdok,photon,nominatim,local' }),
      { local: emptyLocal },
    );
    const { logger, lines } = captureLogs();
    // The hanging one ends at the timeout: the call returns at all.
    await logReachability(providers, logger, 3000);
    await providers.close();

    const byProvider = Object.fromEntries(lines.map((l) => [l.provider as string, l]));
    expect(lines).toHaveLength(4);
    expect(byProvider.pdok).toMatchObject({ level: LEVEL.info, reachable: true, detail: expect.stringMatching(/^HTTP \d{3} in \d+ ms$/) });
    expect(byProvider.photon).toMatchObject({ level: LEVEL.warn, reachable: false, detail: 'no answer in time' });
    expect(byProvider.nominatim).toMatchObject({ level: LEVEL.warn, reachable: false, detail: 'network error: ECONNREFUSED' });
    expect(byProvider.local).toMatchObject({ level: LEVEL.warn, reachable: false, detail: 'no data' });
    expect(byProvider.nominatim?.msg).toBe('provider nominatim NOT reachable (network error: ECONNREFUSED): its answers will be missing');
  });
});
