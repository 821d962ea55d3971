import { type PbfNode, type PbfRelation, type PbfWay, writePbf } from './pbf-writer.js';

/** A rectangle's corners as nodes `id`…`id+3`, counter-clockwise from the south-west. */
export function corners(id: number, south: number, west: number, north: number, east: number): PbfNode[] {
  return [
    { id, lat: south, lon: west },
    { id: id + 1, lat: south, lon: east },
    { id: id + 2, lat: north, lon: east },
    { id: id + 3, lat: north, lon: west },
  ];
}

export const closed = (id: number, first: number): PbfWay => ({ id, refs: [first, first + 1, first + 2, first + 3, first] });
const boundary = (id: number, tags: Record<string, string>, ways: [number, string][]): PbfRelation => ({
  id,
  tags: { type: 'boundary', ...tags },
  members: ways.map(([way, role]) => ({ type: 'way', id: way, role })),
});

/**
 * A small extract in the shape of the Liechtenstein one: a country boundary drawn by two open
 * ways (one reversed), municipality boundaries (Triesenberg with a hole, which is an enclave of
 * Vaduz), a postal-code area over Schaan, a neighbour cut off by the extract's edge, and
 * addresses of which most carry neither `addr:city` nor `addr:postcode`.
 */
export function osmBoundariesFixture(opts: { boundaries?: boolean; relationsWithWays?: boolean } = {}): Buffer {
  const nodes: PbfNode[] = [
    ...corners(1000, 47.0, 9.4, 47.3, 9.7), // country
    ...corners(1010, 47.1, 9.53, 47.13, 9.57), // Triesenberg
    ...corners(1020, 47.115, 9.55, 47.12, 9.56), // its hole: Vaduz's enclave
    ...corners(1030, 47.16, 9.49, 47.18, 9.52), // Schaan, also the postal area 9494
    { id: 1040, lat: 47.2, lon: 9.6 }, // a neighbour whose other nodes lie outside the extract
    { id: 1041, lat: 47.25, lon: 9.6 },
    // Addresses
    { id: 1, lat: 47.1168, lon: 9.5442, tags: { 'addr:housenumber': '6', 'addr:street': 'Rossbodastrasse' } },
    { id: 2, lat: 47.117, lon: 9.555, tags: { 'addr:housenumber': '3', 'addr:street': 'Hintergass' } },
    { id: 3, lat: 47.17, lon: 9.5, tags: { 'addr:housenumber': '16', 'addr:street': 'Bahnhofstrasse' } },
    { id: 4, lat: 47.1702, lon: 9.5002, tags: { 'addr:housenumber': '18', 'addr:street': 'Bahnhofstrasse', 'addr:city': 'Schaan', 'addr:postcode': '9495' } },
    { id: 5, lat: 47.1118, lon: 9.5504, tags: { 'addr:housenumber': '5', 'addr:street': 'Burkatstrasse', 'addr:city': 'Rotenboden' } },
    { id: 6, lat: 47.5, lon: 9.9, tags: { 'addr:housenumber': '1', 'addr:street': 'Aussenweg' } },
    { id: 7, lat: 47.1186, lon: 9.5445 },
    { id: 8, lat: 47.1187, lon: 9.5445 },
    { id: 9, lat: 47.1187, lon: 9.5447 },
  ];
  const ways: PbfWay[] = [
    { id: 2001, refs: [1000, 1001, 1002] }, // country, south and east sides
    { id: 2002, refs: [1000, 1003, 1002] }, // country, west and north sides, drawn the other way round
    closed(2010, 1010),
    closed(2020, 1020),
    closed(2030, 1030),
    { id: 2040, refs: [1040, 1041, 990, 991] },
    { id: 2050, refs: [7, 8, 9, 7], tags: { building: 'house', 'addr:housenumber': '1', 'addr:street': 'Sennwisstrasse' } },
  ];
  const relations: PbfRelation[] = [
    boundary(3001, { boundary: 'administrative', admin_level: '2', 'ISO3166-1': 'LI', name: 'Liechtenstein' }, [[2001, 'outer'], [2002, 'outer']]),
    boundary(3010, { boundary: 'administrative', admin_level: '8', name: 'Triesenberg' }, [[2010, 'outer'], [2020, 'inner']]),
    boundary(3020, { boundary: 'administrative', admin_level: '8', name: 'Vaduz' }, [[2020, 'outer']]),
    boundary(3030, { boundary: 'administrative', admin_level: '8', name: 'Schaan' }, [[2030, 'outer']]),
    boundary(3031, { boundary: 'postal_code', postal_code: '9494' }, [[2030, 'outer']]),
    boundary(3040, { boundary: 'administrative', admin_level: '8', name: 'Cutoff' }, [[2040, 'outer']]),
  ];
  return writePbf(nodes, ways, opts.boundaries === false ? [] : relations, { relationsWithWays: opts.relationsWithWays ?? false });
}
