import { describe, expect, it } from 'vitest';
import { createPdokProvider } from '../../src/providers/pdok/adapter.js';
import { parsePoint, pdokConfidence, pdokHouseNumber, pdokPostcode } from '../../src/providers/pdok/map.js';
import { type Fault, startPdokEmulator } from '../emulators/index.js';
import { adapterAgainstEmulator, providerError, signal } from './harness.js';

const pdok = adapterAgainstEmulator(startPdokEmulator, createPdokProvider);

describe('pdok geocode (/free)', () => {
  it('maps a BAG address to components, location, label and a relative confidence', async () => {
    const [best, ...rest] = await pdok.provider.geocode({ query: 'Damrak 1, 1012 LG Amsterdam', components: {} }, signal());
    expect(best).toMatchObject({
      components: { street: 'Damrak', houseNumber: '1', postcode: '1012 LG', city: 'Amsterdam', state: 'Noord-Holland', country: 'NL' },
      location: { lat: 52.3761606, lng: 4.8958547 },
      label: 'Damrak 1, 1012LG Amsterdam',
      precision: 'address',
      providerConfidence: 1,
    });
    expect(best?.raw).toMatchObject({ type: 'adres', huisnummer: 1, postcode: '1012LG' });
    // Other addresses of the street come back with a lower score, hence a lower confidence.
    for (const other of rest) expect(other.providerConfidence).toBeLessThan(1);
  });

  it('asks /free for addresses only, with the fields it maps', async () => {
    await pdok.provider.geocode({ query: 'Damrak 1 Amsterdam', components: {} }, signal());
    const request = pdok.emulator.requests[0]!;
    expect(request.path).toBe('/free');
    expect(request.queryAll.fq).toEqual(['type:adres']);
    expect(request.query.fl?.split(',')).toEqual(expect.arrayContaining(['straatnaam', 'huisnummer', 'huisletter', 'huisnummertoevoeging', 'centroide_ll', 'score']));
  });

  it('writes huisletter and huisnummertoevoeging into houseNumber the Dutch way', async () => {
    const [letter] = await pdok.provider.geocode({ query: 'Keizersgracht 174A Amsterdam', components: {} }, signal());
    const [addition] = await pdok.provider.geocode({ query: 'Oudegracht 231-3 Utrecht', components: {} }, signal());
    expect(letter?.components.houseNumber).toBe('174A');
    expect(addition?.components.houseNumber).toBe('231-3');
  });

  it('builds the query text from components when no free text was sent', async () => {
    const [best] = await pdok.provider.geocode({ components: { street: 'Lijsterstraat', houseNumber: '20', postcode: '3815DT', city: 'Amersfoort' } }, signal());
    expect(pdok.emulator.requests[0]?.query.q).toBe('Lijsterstraat 20, 3815DT Amersfoort');
    expect(best?.components).toMatchObject({ street: 'Lijsterstraat', houseNumber: '20', postcode: '3815 DT' });
  });

  it('still finds the street with a one-letter typo', async () => {
    const [best] = await pdok.provider.geocode({ query: 'Damrk 70 Amsterdam', components: {} }, signal());
    expect(best?.components).toMatchObject({ street: 'Damrak', houseNumber: '70' });
  });

  it('answers an empty list for an address it does not know', async () => {
    await expect(pdok.provider.geocode({ query: 'Nergensstraat 99 Nowhere', components: {} }, signal())).resolves.toEqual([]);
  });

  it('covers only the Netherlands (and requests without a country)', () => {
    expect([pdok.provider.covers('NL'), pdok.provider.covers('nl'), pdok.provider.covers(undefined), pdok.provider.covers('DE'), pdok.provider.covers('BE')]).toEqual([true, true, true, false, false]);
  });

  const faults: [Fault, string, RegExp][] = [
    [{ mode: 'status', status: 500 }, 'http', /HTTP 500/],
    [{ mode: 'status', status: 503 }, 'http', /HTTP 503/],
    [{ mode: 'status', status: 429 }, 'http', /HTTP 429/],
    [{ mode: 'malformed' }, 'malformed', /malformed JSON/],
    [{ mode: 'wrong-content-type' }, 'malformed', /content type text\/html/],
    [{ mode: 'wrong-shape' }, 'malformed', /unexpected response shape/],
  ];
  it.each(faults)('turns %o into a ProviderError (%s)', async (fault, kind, message) => {
    pdok.emulator.setFault(fault);
    const error = await providerError(pdok.provider.geocode({ query: 'Damrak 1 Amsterdam', components: {} }, signal()));
    expect(error.kind).toBe(kind);
    expect(error.message).toMatch(message);
  });

  it('reports a refused connection as a network error', async () => {
    const gone = await startPdokEmulator();
    await gone.close();
    const dead = createPdokProvider({ baseUrl: gone.url, http: pdok.http });
    const error = await providerError(dead.geocode({ query: 'Damrak 1', components: {} }, signal()));
    expect(error.kind).toBe('network');
  });

  it('stops waiting when its signal aborts (a hanging server)', async () => {
    pdok.emulator.setFault({ mode: 'hang' });
    const call = pdok.provider.geocode({ query: 'Damrak 1', components: {} }, AbortSignal.timeout(150));
    await expect(call).rejects.toThrow();
  });
});

