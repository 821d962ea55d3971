import Database from 'better-sqlite3';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openLocalIndex } from '../../src/local-index/index.js';
import { SQLITE_INDEX_FILE } from '../../src/local-index/store/sqlite-store.js';
import { osmUnitList, osmUnits } from '../../src/local-index/import/osm-units.js';
import { answeringEngine } from '../engine/support/answering-engine.js';
import { mergePackedUnits, packUnits, readUnits } from '../../src/local-index/units.js';
import { createLocalProvider } from '../../src/providers/local/adapter.js';
import { STORAGE_BACKENDS } from '../support/backends.js';
import { openIndexSandbox, type IndexSandbox } from './support/local-sandbox.js';
import { writePbf } from './support/pbf-writer.js';

const signal = new AbortController().signal;
const OA_HEADER = 'LON,LAT,NUMBER,STREET,UNIT,CITY,DISTRICT,REGION,POSTCODE,ID,HASH';

describe('units an OSM object lists', () => {
  it.each([
    [{ 'addr:unit': 'Top 3' }, ['Top 3']],
    [{ 'addr:unit': '1;2A' }, ['1', '2A']],
    [{ 'addr:flats': '1-4' }, ['1', '2', '3', '4']],
    [{ 'addr:flats': '1;3;5' }, ['1', '3', '5']],
    [{ 'addr:flats': '1-3;7' }, ['1', '2', '3', '7']],
    [{ 'addr:flats': 'A-C' }, ['A-C']],
    [{ 'addr:flats': '1-100000' }, ['1-100000']],
    [{ 'addr:door': '4', 'addr:floor': '2' }, ['2/4']],
    [{ 'addr:door': 'Esq' }, ['Esq']],
    [{ 'addr:floor': '2' }, undefined],
    [{ 'addr:unit': '3', 'addr:flats': '2-3' }, ['3', '2']],
    [{}, undefined],
  ])('%j → %j', (tags, units) => {
    expect(osmUnits({ 'addr:housenumber': '1', ...tags })).toEqual(units);
  });

  // Issue 34 item 7: only `addr:flats` states the house's list; single units of shops, offices and doors are partial.
  it.each([
    [{ 'addr:flats': '1-4' }, false],
    [{ 'addr:unit': '3', 'addr:flats': '2-3' }, false],
    [{ 'addr:unit': '1' }, true],
    [{ 'addr:unit': '1;2A' }, true],
    [{ 'addr:door': '4', 'addr:floor': '2' }, true],
  ])('%j: partial %s', (tags, partial) => {
    expect(osmUnitList({ 'addr:housenumber': '1', ...tags }).unitsPartial === true).toBe(partial);
  });
});

describe('stored unit lists, stated or partial', () => {
  it('reads back what was packed, marks off', () => {
    expect(readUnits(packUnits(['1', '2']))).toEqual({ units: ['1', '2'] });
    expect(readUnits(packUnits(['1', '2'], { partial: true }))).toEqual({ units: ['1', '2'], unitsPartial: true });
    expect(readUnits(packUnits(['1'], { interpolated: true, partial: true }))).toEqual({ units: ['1'], unitsPartial: true, interpolated: true });
    expect(readUnits(packUnits(undefined, { interpolated: true }))).toEqual({ interpolated: true });
  });

  it('merges a partial list into a stated one as stated, each unit once; two partial lists stay partial', () => {
    const stated = packUnits(['1', '2']);
    const partial = packUnits(['2', 'A'], { partial: true });
    expect(readUnits(mergePackedUnits(stated, partial))).toEqual({ units: ['1', '2', 'A'] });
    expect(readUnits(mergePackedUnits(partial, stated))).toEqual({ units: ['2', 'A', '1'] });
    expect(readUnits(mergePackedUnits(partial, packUnits(['B'], { partial: true })))).toEqual({ units: ['2', 'A', 'B'], unitsPartial: true });
    expect(mergePackedUnits(partial, packUnits(['a'], { partial: true }))).toBe(partial);
  });
});

