import { describe, expect, it } from 'vitest';
import { createPhotonProvider } from '../../src/providers/photon/adapter.js';
import { mapPhotonFeature } from '../../src/providers/photon/map.js';
import { PhotonFeature } from '../../src/providers/photon/wire.js';
import { type Fault, startPhotonEmulator } from '../emulators/index.js';
import { adapterAgainstEmulator, providerError, signal } from './harness.js';

const photon = adapterAgainstEmulator(startPhotonEmulator, createPhotonProvider);

describe('photon geocode (/api)', () => {
  it('maps a house feature to components, location and a label, without a confidence', async () => {
    const [best] = await photon.provider.geocode({ query: 'Unter den Linden 77, 10117 Berlin', components: {} }, signal());
    expect(best).toMatchObject({
      components: { street: 'Unter den Linden', houseNumber: '77', postcode: '10117', city: 'Berlin', state: 'Berlin', country: 'DE' },
      location: { lat: 52.516221, lng: 13.380104 },
      precision: 'address',
      label: 'Unter den Linden 77, 10117 Berlin, Deutschland',
    });
    expect(best).not.toHaveProperty('providerConfidence');
    expect(best?.raw).toMatchObject({ type: 'Feature', properties: { type: 'house', osm_key: 'place' } });
  });

  it('writes the house number first where the country does', async () => {
    const [best] = await photon.provider.geocode({ query: '10 Downing Street London', components: {} }, signal());
    expect(best?.label).toBe('10 Downing Street, SW1A 2AA London, United Kingdom');
  });

  it('falls back to the street when the house number is unknown', async () => {
    const [best] = await photon.provider.geocode({ query: 'Damrak 999 Amsterdam', components: {} }, signal());
    expect(best).toMatchObject({ precision: 'street', components: { street: 'Damrak', city: 'Amsterdam', country: 'NL' } });
    expect(best?.components.houseNumber).toBeUndefined();
  });

  it('passes a language Photon supports as lang, and leaves others out', async () => {
    const [english] = await photon.provider.geocode({ query: 'Marienplatz 8 München', components: {}, language: 'en-GB' }, signal());
    await photon.provider.geocode({ query: 'Marienplatz 8 München', components: {}, language: 'nl-NL' }, signal());
    expect(photon.emulator.requests.map((r) => r.query.lang)).toEqual(['en', undefined]);
    expect(english?.label).toMatch(/Germany$/);
  });

  it('drops results from another country than the one asked for', async () => {
    photon.emulator.setDataset([
      { id: 'a', street: 'Hauptstraße', houseNumber: '1', postcode: '10115', city: 'Berlin', country: 'DE', lat: 52.53, lng: 13.38 },
      { id: 'b', street: 'Hauptstraße', houseNumber: '1', postcode: '1010', city: 'Wien', country: 'AT', lat: 48.2, lng: 16.37 },
    ]);
    try {
      const all = await photon.provider.geocode({ query: 'Hauptstraße 1', components: {} }, signal());
      const austrian = await photon.provider.geocode({ query: 'Hauptstraße 1', components: {}, country: 'AT' }, signal());
      expect(new Set(all.map((c) => c.components.country))).toEqual(new Set(['AT', 'DE']));
      expect(austrian.length).toBeGreaterThan(0);
      expect(austrian.every((c) => c.components.country === 'AT')).toBe(true);
    } finally {
      const { DEFAULT_DATASET } = await import('../emulators/index.js');
      photon.emulator.setDataset(DEFAULT_DATASET);
    }
  });

  it('searches components as text without the country code, filtering by that country instead', async () => {
    const [best] = await photon.provider.geocode({ components: { street: 'Rue de Rivoli', houseNumber: '99', city: 'Paris', country: 'FR' } }, signal());
    expect(photon.emulator.requests[0]?.query.q).toBe('Rue de Rivoli 99, Paris');
    expect(best?.components).toMatchObject({ street: 'Rue de Rivoli', houseNumber: '99', country: 'FR' });
  });

  it('answers an empty list when nothing matches', async () => {
    await expect(photon.provider.geocode({ query: 'Xyzzy Plugh 12345', components: {} }, signal())).resolves.toEqual([]);
  });

  it('covers every country', () => {
    expect([photon.provider.covers('NL'), photon.provider.covers('JP'), photon.provider.covers(undefined)]).toEqual([true, true, true]);
  });

  const faults: [Fault, string][] = [
    [{ mode: 'status', status: 500 }, 'http'],
    [{ mode: 'status', status: 429 }, 'http'],
    [{ mode: 'malformed' }, 'malformed'],
    [{ mode: 'wrong-content-type' }, 'malformed'],
    [{ mode: 'wrong-shape' }, 'malformed'],
  ];
  it.each(faults)('turns %o into a ProviderError (%s)', async (fault, kind) => {
    photon.emulator.setFault(fault);
    expect((await providerError(photon.provider.geocode({ query: 'Damrak 1', components: {} }, signal()))).kind).toBe(kind);
  });
});

