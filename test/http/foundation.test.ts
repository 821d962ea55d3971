import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Messages } from '../../src/http/errors.js';
import { ManualClock } from '../../src/lib/clock.js';
import { startTestServer, type TestServer } from '../support/server.js';

const KEYED = [
  ['POST', '/v1/validate', { query: 'Damrak 1, Amsterdam' }],
  ['POST', '/v1/autocomplete', { query: 'Damrak' }],
  ['GET', '/v1/usage', undefined],
] as const;

describe('HTTP foundation', () => {
  let server: TestServer;
  const clock = new ManualClock(Date.now());
  let key: string;

  beforeAll(async () => {
    server = await startTestServer({ clock });
    ({ key } = await server.createAccount({ plan: 'starter' }));
  });
  afterAll(async () => server.close());

  const call = (method: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${server.url}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });

  it('answers /healthz with the active providers', async () => {
    const res = await fetch(`${server.url}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok', providers: ['pdok', 'photon', 'nominatim'] });
  });

  it('answers unknown paths with a JSON 404', async () => {
    const res = await fetch(`${server.url}/v1/nothing-here`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    expect(await res.json()).toEqual({ message: 'Not found' });
  });

  describe.each(KEYED)('%s %s authentication', (method, path, body) => {
    it('401 when the key is missing, naming the header to send', async () => {
      const res = await call(method, path, body);
      expect(res.status).toBe(401);
      const json = (await res.json()) as { message: string };
      expect(Object.keys(json)).toEqual(['message']);
      expect(json.message).toContain('Authorization: Bearer <API_KEY>');
    });
    it('401 Malformed API key', async () => {
      const res = await call(method, path, body, { authorization: 'Bearer sk_live_abc' });
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ message: 'Malformed API key' });
    });
    it('401 Unknown or revoked API key', async () => {
      const res = await call(method, path, body, { authorization: `Bearer ak_live_${'x'.repeat(43)}` });
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ message: 'Unknown or revoked API key' });
    });
    it('401 after revocation', async () => {
      const { keyId, key: doomed } = await server.createAccount();
      await server.services.secretKeys.revoke(keyId);
      const res = await call(method, path, body, { authorization: `Bearer ${doomed}` });
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ message: 'Unknown or revoked API key' });
    });
    it('rejects publishable tokens, saying they are for the widget endpoints', async () => {
      const { accountId } = await server.createAccount();
      const { token } = await server.createToken(accountId, ['https://shop.example']);
      const res = await call(method, path, body, { authorization: `Bearer ${token}` });
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ message: Messages.publishableOnSecretEndpoint });
      expect(Messages.publishableOnSecretEndpoint).toMatch(/^Publishable tokens .* are for the widget endpoints/);
    });
  });

  it('400 with Zod issues as they are', async () => {
    const res = await call('POST', '/v1/validate', { query: '', country: 'NLD', components: { houseNumber: 'x'.repeat(21) } }, { authorization: `Bearer ${key}` });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { message: string; issues: { code: string; path: (string | number)[]; message: string; minimum?: number }[] };
    expect(body.message).toBe('Validation failed');
    expect(body.issues).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ code: 'too_small', path: ['query'], minimum: 1, message: expect.any(String) }),
        expect.objectContaining({ code: 'too_big', path: ['country'] }),
        expect.objectContaining({ code: 'too_big', path: ['components', 'houseNumber'], maximum: 20 }),
      ]),
    );
  });

  it('counts length bounds in characters, as SPEC does: an emoji is one character, not two code units', async () => {
    const auth = { authorization: `Bearer ${key}` };
    const fits = await call('POST', '/v1/autocomplete', { query: '🏠'.repeat(200) }, auth);
    expect(fits.status).toBe(200);
    const over = await call('POST', '/v1/autocomplete', { query: '🏠'.repeat(201) }, auth);
    expect(over.status).toBe(400);
    expect(((await over.json()) as { issues: unknown[] }).issues).toEqual([
      expect.objectContaining({ code: 'too_big', path: ['query'], maximum: 200, message: expect.any(String) }),
    ]);
    const number = await call('POST', '/v1/validate', { components: { street: 'Damrak', houseNumber: `1${'🏠'.repeat(19)}` } }, auth);
    expect(number.status).toBe(200);
  });

  it('400 with one custom issue when neither query nor components is sent', async () => {
    const res = await call('POST', '/v1/validate', { country: 'NL' }, { authorization: `Bearer ${key}` });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      message: 'Validation failed',
      issues: [{ code: 'custom', path: [], message: 'Provide query or components' }],
    });
  });

  it('400 with the same custom issue for an empty components object (nothing to look up, nothing billed)', async () => {
    const res = await call('POST', '/v1/validate', { components: {} }, { authorization: `Bearer ${key}` });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      message: 'Validation failed',
      issues: [{ code: 'custom', path: [], message: 'Provide query or components' }],
    });
  });

  it('401 texts for a header that is not one Bearer key', async () => {
    const basic = await call('POST', '/v1/validate', { query: 'Damrak 1' }, { authorization: 'Basic dXNlcjpwYXNz' });
    expect(basic.status).toBe(401);
    expect(((await basic.json()) as { message: string }).message).toContain('Authorization: Bearer <API_KEY>');
    const spaced = await call('POST', '/v1/validate', { query: 'Damrak 1' }, { authorization: `Bearer ${key} ${key}` });
    expect(spaced.status).toBe(401);
    expect(await spaced.json()).toEqual({ message: 'Malformed API key' });
    const lower = await call('POST', '/v1/validate', { query: 'Damrak 1' }, { authorization: `bearer ${key}` });
    expect(lower.status).toBe(200);
  });

  it('400 ValidationError, not 415, for a body that is not sent as JSON', async () => {
    for (const headers of [{ 'content-type': 'text/plain' }, { 'content-type': 'application/x-www-form-urlencoded' }]) {
      const res = await fetch(`${server.url}/v1/validate`, {
        method: 'POST',
        headers: { ...headers, authorization: `Bearer ${key}` },
        body: '{"query":"Damrak 1"}',
      });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({
        message: 'Validation failed',
        issues: [{ code: 'unsupported_media_type', path: [], message: expect.stringContaining('Content-Type: application/json') }],
      });
    }
  });

  it('400 in the same shape for malformed JSON and a missing body', async () => {
    const bad = await fetch(`${server.url}/v1/validate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: '{"query": "Dam',
    });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ message: 'Validation failed', issues: [expect.objectContaining({ path: [] })] });
    const empty = await fetch(`${server.url}/v1/autocomplete`, { method: 'POST', headers: { authorization: `Bearer ${key}` } });
    expect(empty.status).toBe(400);
    expect(await empty.json()).toMatchObject({ message: 'Validation failed', issues: expect.any(Array) });
  });

  it('413 for a body over the limit', async () => {
    const res = await call('POST', '/v1/validate', { query: 'x'.repeat(100_000) }, { authorization: `Bearer ${key}` });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ message: 'Request body too large: the limit is 64 KiB' });
    // Without a Content-Length (a streamed body) the limit holds all the same.
    const body = new TextEncoder().encode(JSON.stringify({ query: 'x'.repeat(100_000) }));
    const streamed = await fetch(`${server.url}/v1/validate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: new ReadableStream({ start: (controller) => (controller.enqueue(body), controller.close()) }),
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(413);
    expect(await streamed.json()).toEqual({ message: 'Request body too large: the limit is 64 KiB' });
  });

  it('answers a wrong method on a known path with 405, Allow and the JSON {message}', async () => {
    const res = await fetch(`${server.url}/healthz`, { method: 'DELETE' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD');
    expect(await res.json()).toEqual({ message: 'Method DELETE is not allowed on /healthz: use GET' });
  });

  it('sends permissive CORS on secret-key routes, preflight included', async () => {
    const pre = await fetch(`${server.url}/v1/validate`, {
      method: 'OPTIONS',
      headers: { origin: 'https://anywhere.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe('*');
    expect(pre.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('authorization');
    const res = await call('POST', '/v1/validate', {}, { origin: 'https://anywhere.example' });
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('limits ak_test_ keys to 60 requests per minute, per key', async () => {
    const { key: testKey } = await server.createAccount({ env: 'test', plan: 'growth' });
    const { key: otherTestKey } = await server.createAccount({ env: 'test', plan: 'growth' });
    const auth = { authorization: `Bearer ${testKey}` };
    for (let i = 0; i < 60; i += 1) {
      const res = await call('POST', '/v1/validate', { query: 'Damrak 1 Amsterdam', country: 'NL' }, auth);
      expect(res.status, `request ${i + 1}`).toBe(200);
    }
    const limited = await call('POST', '/v1/validate', { query: 'Damrak 1 Amsterdam', country: 'NL' }, auth);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await limited.json()) as { message: string }).message).toMatch(/60 requests per minute/);
    expect((await call('POST', '/v1/validate', { query: 'Damrak 1 Amsterdam', country: 'NL' }, { authorization: `Bearer ${otherTestKey}` })).status).toBe(200);
    clock.advance(61_000);
    expect((await call('POST', '/v1/validate', { query: 'Damrak 1 Amsterdam', country: 'NL' }, auth)).status).toBe(200);
  });
});

describe('npm start on a fresh DATA_DIR', () => {
  it('creates its storage and master key, answers /healthz, and stops cleanly on SIGTERM', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'addressd-start-'));
    // What `npm start` runs (src/main.ts under tsx), with nothing configured but a free port and the data directory.
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      // Provider URLs on a closed local port: the start-up reachability probe must not reach the network.
      env: { PATH: process.env.PATH ?? '', PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, PDOK_URL: 'http://127.0.0.1:9/pdok', PHOTON_URL: 'http://127.0.0.1:9', NOMINATIM_URL: 'http://127.0.0.1:9' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      let buffered = '';
      const lines = () => buffered.split('\n').slice(0, -1).map((line) => JSON.parse(line) as { msg: string; port?: number; providers?: string[] });
      // Resolves once the start-up probe line of each HTTP provider (all on a closed port) is written.
      const listening = await new Promise<{ port?: number; providers?: string[] }>((resolve, reject) => {
        child.stdout.on('data', (chunk: Buffer) => {
          buffered += chunk.toString();
          const all = lines();
          const line = all.find((l) => l.msg.startsWith('listening'));
          const probed = new Set(all.filter((l) => l.msg.includes('NOT reachable')).map((l) => l.msg.split(' ')[1]));
          if (line && ['pdok', 'photon', 'nominatim'].every((id) => probed.has(id))) resolve(line);
        });
        void exited.then((code) => reject(new Error(`exited with ${code} before listening and probing`)));
      });
      // The three HTTP providers by default; `local` joins once an index is imported.
      expect(listening.providers).toEqual(['pdok', 'photon', 'nominatim']);
      const res = await fetch(`http://127.0.0.1:${listening.port}/healthz`);
      expect(res.status).toBe(200);
      // None of them could be reached at start: /healthz lists none until one answers.
      expect(await res.json()).toEqual({ status: 'ok', providers: [] });
      expect(readdirSync(dataDir)).toEqual(expect.arrayContaining(['addressd.sqlite', 'master.key']));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