describe.each(STORAGE_BACKENDS)('units in the local index (%s)', (backend) => {
  let box: IndexSandbox;
  beforeEach(async () => {
    box = await openIndexSandbox(backend);
  });
  afterEach(async () => {
    await box.close();
  });

  const candidate = async (street: string, houseNumber: string, country: string) => {
    const [best] = await createLocalProvider(box.index).geocode({ components: { street, houseNumber, country }, country }, signal);
    return best;
  };

  it('imports OSM addr:unit, addr:flats and addr:door: several objects of one house are one house with their units', async () => {
    const at = { 'addr:street': 'Landstrasse', 'addr:postcode': '9495', 'addr:city': 'Triesen', 'addr:country': 'LI' };
    const pbf = writePbf(
      [
        { id: 1, lat: 47.1, lon: 9.52, tags: { ...at, 'addr:housenumber': '340', 'addr:unit': 'Top 1' } },
        { id: 2, lat: 47.1, lon: 9.52, tags: { ...at, 'addr:housenumber': '340', 'addr:unit': 'Top 2' } },
        { id: 3, lat: 47.1001, lon: 9.52, tags: { ...at, 'addr:housenumber': '342', 'addr:flats': '1-3;7' } },
        { id: 4, lat: 47.1002, lon: 9.52, tags: { ...at, 'addr:housenumber': '344', 'addr:floor': '2', 'addr:door': '4' } },
        { id: 5, lat: 47.1003, lon: 9.52, tags: { ...at, 'addr:housenumber': '346', 'addr:floor': '3' } },
      ],
      [],
    );
    await box.index.importFile(box.file('units.osm.pbf', pbf), { format: 'osm' });
    const house = await candidate('Landstrasse', '340', 'LI');
    expect(house).toMatchObject({ precision: 'address', components: { houseNumber: '340' }, units: ['Top 1', 'Top 2'] });
    expect((await candidate('Landstrasse', '342', 'LI'))?.units).toEqual(['1', '2', '3', '7']);
    expect((await candidate('Landstrasse', '344', 'LI'))?.units).toEqual(['2/4']);
    // A floor alone names no unit: the data knows none for the house.
    const floorOnly = await candidate('Landstrasse', '346', 'LI');
    expect(floorOnly?.components.houseNumber).toBe('346');
    expect(floorOnly).not.toHaveProperty('units');
    // Autocomplete carries them too.
    const [suggestion] = await createLocalProvider(box.index).autocomplete!({ query: 'Landstrasse 340', country: 'LI', limit: 5 }, signal);
    expect(suggestion).toMatchObject({ components: { houseNumber: '340' }, units: ['Top 1', 'Top 2'] });
  });

  it('imports the OpenAddresses UNIT column as one house with its units, also across write batches', async () => {
    const rows = [
      '-76.58,39.29,1932,Eastern Avenue,Apt 3A,Baltimore,,MD,21231,,',
      '-76.58,39.29,1932,Eastern Avenue,Apt 3B,Baltimore,,MD,21231,,',
      '-76.58,39.29,1932,Eastern Avenue,,Baltimore,,MD,21231,,',
      '-76.58,39.29,1932,Eastern Avenue,Apt 3b,Baltimore,,MD,21231,,',
      '-76.581,39.29,1934,Eastern Avenue,,Baltimore,,MD,21231,,',
    ];
    // Beyond one write batch (10,000 rows): the last unit of 1940 is added to the house an earlier batch stored.
    const filler = Array.from({ length: 10_000 }, (_, i) => `-76.6,39.3,${i + 1},Filler Street,,Baltimore,,MD,21230,,`);
    const late = '-76.582,39.29,1940,Eastern Avenue,Suite 200,Baltimore,,MD,21231,,';
    const early = '-76.582,39.29,1940,Eastern Avenue,Suite 100,Baltimore,,MD,21231,,';
    const path = box.file('us.oa.csv', [OA_HEADER, ...rows, early, ...filler, late].join('\n'));
    // Read on a worker thread: units cross the thread boundary with their rows.
    const summary = await box.index.importFile(path, { format: 'openaddresses', country: 'US', readInWorker: true });
    expect(summary).toMatchObject({ imported: 10_003, skipped: { duplicate: 2 } });
    expect((await candidate('Eastern Avenue', '1932', 'US'))?.units).toEqual(['Apt 3A', 'Apt 3B']);
    // The UNIT rows of a house state its list (issue 34): a unit absent from it is a mismatch.
    expect(await candidate('Eastern Avenue', '1932', 'US')).not.toHaveProperty('unitsPartial');
    expect(await candidate('Eastern Avenue', '1934', 'US')).not.toHaveProperty('units');
    expect((await candidate('Eastern Avenue', '1940', 'US'))?.units).toEqual(['Suite 100', 'Suite 200']);

    // A re-import that drops a unit drops it from the house; --replace keeps the units of the houses it keeps.
    const fewer = box.file('us-2.oa.csv', [OA_HEADER, rows[0], rows[4], early].join('\n'));
    expect(await box.index.importFile(fewer, { format: 'openaddresses', country: 'US', replace: true })).toMatchObject({ updated: 2, unchanged: 1 });
    expect((await candidate('Eastern Avenue', '1932', 'US'))?.units).toEqual(['Apt 3A']);
    expect((await candidate('Eastern Avenue', '1940', 'US'))?.units).toEqual(['Suite 100']);
    expect(await box.index.count()).toBe(3);
  });

  it("imports a plain CSV's unit column", async () => {
    const rows = ['street,houseNumber,unit,postcode,city,country,lat,lng', 'Baaderstraße,22,Whg. 5,80469,München,DE,48.13,11.58', 'Baaderstraße,22,Whg. 6,80469,München,DE,48.13,11.58'];
    expect(await box.index.importFile(box.file('de.csv', rows.join('\n')), { format: 'csv' })).toMatchObject({ imported: 1, skipped: {} });
    expect((await candidate('Baaderstraße', '22', 'DE'))?.units).toEqual(['Whg. 5', 'Whg. 6']);
    expect(await candidate('Baaderstraße', '22', 'DE')).not.toHaveProperty('unitsPartial');
  });

  it('opens an index written before addresses had units, and imports units into it', async () => {
    const csv = (unit: string) => box.file(`${unit}.oa.csv`, `${OA_HEADER}\n-76.58,39.29,1932,Eastern Avenue,${unit},Baltimore,,MD,21231,,`);
    await box.index.importFile(csv(''), { format: 'openaddresses', country: 'US' });
    // The earlier layout: no units column.
    const { dataDir, databaseUrl, schema } = box.sandbox;
    if (!databaseUrl) {
      const db = new Database(join(dataDir, SQLITE_INDEX_FILE));
      db.exec('ALTER TABLE addresses DROP COLUMN units');
      db.close();
    } else {
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      await client.query(`ALTER TABLE ${schema}.local_addresses DROP COLUMN units`);
      await client.end();
    }
    const reopened = await openLocalIndex({ dataDir, ...(databaseUrl ? { databaseUrl, schema } : {}) });
    try {
      const units = async () => (await reopened.geocode({ components: { street: 'Eastern Avenue', houseNumber: '1932' }, country: 'US' }))[0]?.units;
      expect(await units()).toBeUndefined();
      expect(await reopened.importFile(csv('Apt 1'), { format: 'openaddresses', country: 'US' })).toMatchObject({ updated: 1 });
      expect(await units()).toEqual(['Apt 1']);
    } finally {
      await reopened.close();
    }
  });

  it('keeps a list stated by addr:flats apart from one gathered from shops\' addr:unit, through the index to the verdict (issue 34)', async () => {
    const at = { 'addr:street': 'Rua de Santa Catarina', 'addr:postcode': '4000-443', 'addr:city': 'Porto', 'addr:country': 'PT' };
    const pbf = writePbf(
      [
        // 108: one shop of the building tags its unit; 110: two shops; 112: the building states its flats, a shop its own unit.
        { id: 1, lat: 41.147, lon: -8.606, tags: { ...at, 'addr:housenumber': '108', 'addr:unit': '1', shop: 'clothes' } },
        { id: 2, lat: 41.1471, lon: -8.606, tags: { ...at, 'addr:housenumber': '110', 'addr:unit': '1', shop: 'bakery' } },
        { id: 3, lat: 41.1471, lon: -8.606, tags: { ...at, 'addr:housenumber': '110', 'addr:unit': '2', office: 'company' } },
        { id: 4, lat: 41.1472, lon: -8.606, tags: { ...at, 'addr:housenumber': '112', 'addr:unit': 'Loja A', shop: 'books' } },
        { id: 11, lat: 41.1472, lon: -8.6061 },
        { id: 12, lat: 41.1473, lon: -8.6061 },
        { id: 13, lat: 41.1473, lon: -8.6059 },
      ],
      [{ id: 21, refs: [11, 12, 13, 11], tags: { ...at, building: 'apartments', 'addr:housenumber': '112', 'addr:flats': '1-3' } }],
    );
    await box.index.importFile(box.file('porto.osm.pbf', pbf), { format: 'osm' });
    const c108 = await candidate('Rua de Santa Catarina', '108', 'PT');
    const c110 = await candidate('Rua de Santa Catarina', '110', 'PT');
    const c112 = await candidate('Rua de Santa Catarina', '112', 'PT');
    expect(c108).toMatchObject({ units: ['1'], unitsPartial: true });
    expect(c110).toMatchObject({ units: ['1', '2'], unitsPartial: true });
    expect(c112?.units?.slice().sort()).toEqual(['1', '2', '3', 'Loja A']);
    expect(c112).not.toHaveProperty('unitsPartial');

    const ask = (c: typeof c108) => answeringEngine({ local: [c!] });
    // A unit absent from a shop's unit is not checked: the house stays valid.
    const absent = await (ask(c108))({ query: 'Rua de Santa Catarina 108, 2º Esq, 4000-443 Porto', country: 'PT' });
    expect(absent).toMatchObject({ verdict: 'valid', action: 'accept', components: { unit: 'not-checked' }, address: { unit: '2º Esq.' } });
    // A bare floor is read and matched against the house's `1`.
    const floor = await (ask(c108))({ query: 'Rua de Santa Catarina 108, 1º, 4000-443 Porto', country: 'PT' });
    expect(floor).toMatchObject({ verdict: 'valid', components: { unit: 'match' }, address: { unit: '1º' } });
    // Two shops' units ask for no flat.
    expect((await (ask(c110))({ query: 'Rua de Santa Catarina 110, 4000-443 Porto', country: 'PT' })).action).toBe('accept');
    // Against the flats the building states, an absent unit is a mismatch and a missing one is asked for.
    const stated = ask(c112);
    expect(await stated({ query: 'Rua de Santa Catarina 112, 7º, 4000-443 Porto', country: 'PT' })).toMatchObject({ verdict: 'correctable', components: { unit: 'mismatch' } });
    expect(await stated({ query: 'Rua de Santa Catarina 112, 2º, 4000-443 Porto', country: 'PT' })).toMatchObject({ verdict: 'valid', components: { unit: 'match' } });
    expect((await stated({ query: 'Rua de Santa Catarina 112, 4000-443 Porto', country: 'PT' })).action).toBe('add_unit');
  });
});
