import { addr, square, tagText, writeExtracts, type ChangeFixture, type Node, type Tags, type Way } from './osm-change-fixture.js';

/**
 * Issue 30 item 4: the addresses OpenStreetMap holds besides address nodes and ways, in two
 * small extracts of a Czech village (before and after a day of edits) and the change file
 * between them: an address multipolygon (a building with a courtyard), an interpolation way,
 * an `addr:place` address, conscription/street numbers, entrances.
 */
interface Relation {
  id: number;
  tags: Tags;
  members: { way: number; role: string }[];
}

function elements(nodes: Node[], ways: Way[], relations: Relation[]): Map<string, string> {
  return new Map([
    ...nodes.sort((a, b) => a.id - b.id).map((n): [string, string] => [`n${n.id}`, `x${n.lon} y${n.lat} T${tagText(n.tags)}`]),
    ...ways.sort((a, b) => a.id - b.id).map((w): [string, string] => [`w${w.id}`, `T${tagText(w.tags)} N${w.refs.map((r) => `n${r}`).join(',')}`]),
    ...relations.sort((a, b) => a.id - b.id).map((r): [string, string] => [`r${r.id}`, `T${tagText(r.tags)} M${r.members.map((m) => `w${m.way}@${m.role}`).join(',')}`]),
  ]);
}

/** A country (CZ) and two municipalities side by side: Lhota west of 16.2, Ves east of it. */
function boundaries(): { nodes: Node[]; ways: Way[]; relations: Relation[] } {
  const country = square(900, 900, 49.0, 16.0, 49.2, 16.4);
  const lhota = square(910, 910, 49.0, 16.0, 49.2, 16.2);
  const ves = square(920, 920, 49.0, 16.2, 49.2, 16.4);
  const outer = (way: number) => [{ way, role: 'outer' }];
  return {
    nodes: [...country.nodes, ...lhota.nodes, ...ves.nodes],
    ways: [country.way, lhota.way, ves.way],
    relations: [
      { id: 900, members: outer(900), tags: { type: 'boundary', boundary: 'administrative', admin_level: '2', 'ISO3166-1:alpha2': 'CZ', name: 'Česko' } },
      { id: 910, members: outer(910), tags: { type: 'boundary', boundary: 'administrative', admin_level: '8', name: 'Lhota' } },
      { id: 920, members: outer(920), tags: { type: 'boundary', boundary: 'administrative', admin_level: '8', name: 'Ves' } },
    ],
  };
}

const czech = (street: string, cn: string, sn: string): Tags => ({
  'addr:street': street,
  'addr:housenumber': `${cn}/${sn}`,
  'addr:conscriptionnumber': cn,
  'addr:streetnumber': sn,
});

function extract(day: 'before' | 'after'): Map<string, string> {
  const b = boundaries();
  const after = day === 'after';
  // A building with a courtyard: the address on the relation, its outer way and inner way untagged.
  // After: renumbered, and one outer corner moved.
  const outer = square(500, 500, 49.15, 16.1, 49.152, 16.102);
  if (after) outer.nodes[2]!.lat = 49.154;
  const inner = square(510, 501, 49.1505, 16.1005, 49.1515, 16.1015);
  const courtyard: Relation = {
    id: 500,
    tags: { type: 'multipolygon', building: 'yes', ...addr('Dvorní', after ? '7' : '5') },
    members: [
      { way: 500, role: 'outer' },
      { way: 501, role: 'inner' },
    ],
  };
  // New after: a second courtyard building, its outer way new too.
  const second = square(520, 502, 49.16, 16.1, 49.161, 16.101);
  const secondArea: Relation = { id: 501, tags: { type: 'multipolygon', building: 'yes', ...addr('Dvorní', '9') }, members: [{ way: 502, role: 'outer' }] };
  // Even numbers between Polní 2 and Polní 10 (14 after: the end node renumbered, the way unchanged).
  const interpolation: Way = { id: 600, refs: [600, 602, 601], tags: { 'addr:interpolation': 'even' } };
  // A block of flats with two staircases that carry their flats, not the address (renumbered after, the entrances untouched).
  const block = square(300, 300, 49.15, 16.3, 49.151, 16.301, { building: 'apartments', ...addr('Hlavní', after ? '32' : '30') });
  block.way.refs = [300, 310, 301, 311, 302, 303, 300];
  const staircases: Node[] = [
    { id: 310, lat: 49.15, lon: 16.3005, tags: { entrance: 'staircase', 'addr:flats': '1-4' } },
    // Its flats changed after.
    { id: 311, lat: 49.1505, lon: 16.301, tags: { entrance: 'staircase', 'addr:flats': after ? '5-9' : '5-8' } },
  ];
  // Every number between Luční 1 and 5, its own street on the way; only the odd ones after (the way retagged).
  const meadow: Way = { id: 610, refs: [610, 611], tags: { 'addr:interpolation': after ? 'odd' : 'all', 'addr:street': 'Luční' } };
  return elements(
    [
      ...b.nodes,
      ...outer.nodes,
      ...inner.nodes,
      ...(after ? second.nodes : []),
      ...block.nodes,
      ...staircases,
      { id: 600, lat: 49.1, lon: 16.05, tags: addr('Polní', '2') },
      { id: 601, lat: 49.1, lon: 16.07, tags: addr('Polní', after ? '14' : '10') },
      { id: 602, lat: 49.1, lon: 16.06 },
      { id: 610, lat: 49.11, lon: 16.05, tags: { 'addr:housenumber': '1' } },
      { id: 611, lat: 49.11, lon: 16.09, tags: { 'addr:housenumber': '5' } },
      // A hamlet without street names.
      { id: 700, lat: 49.12, lon: 16.05, tags: { 'addr:place': 'Zahrádky', 'addr:housenumber': after ? '8' : '7' } },
      // A conscription and a street number (the street number changed after).
      { id: 800, lat: 49.13, lon: 16.05, tags: czech('Hlavní', '123', after ? '6' : '4') },
      // A conscription number only, in a hamlet: deleted after.
      ...(after ? [] : [{ id: 801, lat: 49.121, lon: 16.05, tags: { 'addr:place': 'Zahrádky', 'addr:conscriptionnumber': '45' } }]),
      // An entrance with its own address, moved east after.
      { id: 950, lat: 49.14, lon: after ? 16.3 : 16.25, tags: { entrance: 'main', ...addr('Hlavní', '20') } },
    ],
    [...b.ways, outer.way, inner.way, ...(after ? [second.way] : []), interpolation, meadow, block.way],
    [...b.relations, courtyard, ...(after ? [secondArea] : [])],
  );
}

/** Writes both extracts and the change file into `dir`. */
export function writeCompletenessFixture(dir: string): ChangeFixture {
  return writeExtracts(dir, extract('before'), extract('after'), 'complete');
}