describe('pdok autocomplete (/suggest + /lookup)', () => {
  it('suggests addresses, streets and postcodes with the fields it maps, in one request', async () => {
    const suggestions = await pdok.provider.autocomplete!({ query: 'Keizersgr', limit: 5 }, signal());
    expect(pdok.emulator.requests.map((r) => r.path)).toEqual(['/suggest']);
    expect(pdok.emulator.requests[0]?.queryAll.fq).toEqual(['type:(adres OR weg OR postcode)']);
    expect(pdok.emulator.requests[0]?.query.rows).toBe('5');
    expect(suggestions.map((s) => s.precision)).toEqual(expect.arrayContaining(['address', 'street']));
    expect(suggestions[0]?.components).toMatchObject({ street: 'Keizersgracht', houseNumber: '174A', city: 'Amsterdam' });
    expect(suggestions[0]?.location).toEqual({ lat: 52.3763408, lng: 4.8859027 });
  });

  it('looks up every suggestion whose document lacks the fields it maps', async () => {
    const lean = await startPdokEmulator({ suggestIgnoresFl: true });
    try {
      const provider = createPdokProvider({ baseUrl: lean.url, http: pdok.http });
      const suggestions = await provider.autocomplete!({ query: 'Lijsterstraat 20', limit: 3 }, signal());
      const lookups = lean.requests.filter((r) => r.path === '/lookup');
      expect(lookups.length).toBe(suggestions.length);
      expect(suggestions[0]).toMatchObject({
        components: { street: 'Lijsterstraat', houseNumber: '20', postcode: '3815 DT', city: 'Amersfoort' },
        location: { lat: 52.1664619, lng: 5.4016827 },
        providerConfidence: 1,
      });
    } finally {
      await lean.close();
    }
  });

  it('answers an empty list when nothing starts like the query', async () => {
    await expect(pdok.provider.autocomplete!({ query: 'Qwxz', limit: 5 }, signal())).resolves.toEqual([]);
  });

  it('fails the whole attempt when the service errs', async () => {
    pdok.emulator.setFault({ mode: 'status', status: 500 });
    expect((await providerError(pdok.provider.autocomplete!({ query: 'Dam', limit: 5 }, signal()))).kind).toBe('http');
  });
});

describe('pdok mapping rules', () => {
  it.each([
    [{ huisnummer: 12 }, '12'],
    [{ huisnummer: 12, huisletter: 'b' }, '12B'],
    [{ huisnummer: 12, huisnummertoevoeging: '2' }, '12-2'],
    [{ huisnummer: 12, huisletter: 'A', huisnummertoevoeging: 'bis' }, '12A-bis'],
    [{}, undefined],
  ])('house number %o → %s', (doc, expected) => {
    expect(pdokHouseNumber(doc)).toBe(expected);
  });

  it('formats Dutch postcodes as 1234 AB and leaves others alone', () => {
    expect([pdokPostcode('1012LG'), pdokPostcode('1012 lg'), pdokPostcode('ABC'), pdokPostcode(undefined)]).toEqual(['1012 LG', '1012 LG', 'ABC', undefined]);
  });

  it('normalizes score against maxScore to 0-1, absent without scores', () => {
    expect(pdokConfidence(7.2593327, 7.2593327)).toBe(1);
    expect(pdokConfidence(3.6, 7.2)).toBeCloseTo(0.5);
    expect(pdokConfidence(undefined, 7.2)).toBeUndefined();
    expect(pdokConfidence(3, 0)).toBeUndefined();
  });

  it('reads WKT points as lng lat and rejects out-of-range ones', () => {
    expect(parsePoint('POINT(4.90016547 52.3676456)')).toEqual({ lat: 52.3676456, lng: 4.90016547 });
    expect(parsePoint('POINT(400 52)')).toBeUndefined();
    expect(parsePoint(undefined)).toBeUndefined();
  });
});
