import type { ReaderItem } from '../types.js';
import { csvAddresses } from './csv-source.js';

/** Accepted header names (compared without case, spaces, `_` and `-`) → AddressComponents field, plus lat/lng. */
const ALIASES: Record<string, string> = {
  street: 'street',
  housenumber: 'houseNumber',
  number: 'houseNumber',
  unit: 'unit',
  postcode: 'postcode',
  postalcode: 'postcode',
  zip: 'postcode',
  city: 'city',
  state: 'state',
  country: 'country',
  lat: 'lat',
  latitude: 'lat',
  lng: 'lng',
  lon: 'lng',
  longitude: 'lng',
};
const REQUIRED = ['street', 'houseNumber', 'lat', 'lng'];

/** Plain CSV with named columns matching AddressComponents (street, houseNumber, unit, postcode, city, state, country) plus lat, lng. */
export async function* readPlainCsv(path: string, country: string | undefined, onBytes?: (n: number) => void): AsyncGenerator<ReaderItem[]> {
  const options = {
    formatName: 'an address CSV (columns street, houseNumber, unit, postcode, city, state, country, lat, lng)',
    mapHeader: (name: string) => ALIASES[name.trim().toLowerCase().replace(/[\s_-]/g, '')] ?? `?${name.trim()}`,
    requiredColumns: REQUIRED,
    onBytes,
  };
  yield* csvAddresses(path, options, (r) => ({
    lat: r.lat,
    lng: r.lng,
    street: r.street,
    houseNumber: r.houseNumber,
    unit: r.unit,
    postcode: r.postcode,
    city: r.city,
    state: r.state,
    country: r.country || country,
  }));
}
