import { describe, expect, it } from 'vitest';
import { createNominatimProvider } from '../../src/providers/nominatim/adapter.js';
import { mapNominatimPlace } from '../../src/providers/nominatim/map.js';
import { NominatimPlace } from '../../src/providers/nominatim/wire.js';
import { createPdokProvider } from '../../src/providers/pdok/adapter.js';
import { mapPdokDoc } from '../../src/providers/pdok/map.js';
import { PdokDoc } from '../../src/providers/pdok/wire.js';
import { createPhotonProvider } from '../../src/providers/photon/adapter.js';
import { mapPhotonFeature } from '../../src/providers/photon/map.js';
import { PhotonFeature } from '../../src/providers/photon/wire.js';
import { PLACE_LEVELS_DATASET, startNominatimEmulator, startPdokEmulator, startPhotonEmulator } from '../emulators/index.js';
import { adapterAgainstEmulator, signal } from './harness.js';

/** A Nominatim 5.3 jsonv2 place with address details, shaped like the server's own answers. */
function nominatimPlace(displayName: string, address: Record<string, string>, extra: Record<string, unknown> = {}) {
  return NominatimPlace.parse({
    place_id: 1,
    lat: '47.1',
    lon: '9.5',
    category: 'building',
    type: 'house',
    place_rank: 30,
    addresstype: 'building',
    name: '',
    display_name: displayName,
    address,
    ...extra,
  });
}

describe('Nominatim place levels', () => {
  it('finds the municipality that only display_name names, and makes it the city', () => {
    const c = mapNominatimPlace(
      nominatimPlace('6, Rossbodastrasse, Rotenboden, Triesenberg, Wahlkreis Oberland, 9497, Liechtenstein', {
        house_number: '6',
        road: 'Rossbodastrasse',
        village: 'Rotenboden',
        county: 'Wahlkreis Oberland',
        postcode: '9497',
        country: 'Liechtenstein',
        country_code: 'li',
      }),
    );
    expect(c.components).toEqual({ street: 'Rossbodastrasse', houseNumber: '6', postcode: '9497', city: 'Triesenberg', country: 'LI' });
    expect(c.placeNames).toEqual(['Rotenboden', 'Triesenberg', 'Wahlkreis Oberland']);
  });

  it('keeps the village as the city when nothing stands above it, and skips a POI name before the street', () => {
    const c = mapNominatimPlace(
      nominatimPlace(
        'Möbel Thöny, 16, Bahnhofstrasse, Schaan, Wahlkreis Oberland, 9494, Liechtenstein',
        { shop: 'Möbel Thöny', house_number: '16', road: 'Bahnhofstrasse', village: 'Schaan', county: 'Wahlkreis Oberland', postcode: '9494', country: 'Liechtenstein', country_code: 'li' },
        { name: 'Möbel Thöny', category: 'shop', type: 'furniture' },
      ),
    );
    expect(c.components.city).toBe('Schaan');
    expect(c.placeNames).toEqual(['Schaan', 'Wahlkreis Oberland']);
  });

  it('prefers the village to a hamlet inside it', () => {
    const c = mapNominatimPlace(
      nominatimPlace('Städtle, Ebenholz, Vaduz, Wahlkreis Oberland, 9490, Liechtenstein', {
        road: 'Städtle',
        hamlet: 'Ebenholz',
        village: 'Vaduz',
        county: 'Wahlkreis Oberland',
        postcode: '9490',
        country: 'Liechtenstein',
        country_code: 'li',
      }, { place_rank: 26, category: 'highway', type: 'residential', addresstype: 'road', name: 'Städtle' }),
    );
    expect(c.components.city).toBe('Vaduz');
    expect(c.placeNames).toEqual(['Ebenholz', 'Vaduz', 'Wahlkreis Oberland']);
  });

  it('keeps a named city, lists a larger place it lost, and stops before region, postcode and country', () => {
    const london = mapNominatimPlace(
      nominatimPlace('10, Downing Street, Westminster, London, Greater London, England, SW1A 2AA, United Kingdom', {
        house_number: '10',
        road: 'Downing Street',
        quarter: 'Westminster',
        city: 'Westminster',
        state_district: 'Greater London',
        state: 'England',
        postcode: 'SW1A 2AA',
        country: 'United Kingdom',
        country_code: 'gb',
      }),
    );
    expect(london.components.city).toBe('Westminster');
    expect(london.placeNames).toEqual(['Westminster', 'London']);

    const amsterdam = mapNominatimPlace(
      nominatimPlace('1, Damrak, Burgwallen-Oude Zijde, Centrum, Amsterdam, Noord-Holland, Nederland, 1012 LG, Nederland', {
        house_number: '1',
        road: 'Damrak',
        neighbourhood: 'Burgwallen-Oude Zijde',
        city_district: 'Centrum',
        city: 'Amsterdam',
        state: 'Noord-Holland',
        'ISO3166-2-lvl4': 'NL-NH',
        postcode: '1012 LG',
        country: 'Nederland',
        country_code: 'nl',
      }),
    );
    // The neighbourhood is not a town anyone writes; the region and the country are not places of the address.
    expect(amsterdam.placeNames).toEqual(['Centrum', 'Amsterdam']);
  });

  it('names no places for a result without any', () => {
    const c = mapNominatimPlace(nominatimPlace('Italia', { waterway: 'Italia' }, { place_rank: 22 }));
    expect(c.placeNames).toBeUndefined();
    expect(c.components.city).toBeUndefined();
  });
});

