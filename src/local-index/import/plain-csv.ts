import type { ReaderItem } from '../types.js';
import { csvRecords } from './csv-source.js';
import { buildAddress } from './record.js';

/** Accepted header names (compared without case, spaces, `_` and `-`) → AddressComponents field, plus lat/lng. */
const ALIASES: Record<string, string> = {
  street: 'street',
  housenumber: 'houseNumber',
  number: 'houseNumber',
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

/** Plain CSV with named columns matching AddressComponents (street, houseNumber, postcode, city, state, country) plus lat, lng. */
export async function* readPlainCsv(path: string, country: string | undefined, onBytes?: (n: number) => void): AsyncGenerator<ReaderItem[]> {
  const records = csvRecords(path, {
    formatName: 'an address CSV (columns street, houseNumber, postcode, city, state, country, lat, lng)',
    mapHeader: (name) => {
      const folded = name.trim().toLowerCase().replace(/[\s_-]/g, '');
      return ALIASES[folded] ?? `?${name.trim()}`;
    },
    requiredColumns: REQUIRED,
    onBytes,
  });
  for await (const batch of records) {
    yield batch.map((item) => {
      if ('error' in item) return { kind: 'bad', row: item.line, reason: 'malformed_row', detail: item.error } as const;
      const r = item.record;
      return buildAddress(item.line, {
        lat: r.lat,
        lng: r.lng,
        street: r.street,
        houseNumber: r.houseNumber,
        postcode: r.postcode,
        city: r.city,
        state: r.state,
        country: r.country || country,
      });
    });
  }
}
