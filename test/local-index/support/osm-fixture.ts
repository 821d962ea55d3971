import { writePbf } from './pbf-writer.js';

/**
 * A tiny OSM extract in the shape of real data: address nodes, a building way whose address
 * sits at the centre of its nodes, an `addr:place` address, and two rows the importer must
 * report (no street; a way whose nodes are outside the extract).
 */
export function osmFixture(): Buffer {
  return writePbf(
    [
      { id: 101, lat: 47.1390, lon: 9.5215, tags: { 'addr:housenumber': '12', 'addr:street': 'Städtle', 'addr:postcode': '9490', 'addr:city': 'Vaduz', 'addr:country': 'LI' } },
      { id: 102, lat: 47.1395, lon: 9.5220, tags: { 'addr:housenumber': '14', 'addr:street': 'Städtle', 'addr:postcode': '9490', 'addr:city': 'Vaduz' } },
      { id: 103, lat: 47.0600, lon: 9.6120, tags: { 'addr:housenumber': '3', 'addr:place': 'Malbun', 'addr:postcode': '9497', 'addr:city': 'Triesenberg' } },
      { id: 104, lat: 47.1500, lon: 9.5000, tags: { 'addr:housenumber': '7', amenity: 'bench' } },
      { id: 105, lat: 47.2400, lon: 9.6000, tags: { 'addr:housenumber': '2', 'addr:street': 'Bahnhofstrasse', 'addr:city': 'Feldkirch', 'addr:country': 'AT' } },
      { id: 201, lat: 47.1660, lon: 9.5100 },
      { id: 202, lat: 47.1670, lon: 9.5100 },
      { id: 203, lat: 47.1670, lon: 9.5120 },
      { id: 204, lat: 47.1660, lon: 9.5120 },
    ],
    [
      { id: 301, refs: [201, 202, 203, 204, 201], tags: { building: 'house', 'addr:housenumber': '5', 'addr:street': 'Landstrasse', 'addr:postcode': '9494', 'addr:city': 'Schaan' } },
      { id: 302, refs: [901, 902], tags: { building: 'yes', 'addr:housenumber': '9', 'addr:street': 'Landstrasse', 'addr:city': 'Schaan' } },
      { id: 303, refs: [201, 202], tags: { highway: 'residential', name: 'Landstrasse' } },
    ],
  );
}
