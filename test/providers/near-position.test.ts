import { describe, expect, it } from 'vitest';
import { createNominatimProvider, nominatimViewbox } from '../../src/providers/nominatim/adapter.js';
import { createPdokProvider } from '../../src/providers/pdok/adapter.js';
import { createPhotonProvider, photonLayers } from '../../src/providers/photon/adapter.js';
import { DEFAULT_DATASET, type EmulatorAddress, startNominatimEmulator, startPdokEmulator, startPhotonEmulator } from '../emulators/index.js';
import { adapterAgainstEmulator, signal } from './harness.js';

// Issue 35: each provider that takes a position is given the customer's, in its own parameters,
// and (through its emulator, which biases as the real service does) answers the nearby one first.
const photon = adapterAgainstEmulator(startPhotonEmulator, createPhotonProvider);
const pdok = adapterAgainstEmulator(startPdokEmulator, createPdokProvider);
const nominatim = adapterAgainstEmulator(startNominatimEmulator, createNominatimProvider);

/** One street and number in two towns far apart: only the position can tell them apart. */
const twoTowns = (country: string, street: string, [a, b]: [string, string]): EmulatorAddress[] => [
  { id: `${a}`, street, houseNumber: '5', postcode: country === 'NL' ? '1111 AA' : '11111', city: a, country, lat: 52.0, lng: 5.0 },
  { id: `${b}`, street, houseNumber: '5', postcode: country === 'NL' ? '9999 ZZ' : '99999', city: b, country, lat: 53.2, lng: 6.6 },
];
const nearSecond = { lat: 53.21, lng: 6.58 };
const nearFirst = { lat: 52.01, lng: 5.01 };

async function withDataset<T>(under: { emulator: { setDataset(d: EmulatorAddress[]): void } }, data: EmulatorAddress[], run: () => Promise<T>): Promise<T> {
  under.emulator.setDataset(data);
  try {
    return await run();
  } finally {
    under.emulator.setDataset(DEFAULT_DATASET);
  }
}

describe('Photon: lat/lon as its location bias, layer for the kinds wanted', () => {
  it('sends the position on autocomplete and geocode, and the nearby town comes first', async () => {
    await withDataset(photon, twoTowns('DE', 'Mühlenweg', ['Oberbach', 'Unterbach']), async () => {
      const [near2] = await photon.provider.autocomplete!({ query: 'Mühlenweg 5', limit: 5, near: nearSecond }, signal());
      const [near1] = await photon.provider.geocode({ query: 'Mühlenweg 5', components: {}, near: nearFirst }, signal());
      expect(photon.emulator.requests.map((r) => [r.query.lat, r.query.lon])).toEqual([
        ['53.21', '6.58'],
        ['52.01', '5.01'],
      ]);
      expect(near2?.components.city).toBe('Unterbach');
      expect(near1?.components.city).toBe('Oberbach');
    });
  });

  it('sends no position when none is given', async () => {
    await photon.provider.autocomplete!({ query: 'Damrak 1', limit: 5 }, signal());
    expect(photon.emulator.requests[0]?.query).not.toHaveProperty('lat');
    expect(photon.emulator.requests[0]?.query).not.toHaveProperty('lon');
  });

  it('asks for streets only with layer=street, and leaves postcodes (no layer of their own) to the engine', async () => {
    const streets = await photon.provider.autocomplete!({ query: 'Damrak', limit: 5, types: ['street'] }, signal());
    expect(photon.emulator.requests[0]?.queryAll.layer).toEqual(['street']);
    expect(streets.length).toBeGreaterThan(0);
    expect(streets.every((c) => c.precision === 'street')).toBe(true);
    expect(photonLayers(['street', 'postcode'])).toBeUndefined();
    expect(photonLayers(['address', 'locality'])).toEqual(['house', 'city', 'district', 'locality']);
  });
});

describe('PDOK: lat/lon on /suggest and /free, fq for the kinds wanted', () => {
  it('sends the position and the nearby woonplaats comes first', async () => {
    await withDataset(pdok, twoTowns('NL', 'Kerkstraat', ['Amersfoort', 'Groningen']), async () => {
      const [suggested] = await pdok.provider.autocomplete!({ query: 'Kerkstraat 5', limit: 5, near: nearSecond }, signal());
      const [found] = await pdok.provider.geocode({ query: 'Kerkstraat 5', components: {}, country: 'NL', near: nearFirst }, signal());
      const searches = pdok.emulator.requests.filter((r) => r.path !== '/lookup');
      expect(searches.map((r) => [r.path, r.query.lat, r.query.lon])).toEqual([
        ['/suggest', '53.21', '6.58'],
        ['/free', '52.01', '5.01'],
      ]);
      expect(suggested?.components.city).toBe('Groningen');
      expect(found?.components.city).toBe('Amersfoort');
    });
  });

  it('filters by Locatieserver type: postcodes only, or towns', async () => {
    const postcodes = await pdok.provider.autocomplete!({ query: '1012', limit: 5, types: ['postcode'] }, signal());
    expect(pdok.emulator.requests[0]?.queryAll.fq).toEqual(['type:(postcode)']);
    expect(postcodes.length).toBeGreaterThan(0);
    expect(postcodes.every((c) => c.precision === 'postcode')).toBe(true);
    await pdok.provider.autocomplete!({ query: 'Amsterdam', limit: 5, types: ['street', 'locality'] }, signal());
    expect(pdok.emulator.requests.at(-1)?.queryAll.fq).toEqual(['type:(weg OR woonplaats)']);
  });
});

describe('Nominatim: a viewbox around the position, without bounded', () => {
  it('sends a box of about 100 km around the point and the place inside it comes first', async () => {
    await withDataset(nominatim, twoTowns('DE', 'Mühlenweg', ['Oberbach', 'Unterbach']), async () => {
      const [best] = await nominatim.provider.geocode({ query: 'Mühlenweg 5', components: {}, near: nearSecond }, signal());
      const sent = nominatim.emulator.requests[0]?.query ?? {};
      expect(sent.viewbox).toBe(nominatimViewbox(nearSecond));
      expect(sent).not.toHaveProperty('bounded');
      const [left, top, right, bottom] = (sent.viewbox ?? '').split(',').map(Number) as [number, number, number, number];
      expect(left).toBeLessThan(nearSecond.lng);
      expect(right).toBeGreaterThan(nearSecond.lng);
      expect(top).toBeGreaterThan(nearSecond.lat);
      expect(bottom).toBeLessThan(nearSecond.lat);
      // About 100 km across both ways at this latitude.
      expect((top - bottom) * 111).toBeGreaterThan(90);
      expect((right - left) * 111 * Math.cos((nearSecond.lat * Math.PI) / 180)).toBeGreaterThan(90);
      expect(best?.components.city).toBe('Unterbach');
    });
  });

  it('keeps the box within the map at the antimeridian and the poles', () => {
    const [left, top, right, bottom] = nominatimViewbox({ lat: 89.9, lng: 179.9 }).split(',').map(Number) as [number, number, number, number];
    expect(right).toBeLessThanOrEqual(180);
    expect(left).toBeGreaterThanOrEqual(-180);
    expect(top).toBeLessThanOrEqual(90);
    expect(bottom).toBeLessThan(89.9);
  });
});
