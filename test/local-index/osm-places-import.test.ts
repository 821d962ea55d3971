import Database from 'better-sqlite3';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openLocalIndex } from '../../src/local-index/index.js';
import { SQLITE_INDEX_FILE } from '../../src/local-index/store/sqlite-store.js';
import { createLocalProvider } from '../../src/providers/local/adapter.js';
import { STORAGE_BACKENDS } from '../support/backends.js';
import { openIndexSandbox, type IndexSandbox } from './support/local-sandbox.js';
import { osmBoundariesFixture } from './support/osm-boundaries-fixture.js';

/** Issue 15 item 7: OSM addresses without addr:city or addr:postcode take them from the file's boundaries. */
describe.each(STORAGE_BACKENDS)('OSM import with boundaries (%s)', (backend) => {
  let box: IndexSandbox;
  beforeEach(async () => {
    box = await openIndexSandbox(backend);
  });
  afterEach(async () => box.close());

  const importFixture = (readInWorker = false) => box.index.importFile(box.file('li.osm.pbf', osmBoundariesFixture()), { format: 'osm', readInWorker });
  const house = async (query: string) => {
    const [best] = await box.index.geocode({ query, country: 'LI' });
    return best?.precision === 'address' ? best : undefined;
  };

  it('gives every address its municipality and country, and its postcode where a postal-code area covers it', async () => {
    const summary = await importFixture();
    // Aussenweg lies outside every boundary and the import names no country: it cannot be placed.
    expect(summary).toMatchObject({ imported: 6, countries: ['LI'], skipped: { missing_country: 1 } });
    expect((await house('Rossbodastrasse 6, Triesenberg'))?.components).toEqual({ street: 'Rossbodastrasse', houseNumber: '6', city: 'Triesenberg', country: 'LI' });
    // The hole in Triesenberg is Vaduz's enclave.
    expect((await house('Hintergass 3, Vaduz'))?.components).toMatchObject({ city: 'Vaduz' });
    // A way address, placed at its centre.
    expect((await house('Sennwisstrasse 1, Triesenberg'))?.components).toMatchObject({ city: 'Triesenberg' });
    expect((await house('Bahnhofstrasse 16, Schaan'))?.components).toMatchObject({ city: 'Schaan', postcode: '9494' });
  });

  it('lets the tags win, and keeps the municipality of a tagged village searchable and named', async () => {
    await importFixture();
    expect((await house('Bahnhofstrasse 18, Schaan'))?.components).toMatchObject({ city: 'Schaan', postcode: '9495' });
    for (const query of ['Burkatstrasse 5, Rotenboden', 'Burkatstrasse 5, Triesenberg']) {
      const hit = await house(query);
      expect(hit?.components).toMatchObject({ street: 'Burkatstrasse', houseNumber: '5', city: 'Rotenboden' });
      expect(hit?.placeNames).toEqual(['Rotenboden', 'Triesenberg']);
    }
    // The `local` provider hands them to the engine like any provider's place levels.
    const [candidate] = await createLocalProvider(box.index).geocode({ query: 'Burkatstrasse 5, Triesenberg', components: {}, country: 'LI' }, AbortSignal.timeout(5000));
    expect(candidate).toMatchObject({ precision: 'address', components: { city: 'Rotenboden' }, placeNames: ['Rotenboden', 'Triesenberg'] });
  });

  it('offers a street once in autocomplete when some of its addresses carried a town and some did not', async () => {
    await importFixture();
    const hits = await box.index.autocomplete({ query: 'Bahnhofstr', country: 'LI', limit: 10 });
    const streets = hits.filter((h) => h.precision === 'street');
    expect(streets.map((h) => h.label)).toEqual(['Bahnhofstrasse, Schaan']);
  });

  it('re-importing a file into an index built without its boundaries moves the addresses to their towns', async () => {
    await box.index.importFile(box.file('old.osm.pbf', osmBoundariesFixture({ boundaries: false })), { format: 'osm', country: 'LI' });
    // Without boundaries the nearest address with a town (Burkatstrasse 5, tagged Rotenboden, 700 m away) names it, as derived.
    expect(await house('Rossbodastrasse 6')).toMatchObject({ components: { city: 'Rotenboden' }, inferred: ['city'] });
    const again = await box.index.importFile(box.file('li.osm.pbf', osmBoundariesFixture()), { format: 'osm', country: 'LI' });
    // Four tagless addresses and the one tagged Rotenboden (now also in Triesenberg) changed street;
    // Bahnhofstrasse 18 (tagged Schaan, in Schaan) and Aussenweg (outside every boundary) did not.
    expect(again).toMatchObject({ imported: 0, updated: 5, unchanged: 2 });
    expect((await house('Rossbodastrasse 6'))?.components.city).toBe('Triesenberg');
    const streets = (await box.index.autocomplete({ query: 'Bahnhofstr', country: 'LI', limit: 10 })).filter((h) => h.precision === 'street');
    expect(streets.map((h) => h.label)).toEqual(['Bahnhofstrasse, Schaan']);
  });

  it('reads the boundaries of a file whose last block holds both ways and relations, as real extracts have', async () => {
    const summary = await box.index.importFile(box.file('mixed.osm.pbf', osmBoundariesFixture({ relationsWithWays: true })), { format: 'osm' });
    expect(summary).toMatchObject({ imported: 6, countries: ['LI'] });
    expect((await house('Rossbodastrasse 6, Triesenberg'))?.components).toMatchObject({ city: 'Triesenberg', country: 'LI' });
    expect(summary.areasNotClosed.map((a) => a.relation)).toEqual([3040]);
  });

  it('reads the same on a worker thread', async () => {
    await importFixture(true);
    expect((await house('Rossbodastrasse 6, Triesenberg'))?.components.city).toBe('Triesenberg');
  });
});

describe.each(STORAGE_BACKENDS)('an index written before streets knew their municipality (%s)', (backend) => {
  it('gains the column when opened, and keeps its data', async () => {
    const box = await openIndexSandbox(backend);
    try {
      await box.index.importFile(box.file('li.osm.pbf', osmBoundariesFixture()), { format: 'osm' });
      const { databaseUrl, schema, dataDir } = box.sandbox;
      if (databaseUrl) {
        const client = new pg.Client({ connectionString: databaseUrl });
        await client.connect();
        await client.query(`ALTER TABLE "${schema}".local_streets DROP COLUMN municipality`);
        await client.end();
      } else {
        const db = new Database(join(dataDir, SQLITE_INDEX_FILE));
        db.exec('ALTER TABLE streets DROP COLUMN municipality');
        db.close();
      }
      // A second process (the server after an upgrade) opens the old index.
      const reopened = await openLocalIndex({ dataDir, ...(databaseUrl ? { databaseUrl, schema } : {}) });
      const [hit] = await reopened.geocode({ query: 'Rossbodastrasse 6, Triesenberg', country: 'LI' });
      await reopened.close();
      expect(hit?.components).toMatchObject({ street: 'Rossbodastrasse', houseNumber: '6', city: 'Triesenberg' });
      expect(hit?.placeNames).toEqual(['Triesenberg']);
    } finally {
      await box.close();
    }
  });
});
