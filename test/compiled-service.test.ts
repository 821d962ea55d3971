import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildService } from '../scripts/build.js';
import { WIDGET_OUT_DIR } from '../scripts/build-widget.js';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/lib/logger.js';
import { createServices } from '../src/services.js';
import { startPdokEmulator, type Emulator } from './emulators/index.js';
import { createSandbox, REDIS_URL, type Sandbox, STORAGE_BACKENDS } from './support/backends.js';
import { type ChildService, startChildService } from './support/child-server.js';
import { waitFor } from './support/wait-for.js';

const ROOT = path.resolve(import.meta.dirname, '..');

/**
 * `npm start` runs dist/main.js, which the build writes as ONE bundle of the service and most of
 * its packages (scripts/build.ts), not the sources the other suites load. So the bundle itself is
 * started here, on both stores, and asked what an operator and a customer would ask first: every
 * module that finds files next to itself (the address parser's thread, the widget, the pages'
 * scripts, the database's checkpoint thread), the packages left outside it, the error classes a
 * failed start is told by.
 */
describe('the built server (dist/main.js, one bundle)', () => {
  const outDir = path.join(ROOT, `.dist-test-${process.pid}`);
  let pdok: Emulator;

  beforeAll(async () => {
    await buildService(outDir, { widget: false });
    pdok = await startPdokEmulator();
  }, 120_000);
  afterAll(async () => {
    await pdok?.close();
    rmSync(outDir, { recursive: true, force: true });
  });

  it('is one file that loads none of the sources it was built from', () => {
    const bundle = readFileSync(path.join(outDir, 'main.js'), 'utf8');
    // The engine, the routes and the store are inside it, not imported from their own files.
    expect(bundle).toMatch(/\bValidateEngine = class\b/);
    expect(bundle).not.toMatch(/from\s+"\.\.?\//);
  });

  describe.each(STORAGE_BACKENDS)('on %s', (backend) => {
    let sandbox: Sandbox;
    let key: string;
    let env: Record<string, string>;
    const children: ChildService[] = [];

    beforeAll(async () => {
      sandbox = await createSandbox(backend);
      env = { ...sandbox.env, PROVIDERS: 'pdok', PDOK_URL: pdok.url, ...(backend === 'postgres' ? { REDIS_URL, REDIS_PREFIX: `${sandbox.id}:` } : {}) };
      const services = await createServices(loadConfig(env), { logger: createLogger('silent') });
      const account = await services.accounts.create({ plan: 'starter' });
      key = (await services.secretKeys.create(account.id, 'live')).key;
      await services.close();
    }, 60_000);
    afterAll(async () => {
      for (const c of children.splice(0)) c.kill();
      await sandbox.cleanup();
    });

    it('serves the API, the widget and the pages, and stops cleanly on SIGTERM', async () => {
      const service = startChildService({ ...env, LOG_LEVEL: 'info' }, { compiled: outDir });
      children.push(service);
      const origin = `http://127.0.0.1:${await service.port()}`;

      expect(await (await fetch(`${origin}/healthz`)).json()).toMatchObject({ status: 'ok' });
      // Ready once the database answers and the address parser's thread has built its classifier.
      await waitFor(async () => (await fetch(`${origin}/readyz`)).status === 200, 'the service to be ready', 60_000);

      const validate = async () => {
        const res = await fetch(`${origin}/v1/validate`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ query: 'Damrak 1, 1012 LG Amsterdam', country: 'NL' }),
        });
        expect(res.status).toBe(200);
        return (await res.json()) as { verdict: string; cached: boolean; address: { city?: string } | null };
      };
      const first = await validate();
      expect(first).toMatchObject({ verdict: 'valid', cached: false });
      expect(first.address?.city).toBe('Amsterdam');
      await waitFor(async () => (await validate()).cached, 'the answer to be cached', 30_000);

      // The compressed form the build wrote beside the file, as sent (undici's request does not decode).
      const script = await request(`${origin}/widget/v1/widget.js`, { headers: { 'accept-encoding': 'br' } });
      expect(script.statusCode).toBe(200);
      expect(script.headers['content-encoding']).toBe('br');
      expect(brotliDecompressSync(Buffer.from(await script.body.arrayBuffer()))).toEqual(readFileSync(path.join(WIDGET_OUT_DIR, 'widget.js')));

      // The home page's script is bundled by esbuild on the first page asked for.
      const home = await fetch(`${origin}/`);
      expect(home.status).toBe(200);
      const page = await home.text();
      const asset = /\/assets\/home\.[0-9a-f]{8}\.js/.exec(page)?.[0];
      expect(asset).toBeDefined();
      const homeScript = await fetch(`${origin}${asset}`);
      expect(homeScript.status).toBe(200);
      expect((await homeScript.text()).length).toBeGreaterThan(100);
      expect((await fetch(`${origin}/docs`)).status).toBe(200);

      service.child.kill('SIGTERM');
      expect(await service.exited).toBe(0);
      expect(service.lines.find((l) => l.msg === 'stopped')).toMatchObject({ drained: true });
      expect(service.stderr()).toBe('');
    }, 120_000);

    it('a configuration error: one line on stderr, exit 2', async () => {
      const service = startChildService({ ...env, PROVIDERS: 'pdok,googel' }, { compiled: outDir });
      children.push(service);
      expect(await service.exited).toBe(2);
      expect(service.stderr().trimEnd()).toBe('addressd: Invalid configuration: PROVIDERS: unknown provider "googel" (known: pdok, photon, nominatim, local)');
    }, 60_000);
  });
});
