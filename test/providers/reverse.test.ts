import { describe, expect, it } from 'vitest';
import { createNominatimProvider } from '../../src/providers/nominatim/adapter.js';
import { createPdokProvider } from '../../src/providers/pdok/adapter.js';
import { createPhotonProvider } from '../../src/providers/photon/adapter.js';
import { startNominatimEmulator, startPdokEmulator, startPhotonEmulator } from '../emulators/index.js';
import { adapterAgainstEmulator, providerError, signal } from './harness.js';

const photon = adapterAgainstEmulator(startPhotonEmulator, createPhotonProvider);
const nominatim = adapterAgainstEmulator(startNominatimEmulator, createNominatimProvider);
const pdok = adapterAgainstEmulator(startPdokEmulator, createPdokProvider);

/** About 20 m north-east of Damrak 1 (emulator dataset); Damrak 70 lies about 220 m south-west. */
const NEAR_DAMRAK = { lat: 52.37632, lng: 4.89605 };
const damrak1 = { street: 'Damrak', houseNumber: '1', postcode: '1012 LG', city: 'Amsterdam', country: 'NL' };

describe('photon reverse (/reverse)', () => {
  it('asks for houses within the radius (in kilometres) and maps them nearest first', async () => {
    const found = await photon.provider.reverse!({ ...NEAR_DAMRAK, radiusMeters: 500, limit: 3 }, signal());
    expect(found.map((c) => `${c.components.street} ${c.components.houseNumber}`)).toEqual(['Damrak 1', 'Damrak 70', 'Dam 1']);
    expect(found[0]).toMatchObject({ components: damrak1, location: { lat: 52.3761606, lng: 4.8958547 }, precision: 'address' });
    expect(photon.emulator.requests[0]).toMatchObject({ path: '/reverse', query: { lat: '52.37632', lon: '4.89605', radius: '0.5', limit: '3', layer: 'house' } });
  });

  it('answers an empty list where nothing is near, and fails on a server error', async () => {
    expect(await photon.provider.reverse!({ lat: 54.5, lng: 3.5, radiusMeters: 5000, limit: 5 }, signal())).toEqual([]);
    photon.emulator.setFault({ mode: 'status', status: 500 });
    expect((await providerError(photon.provider.reverse!({ ...NEAR_DAMRAK, radiusMeters: 200, limit: 5 }, signal()))).kind).toBe('http');
  });
});

describe('nominatim reverse (/reverse)', () => {
  it('asks for the building level (zoom 18, jsonv2, addressdetails) and maps its one place', async () => {
    const found = await nominatim.provider.reverse!({ ...NEAR_DAMRAK, radiusMeters: 200, limit: 5 }, signal());
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ components: damrak1, location: { lat: 52.3761606, lng: 4.8958547 }, precision: 'address' });
    expect(nominatim.emulator.requests[0]).toMatchObject({ path: '/reverse', query: { lat: '52.37632', lon: '4.89605', format: 'jsonv2', addressdetails: '1', zoom: '18' } });
  });

  it('reads "Unable to geocode" (HTTP 200) as no result, and a cut-off body as a failure', async () => {
    expect(await nominatim.provider.reverse!({ lat: 54.5, lng: 3.5, radiusMeters: 200, limit: 5 }, signal())).toEqual([]);
    nominatim.emulator.setFault({ mode: 'malformed' });
    expect((await providerError(nominatim.provider.reverse!({ ...NEAR_DAMRAK, radiusMeters: 200, limit: 5 }, signal()))).kind).toBe('malformed');
  });
});

describe('pdok reverse (/reverse)', () => {
  it('asks for addresses (type=adres) within the distance in metres and maps them nearest first', async () => {
    const found = await pdok.provider.reverse!({ ...NEAR_DAMRAK, radiusMeters: 300, limit: 5 }, signal());
    expect(found.map((c) => `${c.components.street} ${c.components.houseNumber}`)).toEqual(['Damrak 1', 'Damrak 70']);
    expect(found[0]).toMatchObject({ components: damrak1, location: { lat: 52.3761606, lng: 4.8958547 }, precision: 'address' });
    expect(found[0]?.raw).toMatchObject({ afstand: expect.any(Number) });
    expect(pdok.emulator.requests[0]).toMatchObject({ path: '/reverse', query: { lat: '52.37632', lon: '4.89605', type: 'adres', distance: '300', rows: '5' } });
  });

  it('covers positions in the Netherlands only, and fails on a server error', async () => {
    expect(pdok.provider.coversPosition?.(NEAR_DAMRAK)).toBe(true);
    expect(pdok.provider.coversPosition?.({ lat: 52.52, lng: 13.4 })).toBe(false);
    pdok.emulator.setFault({ mode: 'wrong-shape' });
    expect((await providerError(pdok.provider.reverse!({ ...NEAR_DAMRAK, radiusMeters: 200, limit: 5 }, signal()))).kind).toBe('malformed');
  });
});
