import { describe, expect, it } from 'vitest';
import { listedNumbers } from '../../src/local-index/import/osm-rows.js';
import { STORAGE_BACKENDS } from '../support/backends.js';
import { addressRows, comparable } from './support/index-rows.js';
import { tagText, type Tags, writeExtracts } from './support/osm-change-fixture.js';
import { changeFiles, updateSandboxes } from './support/update-sandboxes.js';

/**
 * Issue 34 (every address of a real extract found): OSM writes one building with several
 * numbers as `addr:housenumber=76, 76a, 76b`; each number is an address, as Nominatim splits them,
 * and an update that shortens the list removes the numbers it dropped.
 */
const node = (lat: number, lon: number, tags?: Tags) => `x${lon} y${lat} T${tagText(tags)}`;
const house = (hn: string): Tags => ({ 'addr:street': 'Täscherlochstrasse', 'addr:housenumber': hn, 'addr:city': 'Triesenberg', 'addr:postcode': '9497', 'addr:country': 'LI' });

const fixture = changeFiles((dir) =>
  writeExtracts(
    dir,
    new Map([
      ['n1', node(47.11, 9.55, house('76, 76a, 76b'))],
      ['n2', node(47.12, 9.56, house('12;14'))],
    ]),
    new Map([
      ['n1', node(47.11, 9.55, house('76'))],
      ['n2', node(47.12, 9.56, house('12;14'))],
    ]),
    'listed',
  ),
);

describe('listedNumbers', () => {
  it('splits a list of plain numbers, and leaves every other value whole', () => {
    expect(listedNumbers('76, 76a, 76b')).toEqual(['76', '76a', '76b']);
    expect(listedNumbers('1;3')).toEqual(['1', '3']);
    expect(listedNumbers('76')).toBeUndefined();
    expect(listedNumbers('340/3')).toBeUndefined();
    expect(listedNumbers('12, Hinterhaus')).toBeUndefined();
    expect(listedNumbers(Array.from({ length: 9 }, (_, i) => String(i + 1)).join(';'))).toBeUndefined();
  });
});

describe.each(STORAGE_BACKENDS)('an addr:housenumber listing several numbers (%s)', (backend) => {
  const s = updateSandboxes(backend);
  const found = async (query: string) => {
    const [best] = await s.box.index.geocode({ query, country: 'LI' });
    return best?.precision === 'address' ? best.components.houseNumber : undefined;
  };

  it('is one address per number, and an update that drops numbers removes them', async () => {
    await s.box.index.importFile(fixture.files.before, { format: 'osm', recordOsmState: true });
    expect(await found('Täscherlochstrasse 76, Triesenberg')).toBe('76');
    expect(await found('Täscherlochstrasse 76a, Triesenberg')).toBe('76a');
    expect(await found('Täscherlochstrasse 76b, Triesenberg')).toBe('76b');
    expect(await found('Täscherlochstrasse 14, Triesenberg')).toBe('14');
    await s.box.index.applyOsmChange(fixture.files.change, {});
    await s.fresh.index.importFile(fixture.files.after, { format: 'osm' });
    expect(comparable(await addressRows(s.box.sandbox))).toEqual(comparable(await addressRows(s.fresh.sandbox)));
    expect(await found('Täscherlochstrasse 76b, Triesenberg')).not.toBe('76b');
    expect(await found('Täscherlochstrasse 12, Triesenberg')).toBe('12');
  });
});
