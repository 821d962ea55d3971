import type { ReaderItem } from '../types.js';
import { csvAddresses } from './csv-source.js';

const REQUIRED = ['LON', 'LAT', 'NUMBER', 'STREET'];

/**
 * OpenAddresses CSV: LON, LAT, NUMBER, STREET, UNIT, CITY, DISTRICT, REGION, POSTCODE, ID, HASH
 * in any order, names in any case and padded with spaces; extra columns are ignored. The
 * files carry no country: the caller passes one. DISTRICT stands in for an empty CITY.
 */
export async function* readOpenAddresses(path: string, country: string, onBytes?: (n: number) => void): AsyncGenerator<ReaderItem[]> {
  yield* csvAddresses(
    path,
    { formatName: 'an OpenAddresses CSV', mapHeader: (name) => name.trim().toUpperCase(), requiredColumns: REQUIRED, onBytes },
    (r) => ({
      lng: r.LON,
      lat: r.LAT,
      houseNumber: r.NUMBER,
      street: r.STREET,
      unit: r.UNIT,
      city: r.CITY || r.DISTRICT,
      state: r.REGION,
      postcode: r.POSTCODE,
      country,
    }),
  );
}
