import { request } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.js';

describe('pages and their assets', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => server.close());

  const assetsOf = (html: string) => [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]!);

  it.each(['/', '/docs'])('%s is HTML whose every asset the service serves, cacheable for good', async (path) => {
    const res = await fetch(`${server.url}${path}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await res.text();
    expect(html).not.toMatch(/(?:src|href)="(?:https?:)?\/\//);
    const assets = assetsOf(html);
    expect(assets.length).toBeGreaterThanOrEqual(path === '/' ? 3 : 4);
    for (const asset of assets) {
      const a = await fetch(`${server.url}${asset}`, { headers: { 'accept-encoding': 'identity' } });
      expect(a.status, asset).toBe(200);
      expect(a.headers.get('cache-control')).toContain('immutable');
      expect((await a.arrayBuffer()).byteLength).toBeGreaterThan(0);
    }
  });

  it('sends assets gzipped to browsers that accept it, identical once unpacked', async () => {
    const html = await (await fetch(`${server.url}/docs`)).text();
    const redoc = assetsOf(html).find((a) => a.includes('redoc'))!;
    const plain = Buffer.from(await (await fetch(`${server.url}${redoc}`, { headers: { 'accept-encoding': 'identity' } })).arrayBuffer());
    // node:http keeps the bytes as sent (fetch would unpack them), so the compressed body can be checked.
    const packed = await new Promise<{ encoding: string | undefined; body: Buffer }>((resolve, reject) => {
      request(`${server.url}${redoc}`, { headers: { 'accept-encoding': 'gzip' } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ encoding: res.headers['content-encoding'], body: Buffer.concat(chunks) }));
      })
        .on('error', reject)
        .end();
    });
    expect(packed.encoding).toBe('gzip');
    expect(packed.body.length).toBeLessThan(plain.length / 2);
    expect(gunzipSync(packed.body).equals(plain)).toBe(true);
  });

  it('answers 404 for an asset it does not have', async () => {
    const res = await fetch(`${server.url}/assets/home.00000000.js`);
    expect(res.status).toBe(404);
  });
});

describe('the homepage names the providers this server asks (issue 28 §11)', () => {
  const leadOf = async (providers: string) => {
    const server = await startTestServer({ providers });
    try {
      const html = await (await fetch(`${server.url}/`)).text();
      return html.match(/<p class="lead">([\s\S]*?)<\/p>/)?.[1] ?? '';
    } finally {
      await server.close();
    }
  };

  it('with PROVIDERS=local it speaks of your own data only, never of PDOK, Photon or Nominatim', async () => {
    const page = await leadOf('local');
    expect(page).toContain('your own imported address data');
    expect(page).not.toMatch(/PDOK|Photon|Nominatim|compares/);
  });

  it('with the three outside providers it names them and not an imported index', async () => {
    const page = await leadOf('pdok,photon,nominatim');
    expect(page).toMatch(/asks PDOK, OpenStreetMap(?:'|&#39;)s Photon and OpenStreetMap(?:'|&#39;)s Nominatim, compares their answers/);
    expect(page).not.toContain('imported');
  });
});

describe('request examples in /openapi.json', () => {
  let server: TestServer;
  let doc: { paths: Record<string, Record<string, { security?: Record<string, string[]>[]; 'x-codeSamples'?: { label: string; source: string }[] }>> };
  beforeAll(async () => {
    server = await startTestServer();
    doc = (await (await fetch(`${server.url}/openapi.json`)).json()) as typeof doc;
  });
  afterAll(async () => server.close());

  it('gives every operation a curl and a fetch example with its credential and a valid JSON body', () => {
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        const samples = op['x-codeSamples'] ?? [];
        expect(samples.map((s) => s.label), `${method} ${path}`).toEqual(['curl', 'fetch']);
        const curl = samples[0]!.source;
        const schemes = (op.security ?? []).flatMap((s) => Object.keys(s));
        if (schemes.includes('secretKey')) expect(curl).toContain('-H "Authorization: Bearer $API_KEY"');
        if (schemes.includes('publishableToken')) {
          expect(curl).toContain('-H "Authorization: Bearer $PUBLISHABLE_TOKEN"');
          expect(curl).toContain('-H "Origin: https://');
        }
        const body = /-d '(.*)'$/m.exec(curl)?.[1];
        if (method === 'post') expect(() => JSON.parse(body ?? '')).not.toThrow();
      }
    }
  });
});
