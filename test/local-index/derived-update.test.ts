import { describe, expect, it } from 'vitest';
import { STORAGE_BACKENDS } from '../support/backends.js';
import { addressRows, comparable } from './support/index-rows.js';
import { tagText, type Tags, writeExtracts } from './support/osm-change-fixture.js';
import { changeFiles, updateSandboxes } from './support/update-sandboxes.js';

const addr = (street: string, hn: string, more: Tags = {}): Tags => ({ 'addr:street': street, 'addr:housenumber': hn, ...more });
const node = (lat: number, lon: number, tags?: Tags) => `x${lon} y${lat} T${tagText(tags)}`;

/** A country and the municipality Adorf in its west half; the village Cdorf in the east half has no boundary, only its place node. */
function common(): [string, string][] {
  const corners = (id: number, s: number, w: number, n: number, e: number): [string, string][] => [
    [`n${id}`, node(s, w)],
    [`n${id + 1}`, node(s, e)],
    [`n${id + 2}`, node(n, e)],
    [`n${id + 3}`, node(n, w)],
  ];
  const ring = (id: number) => `T N${[id, id + 1, id + 2, id + 3, id].map((n) => `n${n}`).join(',')}`;
  return [
    ...corners(900, 50.0, 8.0, 50.2, 8.4),
    ...corners(910, 50.0, 8.0, 50.2, 8.2),
    ['n950', node(50.1, 8.3, { place: 'village', name: 'Cdorf' })],
    ['w900', ring(900)],
    ['w910', ring(910)],
    ['r900', `T${tagText({ type: 'boundary', boundary: 'administrative', admin_level: '2', 'ISO3166-1:alpha2': 'DE', name: 'Deutschland' })} Mw900@outer`],
    ['r910', `T${tagText({ type: 'boundary', boundary: 'administrative', admin_level: '8', name: 'Adorf' })} Mw910@outer`],
  ];
}

const order = (k: string) => 'nwr'.indexOf(k[0]!);
const byOsmOrder = (entries: [string, string][]) => new Map(entries.sort(([a], [b]) => order(a) - order(b) || Number(a.slice(1)) - Number(b.slice(1))));

function before(): Map<string, string> {
  return byOsmOrder([
    ...common(),
    ['n1', node(50.1, 8.05, addr('Hauptstraße', '1', { 'addr:postcode': '11111' }))],
    ['n2', node(50.1, 8.06, addr('Hauptstraße', '3'))],
  ]);
}

function after(): Map<string, string> {
  return byOsmOrder([
    ...common(),
    ['n1', node(50.1, 8.05, addr('Hauptstraße', '1', { 'addr:postcode': '11111' }))],
    // Now states its own postcode.
    ['n2', node(50.1, 8.06, addr('Hauptstraße', '3', { 'addr:postcode': '22222' }))],
    // New, untagged: town from the area, postcode from the nearest house of its street.
    ['n3', node(50.1, 8.052, addr('Hauptstraße', '5'))],
    // New, outside every municipality: the village's place node names its town.
    ['n4', node(50.101, 8.301, addr('Dorfweg', '1'))],
  ]);
}

const fixture = changeFiles((dir) => writeExtracts(dir, before(), after(), 'derived'));

/** Issue 34 item 3: `--update` keeps derived towns and postcodes current for the houses it touches. */
describe.each(STORAGE_BACKENDS)('derived values through import --update (%s)', (backend) => {
  const s = updateSandboxes(backend);
  const house = async (query: string) => {
    const [best] = await s.box.index.geocode({ query, country: 'DE' });
    return best?.precision === 'address' ? best : undefined;
  };

  it('derives as a fresh import of the new extract does, and says what it derived', async () => {
    await s.box.index.importFile(fixture.files.before, { format: 'osm', recordOsmState: true });
    expect(await house('Hauptstraße 3, Adorf')).toMatchObject({ components: { city: 'Adorf', postcode: '11111' }, inferred: ['city', 'postcode'] });
    const summary = await s.box.index.applyOsmChange(fixture.files.change, {});
    expect(summary).toMatchObject({ imported: 2, updated: 1, derived: { city: 3, postcode: 1 } });
    await s.fresh.index.importFile(fixture.files.after, { format: 'osm' });
    expect(comparable(await addressRows(s.box.sandbox))).toEqual(comparable(await addressRows(s.fresh.sandbox)));
    expect(await house('Hauptstraße 3, Adorf')).toMatchObject({ components: { postcode: '22222' }, inferred: ['city'] });
    expect(await house('Hauptstraße 5, Adorf')).toMatchObject({ components: { city: 'Adorf', postcode: '11111' }, inferred: ['city', 'postcode'] });
    expect(await house('Dorfweg 1')).toMatchObject({ components: { city: 'Cdorf' }, inferred: ['city'] });
  });
});
