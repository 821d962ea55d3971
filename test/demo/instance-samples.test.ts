import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_SAMPLES } from '../../src/demo/samples.js';
import { DEMO_ANSWER_HEADER } from '../../src/http/routes/demo.js';
import { STORAGE_BACKENDS } from '../support/backends.js';
import { startTestServer, type TestServer } from '../support/server.js';

// Issue 36: the homepage's samples come from the data the instance can answer. With `PROVIDERS=local` and
// another country they are addresses of the local index, looked up for real; the recorded Amsterdam ones
// only where PDOK, Photon or Nominatim is active for the Netherlands.
const LI_ROWS = [
  'LON,LAT,NUMBER,STREET,UNIT,CITY,DISTRICT,REGION,POSTCODE,ID,HASH',
  ...[336, 338, 340, 342, 344].map((n, i) => `9.526${i},47.106${i},${n},Landstrasse,,Triesen,,,9495,,`),
  '9.5210,47.1660,5,Kirchstrasse,,Schaan,,,9494,,',
];

/** The buttons' queries on the homepage, as a visitor's browser gets them. */
async function homepageSamples(server: TestServer): Promise<{ queries: string[]; html: string }> {
  const html = await (await fetch(`${server.url}/`)).text();
  const queries = [...html.matchAll(/data-sample="([^"]*)"/g)].map((m) => (m[1] ?? '').replace(/&amp;/g, '&').replace(/&#39;/g, "'"));
  return { queries, html };
}

const ask = (server: TestServer, query: string) =>
  fetch(`${server.url}/demo/validate`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) });

for (const backend of STORAGE_BACKENDS) {
  describe(`homepage samples with PROVIDERS=local and Liechtenstein's data (${backend})`, () => {
    let server: TestServer;
    let dir: string;

    beforeAll(async () => {
      server = await startTestServer({ backend, providers: 'local' });
      dir = mkdtempSync(join(tmpdir(), 'instance-samples-'));
      writeFileSync(join(dir, 'li.csv'), LI_ROWS.join('\n'));
      await server.services.localIndex!.importFile(join(dir, 'li.csv'), { format: 'openaddresses', country: 'LI' });
    });
    afterAll(async () => {
      await server?.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it('offers addresses of the local index, not the Amsterdam recordings', async () => {
      const { queries, html } = await homepageSamples(server);
      expect(queries).toEqual(['Landstrasse 336, 9495 Triesen, LI', 'Landstrase 336, Triesen, LI', 'Landstrasse 444, Triesen, LI']);
      expect(html).not.toContain('Amsterdam');
      expect(html).not.toContain('recorded answer');
      expect(html).toContain('placeholder="e.g. Landstrasse 336, 9495 Triesen, LI"');
    });

    it('never answers the Amsterdam text from a recording', async () => {
      const amsterdam = await ask(server, DEMO_SAMPLES[0]!.query);
      expect(amsterdam.status).toBe(200);
      expect(amsterdam.headers.get(DEMO_ANSWER_HEADER)).toBeNull();
      expect(((await amsterdam.json()) as { provider: string | null }).provider).not.toBe('pdok');
    });

    it('answers each by a fresh lookup here, with the verdict its label promises, even once the visitor’s allowance is spent', async () => {
      let spent = false;
      for (let i = 0; i < 1000 && !spent; i++) spent = (await ask(server, `Nowhere ${i}, Vaduz, LI`)).status === 429;
      expect(spent).toBe(true);
      const { queries } = await homepageSamples(server);
      const answers = [];
      for (const query of queries) {
        const res = await ask(server, query);
        expect(res.status).toBe(200);
        expect(res.headers.get(DEMO_ANSWER_HEADER)).toBeNull();
        answers.push((await res.json()) as { verdict: string; provider: string | null; address: { street?: string } | null });
      }
      expect(answers.map((a) => a.verdict)).toEqual(['valid', 'correctable', 'invalid']);
      expect(answers.map((a) => a.provider)).toEqual(['local', 'local', 'local']);
      expect(answers[1]?.address?.street).toBe('Landstrasse');
    });

    it('draws them again when the data changes', async () => {
      writeFileSync(join(dir, 'li.csv'), [LI_ROWS[0], '9.5210,47.1660,5,Kirchstrasse,,Schaan,,,9494,,'].join('\n'));
      await server.services.localIndex!.importFile(join(dir, 'li.csv'), { format: 'openaddresses', country: 'LI', replace: true });
      expect((await homepageSamples(server)).queries[0]).toBe('Kirchstrasse 5, 9494 Schaan, LI');
    });
  });
}

describe('homepage samples where the recorded answers do not apply and there is no data', () => {
  it('shows none when Photon covers only Germany and no local index is configured', async () => {
    const server = await startTestServer({ providers: 'photon', env: { PHOTON_COUNTRIES: 'DE' } });
    try {
      const { queries, html } = await homepageSamples(server);
      expect(queries).toEqual([]);
      expect(html).not.toContain('recorded');
    } finally {
      await server.close();
    }
  });

  it('keeps the recorded Amsterdam samples where PDOK covers the Netherlands', async () => {
    const server = await startTestServer({ providers: 'pdok' });
    try {
      expect((await homepageSamples(server)).queries).toEqual(DEMO_SAMPLES.map((s) => s.query));
      expect((await ask(server, DEMO_SAMPLES[0]!.query)).headers.get(DEMO_ANSWER_HEADER)).toBe('recorded-example');
    } finally {
      await server.close();
    }
  });
});
