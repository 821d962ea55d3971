import { describe, expect, it } from 'vitest';
import { HttpClient } from '../../src/providers/http.js';
import { createNominatimProvider, isPublicNominatim, nominatimSearchParams } from '../../src/providers/nominatim/adapter.js';
import { mapNominatimPlace, nominatimPrecision } from '../../src/providers/nominatim/map.js';
import { NominatimPlace } from '../../src/providers/nominatim/wire.js';
import { type Fault, startNominatimEmulator } from '../emulators/index.js';
import { adapterAgainstEmulator, providerError, signal, TEST_AGENT } from './harness.js';

const nominatim = adapterAgainstEmulator(startNominatimEmulator, createNominatimProvider);

describe('nominatim geocode (/search)', () => {
  it('maps address details to components, without exposing importance as confidence', async () => {
    const [best] = await nominatim.provider.geocode({ query: '10 Downing Street, London SW1A 2AA', components: {} }, signal());
    expect(best).toMatchObject({
      components: { street: 'Downing Street', houseNumber: '10', postcode: 'SW1A 2AA', city: 'London', state: 'England', country: 'GB' },
      location: { lat: 51.5034402, lng: -0.1277082 },
      precision: 'address',
      label: '10, Downing Street, London, England, SW1A 2AA, United Kingdom',
    });
    expect(best).not.toHaveProperty('providerConfidence');
    expect(best?.raw).toMatchObject({ place_rank: 30, addresstype: 'place', lat: '51.5034402' });
  });

  it('sends free text as q, with jsonv2, address details, country and language, and our User-Agent', async () => {
    await nominatim.provider.geocode({ query: 'Damrak 1 Amsterdam', components: { street: 'Damrak' }, country: 'NL', language: 'de' }, signal());
    const request = nominatim.emulator.requests[0]!;
    expect(request.query).toMatchObject({ q: 'Damrak 1 Amsterdam', format: 'jsonv2', addressdetails: '1', countrycodes: 'nl', 'accept-language': 'de' });
    expect(request.query.street).toBeUndefined();
    expect(request.headers['user-agent']).toBe(TEST_AGENT);
  });

  it('uses structured parameters when the caller sent components', async () => {
    const [best] = await nominatim.provider.geocode({ components: { street: 'Lijsterstraat', houseNumber: '20', city: 'Amersfoort', postcode: '3815 DT', country: 'NL' } }, signal());
    expect(nominatim.emulator.requests[0]?.query).toMatchObject({ street: '20 Lijsterstraat', city: 'Amersfoort', postalcode: '3815 DT', country: 'NL', countrycodes: 'nl' });
    expect(nominatim.emulator.requests[0]?.query.q).toBeUndefined();
    // OSM files Amersfoort as a town: it still becomes the city.
    expect(best?.components).toMatchObject({ street: 'Lijsterstraat', houseNumber: '20', city: 'Amersfoort', country: 'NL' });
  });

  it('answers the road, at street precision, for an unknown house number', async () => {
    const [best] = await nominatim.provider.geocode({ components: { street: 'Damrak', houseNumber: '999', city: 'Amsterdam' } }, signal());
    expect(best).toMatchObject({ precision: 'street', components: { street: 'Damrak', city: 'Amsterdam' } });
  });

  it('answers an empty list when nothing matches', async () => {
    await expect(nominatim.provider.geocode({ query: 'Xyzzy Plugh 12345', components: {} }, signal())).resolves.toEqual([]);
  });

  it('does not autocomplete (its usage policy forbids it)', () => {
    expect(nominatim.provider.autocomplete).toBeUndefined();
  });

  const faults: [Fault, string, RegExp][] = [
    [{ mode: 'status', status: 500 }, 'http', /HTTP 500/],
    [{ mode: 'status', status: 429 }, 'http', /HTTP 429/],
    [{ mode: 'malformed' }, 'malformed', /malformed JSON/],
    [{ mode: 'wrong-content-type' }, 'malformed', /text\/html/],
    [{ mode: 'wrong-shape' }, 'malformed', /shape/],
  ];
  it.each(faults)('turns %o into a ProviderError (%s)', async (fault, kind, message) => {
    nominatim.emulator.setFault(fault);
    const error = await providerError(nominatim.provider.geocode({ query: 'Damrak 1', components: {} }, signal()));
    expect([error.kind, error.message]).toEqual([kind, expect.stringMatching(message)]);
  });

  it('is refused by the instance without an identifying User-Agent', async () => {
    const anonymous = new HttpClient({ userAgent: 'node' });
    try {
      const provider = createNominatimProvider({ baseUrl: nominatim.emulator.url, http: anonymous });
      expect((await providerError(provider.geocode({ query: 'Damrak 1', components: {} }, signal()))).message).toBe('HTTP 403');
    } finally {
      await anonymous.close();
    }
  });
});