describe('Photon and PDOK place levels', () => {
  it('Photon: locality, district, city and county, lowest first, each once', () => {
    const c = mapPhotonFeature(
      PhotonFeature.parse({
        type: 'Feature',
        geometry: { type: 'Point', coordinates: [10.08, 52.0] },
        properties: { osm_type: 'N', osm_id: 1, osm_key: 'place', osm_value: 'house', type: 'house', housenumber: '3', street: 'Evensener Dorfstraße', postcode: '31195', district: 'Sehlem', city: 'Lamspringe', county: 'Landkreis Hildesheim', state: 'Niedersachsen', country: 'Deutschland', countrycode: 'DE' },
      }),
    );
    expect(c.components.city).toBe('Lamspringe');
    expect(c.placeNames).toEqual(['Sehlem', 'Lamspringe', 'Landkreis Hildesheim']);

    const paris = mapPhotonFeature(
      PhotonFeature.parse({
        type: 'Feature',
        geometry: { type: 'Point', coordinates: [2.39, 48.87] },
        properties: { type: 'house', housenumber: '10', street: 'Avenue Gambetta', postcode: '75020', locality: 'Quartier Saint-Fargeau', district: 'Paris', city: 'Paris', countrycode: 'FR' },
      }),
    );
    expect(paris.placeNames).toEqual(['Quartier Saint-Fargeau', 'Paris']);
  });

  it('PDOK: the woonplaats, then the gemeente when it differs', () => {
    const doc = (woonplaatsnaam: string, gemeentenaam: string) =>
      PdokDoc.parse({ id: 'adr-1', type: 'adres', straatnaam: 'Zeedijk', huisnummer: 5, postcode: '4361SJ', woonplaatsnaam, gemeentenaam, centroide_ll: 'POINT(3.44 51.53)', score: 9 });
    const westkapelle = mapPdokDoc(doc('Westkapelle', 'Veere'), 9);
    expect(westkapelle.components.city).toBe('Westkapelle');
    expect(westkapelle.placeNames).toEqual(['Westkapelle', 'Veere']);
    expect(mapPdokDoc(doc('Leiden', 'Leiden'), 9).placeNames).toEqual(['Leiden']);
  });
});

describe('adapters against emulators answering with several place levels', () => {
  const nominatim = adapterAgainstEmulator(() => startNominatimEmulator({ dataset: PLACE_LEVELS_DATASET }), createNominatimProvider);
  const photon = adapterAgainstEmulator(() => startPhotonEmulator({ dataset: PLACE_LEVELS_DATASET }), createPhotonProvider);
  const pdok = adapterAgainstEmulator(() => startPdokEmulator({ dataset: PLACE_LEVELS_DATASET }), createPdokProvider);

  it('Nominatim: the address names only the village, display_name the municipality, and the candidate both', async () => {
    const [best] = await nominatim.provider.geocode({ query: 'Rossbodastrasse 6, Triesenberg', components: {}, country: 'LI' }, signal());
    expect(best?.raw).toMatchObject({
      display_name: '6, Rossbodastrasse, Rotenboden, Triesenberg, Wahlkreis Oberland, 9497, Liechtenstein',
      address: { village: 'Rotenboden', county: 'Wahlkreis Oberland', postcode: '9497' },
    });
    expect((best?.raw as { address: Record<string, string> }).address).not.toHaveProperty('city');
    expect(best).toMatchObject({
      precision: 'address',
      components: { street: 'Rossbodastrasse', houseNumber: '6', postcode: '9497', city: 'Triesenberg', country: 'LI' },
      placeNames: ['Rotenboden', 'Triesenberg', 'Wahlkreis Oberland'],
    });
  });

  it('Photon: the municipality as city, the village as district', async () => {
    const [best] = await photon.provider.geocode({ query: 'Essanestrasse 91 Nendeln', components: {}, country: 'LI' }, signal());
    expect(best?.raw).toMatchObject({ properties: { city: 'Eschen', district: 'Nendeln', county: 'Wahlkreis Unterland' } });
    expect(best).toMatchObject({ components: { street: 'Essanestrasse', houseNumber: '91', city: 'Eschen' }, placeNames: ['Nendeln', 'Eschen', 'Wahlkreis Unterland'] });
  });

  it('PDOK: asks for gemeentenaam and names the woonplaats and its gemeente', async () => {
    const [best] = await pdok.provider.geocode({ query: 'Zeedijk 5, 4361 SJ Westkapelle', components: {} }, signal());
    expect(pdok.emulator.requests[0]?.query.fl?.split(',')).toContain('gemeentenaam');
    expect(best).toMatchObject({ components: { street: 'Zeedijk', houseNumber: '5', postcode: '4361 SJ', city: 'Westkapelle' }, placeNames: ['Westkapelle', 'Veere'] });
  });
});
