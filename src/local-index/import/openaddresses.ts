import type { ReaderItem } from '../types.js';
import { csvRecords } from './csv-source.js';
import { buildAddress } from './record.js';

const REQUIRED = ['LON', 'LAT', 'NUMBER', 'STREET'];

/**
 * OpenAddresses CSV: LON, LAT, NUMBER, STREET, UNIT, CITY, DISTRICT, REGION, POSTCODE, ID, HASH
 * in any order, names in any case and padded with spaces; extra columns are ignored. The
 * files carry no country: the caller passes one. DISTRICT stands in for an empty CITY.
 */
export async function* readOpenAddresses(path: string, country: string, onBytes?: (n: number) => void): AsyncGenerator<ReaderItem[]> {
  const records = csvRecords(path, {
    formatName: 'an OpenAddresses CSV',
    mapHeader: (name) => name.trim().toUpperCase(),
    requiredColumns: REQUIRED,
    onBytes,
  });
  for await (const batch of records) {
    yield batch.map((item) => {
      if ('error' in item) return { kind: 'bad', row: item.line, reason: 'malformed_row', detail: item.error } as const;
      const r = item.record;
      return buildAddress(item.line, {
        lng: r.LON,
        lat: r.LAT,
        houseNumber: r.NUMBER,
        street: r.STREET,
        unit: r.UNIT,
        city: r.CITY || r.DISTRICT,
        state: r.REGION,
        postcode: r.POSTCODE,
        country,
      });
    });
  }
}