describe('nominatim mapping rules', () => {
  const place = (extra: Record<string, unknown>) => NominatimPlace.parse({ place_id: 1, lat: '52.1', lon: '5.1', display_name: 'x', ...extra });

  it.each([
    [{ place_rank: 30, address: { house_number: '1', road: 'A' } }, 'address'],
    [{ place_rank: 30, address: { road: 'A' } }, 'street'],
    [{ place_rank: 26, addresstype: 'road' }, 'street'],
    [{ place_rank: 21, type: 'postcode', addresstype: 'postcode' }, 'postcode'],
    [{ place_rank: 16, addresstype: 'city' }, 'locality'],
    [{ place_rank: 8, addresstype: 'state' }, 'region'],
    [{ place_rank: 4, addresstype: 'country' }, 'country'],
    [{ address: { house_number: '4', pedestrian: 'Domkloster' } }, 'address'],
    [{ address: { city: 'Köln' } }, 'locality'],
  ])('precision of %o is %s', (extra, expected) => {
    expect(nominatimPrecision(place(extra))).toBe(expected);
  });

  it('finds the street and town under the keys OSM uses for them', () => {
    const candidate = mapNominatimPlace(place({ address: { house_number: '4', pedestrian: 'Domkloster', village: 'Kleinstadt', region: 'Region X', country_code: 'de' } }));
    expect(candidate.components).toEqual({ street: 'Domkloster', houseNumber: '4', city: 'Kleinstadt', state: 'Region X', country: 'DE' });
    expect(candidate.location).toEqual({ lat: 52.1, lng: 5.1 });
  });

  it('keeps a single postcode and drops a `;` list of them (a place spanning several)', () => {
    const list = mapNominatimPlace(place({ address: { road: 'Rue de Rivoli', city: 'Paris', postcode: '75001;75004', country_code: 'fr' } }));
    const single = mapNominatimPlace(place({ address: { road: 'Rue de Rivoli', city: 'Paris', postcode: '75001', country_code: 'fr' } }));
    expect(list.components).toEqual({ street: 'Rue de Rivoli', city: 'Paris', country: 'FR' });
    expect(single.components.postcode).toBe('75001');
  });

  it('rejects a place whose coordinates are not numbers', () => {
    expect(NominatimPlace.safeParse({ place_id: 1, lat: 'north', lon: '5.1', display_name: 'x' }).success).toBe(false);
  });

  it('builds "<number> <street>" for structured search and skips empty parts', () => {
    expect(nominatimSearchParams({ components: { street: 'Baker Street', houseNumber: '221B', city: 'London' } })).toEqual([
      ['street', '221B Baker Street'],
      ['city', 'London'],
    ]);
    expect(nominatimSearchParams({ components: {} })).toEqual([]);
  });

  it('recognises the public instance by its host', () => {
    expect(isPublicNominatim('https://nominatim.openstreetmap.org')).toBe(true);
    expect(isPublicNominatim('https://NOMINATIM.openstreetmap.org/')).toBe(true);
    expect(isPublicNominatim('http://127.0.0.1:8080')).toBe(false);
    expect(isPublicNominatim('https://nominatim.example.org')).toBe(false);
  });
});
