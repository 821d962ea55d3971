import { createServer, type AddressInfo, type Server } from 'node:net';
import { Agent, request } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/lib/logger.js';
import { createServices } from '../src/services.js';
import { startPdokEmulator, type Emulator } from './emulators/index.js';
import { createSandbox, POSTGRES_URL, type Sandbox } from './support/backends.js';
import { type ChildService, startChildService } from './support/child-server.js';
import { waitFor } from './support/wait-for.js';

/** A port nothing listens on (it was free a moment ago). */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** `npm start` as an operator meets it: start failures in one stderr line, shutdown that drains. */
describe('src/main.ts in a child process', () => {
  let sandbox: Sandbox;
  let pdok: Emulator;
  let key: string;
  const children: ChildService[] = [];
  const start = (env: Record<string, string>) => {
    const service = startChildService({ ...sandbox.env, PROVIDERS: 'pdok', PDOK_URL: pdok.url, ...env });
    children.push(service);
    return service;
  };

  beforeAll(async () => {
    sandbox = await createSandbox('sqlite');
    pdok = await startPdokEmulator();
    // The account and key live in the same SQLite file the child opens.
    const services = await createServices(loadConfig({ ...sandbox.env, PROVIDERS: 'pdok', PDOK_URL: pdok.url }), { logger: createLogger('silent') });
    const account = await services.accounts.create({ plan: 'starter' });
    key = (await services.secretKeys.create(account.id, 'live')).key;
    await services.close();
  });
  afterEach(() => {
    pdok.setFault({ mode: 'none' });
    for (const c of children.splice(0)) c.kill();
  });
  afterAll(async () => {
    await pdok.close();
    await sandbox.cleanup();
  });

  const oneLine = (stderr: string) => {
    expect(stderr.endsWith('\n')).toBe(true);
    expect(stderr.trimEnd().split('\n')).toHaveLength(1);
    return stderr.trimEnd();
  };

  it('a port in use: one line on stderr, exit 1', async () => {
    const holder: Server = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const { port } = holder.address() as AddressInfo;
    try {
      const service = start({ PORT: String(port) });
      expect(await service.exited).toBe(1);
      expect(oneLine(service.stderr())).toBe(`addressd: cannot listen on 127.0.0.1:${port}: the port is already in use (EADDRINUSE)`);
    } finally {
      await new Promise<void>((resolve) => holder.close(() => resolve()));
    }
  }, 120_000);

  it('an unknown provider id in PROVIDERS: one line on stderr, exit 2', async () => {
    const service = start({ PROVIDERS: 'pdok,googel' });
    expect(await service.exited).toBe(2);
    expect(oneLine(service.stderr())).toBe('addressd: Invalid configuration: PROVIDERS: unknown provider "googel" (known: pdok, photon, nominatim, local)');
  }, 120_000);

  it('a DATA_DIR that cannot be created (/proc/nope): one line on stderr, exit 2, no spinning in mkdir', async () => {
    const service = start({ DATA_DIR: '/proc/nope' });
    expect(await service.exited).toBe(2);
    expect(oneLine(service.stderr())).toBe('addressd: Invalid configuration: DATA_DIR=/proc/nope cannot be created: mkdir /proc/nope failed (ENOENT)');
  }, 120_000);

  it('an unreachable DATABASE_URL: one line on stderr without the password, exit 1', async () => {
    const port = await closedPort();
    const url = new URL(POSTGRES_URL);
    const service = start({ DATABASE_URL: `postgres://postgres:hunter2@127.0.0.1:${port}${url.pathname}` });
    expect(await service.exited).toBe(1);
    const line = oneLine(service.stderr());
    expect(line).toBe(`addressd: cannot open the database (PostgreSQL at postgres://127.0.0.1:${port}${url.pathname}): connect ECONNREFUSED 127.0.0.1:${port}`);
    expect(service.lines.map((l) => JSON.stringify(l)).join('\n')).not.toContain('hunter2');
  }, 120_000);

  it('SIGTERM: stops accepting, finishes the requests in flight (Connection: close), exits 0', async () => {
    pdok.setFault({ mode: 'slow', delayMs: 1500 });
    const service = start({ PROVIDER_TIMEOUT_MS: '20000', LOG_LEVEL: 'info' });
    const port = await service.port();
    const origin = `http://127.0.0.1:${port}`;
    const agent = new Agent({ keepAliveTimeout: 60_000 });
    try {
      // An idle keep-alive connection must not hold the shutdown up.
      const idle = await request(`${origin}/healthz`, { dispatcher: agent });
      await idle.body.text();

      // The start-up reachability probe is a PDOK request too: once its line is logged it has been
      // counted, so the count below sees only the three lookups.
      await service.line((l) => l.msg.startsWith('provider pdok'), 'the reachability line of pdok');
      const before = pdok.requests.length;
      const inFlight = ['Damrak 1, 1012 LG Amsterdam', 'Damrak 70, 1012 LM Amsterdam', 'Dam 1, Amsterdam'].map((query) =>
        request(`${origin}/v1/validate`, {
          method: 'POST',
          dispatcher: agent,
          headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
          body: JSON.stringify({ query, country: 'NL' }),
        }),
      );
      await waitFor(() => pdok.requests.length === before + 3, 'the three lookups to reach the provider', 30_000);
      service.child.kill('SIGTERM');
      await service.line((l) => l.msg.startsWith('shutting down'), 'shutting down');

      // No new connections once draining started.
      await expect(request(`${origin}/healthz`, { dispatcher: new Agent() })).rejects.toMatchObject({ code: 'ECONNREFUSED' });
      for (const res of await Promise.all(inFlight)) {
        expect(res.statusCode).toBe(200);
        expect(res.headers.connection).toBe('close');
        expect(((await res.body.json()) as { verdict: string }).verdict).toMatch(/^(valid|correctable|invalid)$/);
      }
      expect(await service.exited).toBe(0);
      expect(service.lines.find((l) => l.msg === 'stopped')).toMatchObject({ drained: true });
      expect(service.stderr()).toBe('');
    } finally {
      await agent.close();
    }
  }, 120_000);

  it('a provider the start-up probe could not reach is not listed by /healthz (issue 20 §1.3)', async () => {
    const service = start({ PDOK_URL: `http://127.0.0.1:${await closedPort()}`, LOG_LEVEL: 'info' });
    const port = await service.port();
    await service.line((l) => l.msg.startsWith('provider pdok NOT reachable'), 'the failed probe of pdok');
    const health = await request(`http://127.0.0.1:${port}/healthz`);
    expect(await health.body.json()).toEqual({ status: 'ok', providers: [] });
  }, 120_000);

  it('SIGINT on an idle server: stops at once, exit 0', async () => {
    const service = start({});
    await service.port();
    service.child.kill('SIGINT');
    expect(await service.exited).toBe(0);
    expect(service.lines.map((l) => l.msg)).toContain('stopped');
    expect(service.lines.find((l) => l.msg === 'stopped')).toMatchObject({ drained: true });
  }, 120_000);
});
