import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ValidateResponse } from '../../src/contract/validate.js';
import { STORAGE_BACKENDS } from '../support/backends.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { waitFor } from '../support/wait-for.js';
import type { PbfNode } from './support/pbf-writer.js';
import { writePbf } from './support/pbf-writer.js';
import { openIndexSandbox } from './support/local-sandbox.js';

/**
 * A Liechtenstein extract as Geofabrik cuts it: the country's addresses and, across the border,
 * a few Austrian ones (the real one holds 19 of ~15,000).
 */
function liechtensteinExtract(): Buffer {
  const nodes: PbfNode[] = Array.from({ length: 30 }, (_, i) => ({
    id: 100 + i,
    lat: 47.139 + i * 0.0001,
    lon: 9.5215,
    tags: { 'addr:housenumber': String(i + 1), 'addr:street': 'Städtle', 'addr:postcode': '9490', 'addr:city': 'Vaduz', 'addr:country': 'LI' },
  }));
  nodes.push(
    { id: 500, lat: 48.2085, lon: 16.3731, tags: { 'addr:housenumber': '1', 'addr:street': 'Stephansplatz', 'addr:postcode': '1010', 'addr:city': 'Wien', 'addr:country': 'AT' } },
    { id: 501, lat: 47.2400, lon: 9.6000, tags: { 'addr:housenumber': '2', 'addr:street': 'Bahnhofstrasse', 'addr:postcode': '6800', 'addr:city': 'Feldkirch', 'addr:country': 'AT' } },
  );
  return writePbf(nodes, []);
}

const UNVERIFIED = 'x-addressd-unverified';

/** Issue 28 item 3: `local` covers a country only where an import was made for it. */
describe.each(STORAGE_BACKENDS)('honest coverage of the local index (%s)', (backend) => {
  let server: TestServer;
  let operatorSays: TestServer;
  let key: string;

  beforeAll(async () => {
    server = await startTestServer({ backend, providers: 'local' });
    // The same index, with the operator's own list.
    operatorSays = await startTestServer({ sandbox: server.sandbox, providers: 'local', env: { LOCAL_COUNTRIES: 'li,AT' } });
    ({ key } = await server.createAccount({ plan: 'starter' }));
    const box = await openIndexSandbox(backend);
    try {
      const summary = await server.services.localIndex!.importFile(box.file('liechtenstein.osm.pbf', liechtensteinExtract()), { format: 'osm' });
      expect(summary.countries).toEqual(['AT', 'LI']);
      expect(summary.covered).toEqual(['LI']);
    } finally {
      await box.close();
    }
  });
  afterAll(async () => {
    await operatorSays?.close();
    await server?.close();
  });

  const validate = async (s: TestServer, query: string, country: string) => {
    const res = await s.post('/v1/validate', { query, country }, { authorization: `Bearer ${key}` });
    expect(res.status).toBe(200);
    return { body: (await res.json()) as ValidateResponse, unverified: res.headers.get(UNVERIFIED) };
  };
  const autocomplete = async (s: TestServer, query: string, country: string) => {
    const res = await s.post('/v1/autocomplete', { query, country, limit: 5 }, { authorization: `Bearer ${key}` });
    expect(res.status).toBe(200);
    return res.headers.get(UNVERIFIED);
  };

  it('answers for the extract country as checked', async () => {
    const { body, unverified } = await validate(server, 'Städtle 12, 9490 Vaduz', 'LI');
    expect(unverified).toBeNull();
    expect(body).toMatchObject({ verdict: 'valid', provider: 'local' });
    expect(await autocomplete(server, 'Städtle 1', 'LI')).toBeNull();
  });

  it('leaves the spill-over country unverified, as an empty index would, while its addresses stay searchable', async () => {
    const { body, unverified } = await validate(server, 'Stephansplatz 1, 1010 Wien', 'AT');
    expect(unverified).toBe('providers-unavailable');
    expect(body.provider).toBeNull();
    expect(await autocomplete(server, 'Stephansplatz', 'AT')).toBe('providers-unavailable');
    const hits = await server.services.localIndex!.geocode({ query: 'Stephansplatz 1, 1010 Wien', country: 'AT' });
    expect(hits[0]?.components).toMatchObject({ street: 'Stephansplatz', houseNumber: '1' });
  });

  it('lists the covered countries in /healthz, keeping its fields', async () => {
    expect(await (await fetch(`${server.url}/healthz`)).json()).toEqual({ status: 'ok', providers: ['local'], local: { covered: ['LI'] } });
    // The other instance notices the import by itself (SQLite: its next look at the index's version).
    const health = async () => (await fetch(`${operatorSays.url}/healthz`)).json();
    await waitFor(async () => ((await health()) as { providers: string[] }).providers.length > 0, 'the other instance to notice the import');
    expect(await health()).toEqual({ status: 'ok', providers: ['local'], local: { covered: ['AT', 'LI'] } });
  });

  it('LOCAL_COUNTRIES is what the operator says it covers', async () => {
    // Order-free: the other instance may not have noticed the import yet when this runs alone.
    const providers = async () => ((await (await fetch(`${operatorSays.url}/healthz`)).json()) as { providers: string[] }).providers;
    await waitFor(async () => (await providers()).length > 0, 'the other instance to notice the import');
    const { body, unverified } = await validate(operatorSays, 'Stephansplatz 1, 1010 Wien', 'AT');
    expect(unverified).toBeNull();
    expect(body).toMatchObject({ verdict: 'valid', provider: 'local' });
  });
});
