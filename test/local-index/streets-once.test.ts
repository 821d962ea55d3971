import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { STORAGE_BACKENDS } from '../support/backends.js';
import { openIndexSandbox, type IndexSandbox } from './support/local-sandbox.js';
import { osmBoundariesFixture } from './support/osm-boundaries-fixture.js';

/**
 * Issue 13: autocomplete offers a street once when some of its addresses carry a town and some
 * do not (`Bahnhofstrasse` next to `Bahnhofstrasse, 9494 Schaan` from the Liechtenstein extract).
 */
describe.each(STORAGE_BACKENDS)('a street offered once (%s)', (backend) => {
  let box: IndexSandbox;
  beforeEach(async () => {
    box = await openIndexSandbox(backend);
  });
  afterEach(async () => box.close());

  const labels = async (query: string) => (await box.index.autocomplete({ query, country: 'LI', limit: 10 })).map((h) => `${h.precision}: ${h.label}`);

  it('with the boundaries of the extract: the town-less addresses get their town', async () => {
    await box.index.importFile(box.file('li.osm.pbf', osmBoundariesFixture()), { format: 'osm' });
    const offered = await labels('Bahnhofstr');
    expect(offered.filter((l) => l.startsWith('street'))).toEqual(['street: Bahnhofstrasse, Schaan']);
  });

  it('without boundaries: the town-less part next to the street of Schaan is that street', async () => {
    await box.index.importFile(box.file('li.osm.pbf', osmBoundariesFixture({ boundaries: false })), { format: 'osm', country: 'LI' });
    const offered = await labels('Bahnhofstr');
    expect(offered.filter((l) => l.startsWith('street'))).toEqual(['street: Bahnhofstrasse, Schaan']);
    // Its addresses are still found.
    const [hit] = await box.index.geocode({ query: 'Bahnhofstrasse 16', country: 'LI' });
    expect(hit?.components).toMatchObject({ street: 'Bahnhofstrasse', houseNumber: '16' });
  });

  it('a town-less street of the same name far away is another street and stays', async () => {
    const csv = [
      'street,house_number,postcode,city,state,country,lat,lng',
      'Bahnhofstrasse,18,9494,Schaan,,LI,47.1702,9.5002',
      'Bahnhofstrasse,2,,,,LI,47.0500,9.4700',
    ].join('\n');
    await box.index.importFile(box.file('li.csv', csv), { format: 'csv' });
    const offered = await labels('Bahnhofstr');
    expect(offered.filter((l) => l.startsWith('street')).sort()).toEqual(['street: Bahnhofstrasse', 'street: Bahnhofstrasse, Schaan']);
  });
});