describe('photon autocomplete (/api)', () => {
  it('completes a partly typed street and respects the limit', async () => {
    const suggestions = await photon.provider.autocomplete!({ query: 'Unter den Lin', limit: 2 }, signal());
    expect(photon.emulator.requests[0]?.query.limit).toBe('2');
    expect(suggestions.length).toBeLessThanOrEqual(2);
    expect(suggestions[0]?.components.street).toBe('Unter den Linden');
  });

  it('maps a city feature to a locality', async () => {
    const [city] = await photon.provider.autocomplete!({ query: 'Edinbu', limit: 5 }, signal());
    expect(city).toMatchObject({ precision: 'locality', components: { city: 'Edinburgh', country: 'GB' } });
  });
});

describe('photon mapping of older instances', () => {
  // Older Photon builds send neither `type` nor `countrycode` (this is their real shape).
  const legacy = PhotonFeature.parse({
    type: 'Feature',
    geometry: { type: 'Point', coordinates: [4.8852188, 52.3599976] },
    properties: { osm_id: 7620227, osm_type: 'R', osm_key: 'tourism', osm_value: 'museum', name: 'Rijksmuseum', street: 'Museumstraat', housenumber: 1, postcode: '1071 XX', city: 'Amsterdam', state: 'Noord-Holland', country: 'Nederland' },
  });

  it('derives precision from the parts present and keeps the POI name in the label', () => {
    const candidate = mapPhotonFeature(legacy);
    expect(candidate.precision).toBe('address');
    // A numeric housenumber (seen in the wild) still becomes a string.
    expect(candidate.components).toEqual({ street: 'Museumstraat', houseNumber: '1', postcode: '1071 XX', city: 'Amsterdam', state: 'Noord-Holland' });
    expect(candidate.label).toBe('Rijksmuseum, Museumstraat 1, 1071 XX Amsterdam, Nederland');
  });
});

describe('photon mapping of what the public instance sends besides addresses', () => {
  // Photon types every POI `house`, also one without a house number (a museum, a viewpoint).
  const poi = PhotonFeature.parse({
    geometry: { coordinates: [13.3777, 52.5163], type: 'Point' },
    type: 'Feature',
    properties: { osm_id: 240109189, country: 'Deutschland', city: 'Berlin', countrycode: 'DE', postcode: '10117', locality: 'Dorotheenstadt', type: 'house', osm_type: 'N', osm_key: 'tourism', street: 'Pariser Platz', district: 'Mitte', osm_value: 'viewpoint', name: 'Aussichtspunkt Pariser Platz', state: 'Berlin' },
  });
  // A district spanning many postcodes carries them as one `;` list.
  const district = PhotonFeature.parse({
    geometry: { coordinates: [2.3483915, 48.8534951], type: 'Point' },
    type: 'Feature',
    properties: { osm_type: 'R', osm_id: 71525, extent: [2.224122, 48.902156, 2.4697602, 48.8155755], country: 'France', osm_key: 'boundary', city: 'Paris', countrycode: 'FR', postcode: '75001;75002;75003;75004;75116', osm_value: 'administrative', name: 'Paris', state: 'Île-de-France', type: 'district' },
  });

  it('rates a POI without a house number at street precision, never as an address point', () => {
    const candidate = mapPhotonFeature(poi);
    expect(candidate.precision).toBe('street');
    expect(candidate.components).toEqual({ street: 'Pariser Platz', postcode: '10117', city: 'Berlin', state: 'Berlin', country: 'DE' });
    expect(candidate.label).toBe('Aussichtspunkt Pariser Platz, Pariser Platz, 10117 Berlin, Deutschland');
    const { street: _street, ...noStreet } = poi.properties;
    expect(mapPhotonFeature({ ...poi, properties: noStreet }).precision).toBe('locality');
  });

  it('drops a postcode list, which names no single postcode, from components and label', () => {
    const candidate = mapPhotonFeature(district);
    expect(candidate.precision).toBe('locality');
    expect(candidate.components).toEqual({ city: 'Paris', state: 'Île-de-France', country: 'FR' });
    expect(candidate.label).toBe('Paris, Île-de-France, France');
    const one = mapPhotonFeature({ ...district, properties: { ...district.properties, postcode: '75001' } });
    expect(one.components.postcode).toBe('75001');
  });
});
