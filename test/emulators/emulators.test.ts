import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_DATASET, type Emulator, EmulatorAddress, startNominatimEmulator, startPdokEmulator, startPhotonEmulator } from './index.js';

/** Wire-level checks of the emulators themselves: what other suites rely on. */
let pdok: Emulator;
let photon: Emulator;
let nominatim: Emulator;

beforeAll(async () => {
  [pdok, photon, nominatim] = await Promise.all([startPdokEmulator(), startPhotonEmulator(), startNominatimEmulator()]);
});
afterAll(async () => {
  await Promise.all([pdok.close(), photon.close(), nominatim.close()]);
});
afterEach(() => {
  for (const e of [pdok, photon, nominatim]) {
    e.setFault({ mode: 'none' });
    e.setDataset(DEFAULT_DATASET);
    e.requests.length = 0;
  }
});

const UA = { 'user-agent': 'emulator-tests/1.0' };
async function get(url: string, headers: Record<string, string> = UA) {
  const res = await fetch(url, { headers });
  return { status: res.status, type: res.headers.get('content-type') ?? '', text: await res.text() };
}

describe('dataset', () => {
  it('spans NL, DE, FR, GB and US with unique ids, and parses with its schema', () => {
    expect(new Set(DEFAULT_DATASET.map((a) => a.country))).toEqual(new Set(['NL', 'DE', 'FR', 'GB', 'US']));
    expect(new Set(DEFAULT_DATASET.map((a) => a.id)).size).toBe(DEFAULT_DATASET.length);
    for (const a of DEFAULT_DATASET) expect(EmulatorAddress.safeParse(a).success).toBe(true);
  });
});

describe('PDOK emulator', () => {
  it('serves its base path and answers a Solr envelope, empty when nothing matches', async () => {
    expect(pdok.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/bzk\/locatieserver\/search\/v3_1$/);
    const res = await get(`${pdok.url}/free?q=Nergensstraat%2099&fq=type:adres`);
    expect(res.type).toMatch(/^application\/json/);
    expect(JSON.parse(res.text)).toEqual({ response: { numFound: 0, start: 0, maxScore: 0, numFoundExact: true, docs: [] } });
  });

  it('serves only Dutch addresses', async () => {
    const body = JSON.parse((await get(`${pdok.url}/free?q=Unter%20den%20Linden%2077%20Berlin`)).text);
    expect(body.response.docs).toEqual([]);
  });

  it('rejects parameters outside the v3_1 OpenAPI description with a problem body', async () => {
    const res = await get(`${pdok.url}/free?q=Damrak&format=json`);
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text)).toMatchObject({ status: 400, title: 'Bad Request', detail: expect.stringContaining('format') });
  });

  it('returns a looked-up document by the id a suggestion carried', async () => {
    const suggest = JSON.parse((await get(`${pdok.url}/suggest?q=Domplein%2029`)).text);
    const id = suggest.response.docs[0].id as string;
    expect(Object.keys(suggest.response.docs[0]).sort()).toEqual(['id', 'score', 'type', 'weergavenaam']);
    expect(suggest.highlighting[id].suggest[0]).toContain('<b>Domplein</b>');
    const lookup = JSON.parse((await get(`${pdok.url}/lookup?id=${id}`)).text);
    expect(lookup.response.docs[0]).toMatchObject({ id, straatnaam: 'Domplein', huisnummer: 29, postcode: '3512JE', centroide_ll: 'POINT(5.1223367 52.0908617)' });
  });

  it('records repeated fq values', async () => {
    await get(`${pdok.url}/free?q=Damrak&fq=type:adres&fq=postcode:1012LM`);
    expect(pdok.requests[0]?.queryAll.fq).toEqual(['type:adres', 'postcode:1012LM']);
    expect(pdok.requests[0]?.query.fq).toBe('postcode:1012LM');
  });
});

describe('Photon emulator', () => {
  it('answers an empty FeatureCollection when nothing matches', async () => {
    expect(JSON.parse((await get(`${photon.url}/api?q=Xyzzy`)).text)).toEqual({ features: [], type: 'FeatureCollection' });
  });

  it('refuses an unsupported language and a missing q like the real one', async () => {
    const lang = await get(`${photon.url}/api?q=Berlin&lang=nl`);
    const noQ = await get(`${photon.url}/api`);
    expect([lang.status, noQ.status]).toEqual([400, 400]);
    expect(JSON.parse(lang.text)).toEqual({ message: expect.stringContaining('not supported') });
  });

  it('searches whatever dataset it is given', async () => {
    photon.setDataset([{ id: 'x', street: 'Teststraat', houseNumber: '5', postcode: '9999 ZZ', city: 'Proefdorp', country: 'NL', lat: 52, lng: 5 }]);
    const body = JSON.parse((await get(`${photon.url}/api?q=Teststraat%205`)).text);
    expect(body.features[0].properties).toMatchObject({ street: 'Teststraat', housenumber: '5', type: 'house', countrycode: 'NL' });
  });
});

describe('Nominatim emulator', () => {
  it('answers [] when nothing matches and honours countrycodes', async () => {
    expect((await get(`${nominatim.url}/search?q=Xyzzy&format=jsonv2`)).text).toBe('[]');
    const elsewhere = await get(`${nominatim.url}/search?q=Damrak%201%20Amsterdam&format=jsonv2&countrycodes=de`);
    expect(JSON.parse(elsewhere.text)).toEqual([]);
  });

  it('refuses q together with structured parameters', async () => {
    const res = await get(`${nominatim.url}/search?q=Damrak&street=Damrak&format=jsonv2`);
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text)).toEqual({ error: { code: 400, message: expect.stringContaining("'q'") } });
  });

  it('translates the country with accept-language', async () => {
    const [place] = JSON.parse((await get(`${nominatim.url}/search?q=Marienplatz%208%20M%C3%BCnchen&format=jsonv2&addressdetails=1&accept-language=fr`)).text);
    expect(place.address).toMatchObject({ road: 'Marienplatz', house_number: '8', city: 'München', country: 'Allemagne', country_code: 'de' });
  });

  it('answers 429 with the HTML block page', async () => {
    nominatim.setFault({ mode: 'status', status: 429 });
    const res = await get(`${nominatim.url}/search?q=Damrak&format=jsonv2`);
    expect([res.status, res.type]).toEqual([429, 'text/html; charset=utf-8']);
  });
});

describe('faults', () => {
  it('cuts the body short in malformed mode', async () => {
    photon.setFault({ mode: 'malformed' });
    const res = await get(`${photon.url}/api?q=Berlin`);
    expect(res.type).toMatch(/json/);
    expect(() => JSON.parse(res.text)).toThrow();
  });

  it('never answers in hang mode, until the client gives up', async () => {
    pdok.setFault({ mode: 'hang' });
    await expect(fetch(`${pdok.url}/free?q=Damrak`, { signal: AbortSignal.timeout(100) })).rejects.toThrow();
    expect(pdok.requests).toHaveLength(1);
  });

  it('answers normally after the delay in slow mode', async () => {
    photon.setFault({ mode: 'slow', delayMs: 50 });
    const res = await get(`${photon.url}/api?q=Berlin`);
    expect(JSON.parse(res.text).features[0].properties).toMatchObject({ name: 'Berlin', type: 'city' });
  });

  it('closes even with a request hanging', async () => {
    const e = await startPhotonEmulator();
    e.setFault({ mode: 'hang' });
    const pending = fetch(`${e.url}/api?q=Berlin`).catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 30));
    await e.close();
    expect(await pending).toBeInstanceOf(Error);
  });
});
