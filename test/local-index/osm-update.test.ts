import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/program.js';
import { changeDigest } from '../../src/local-index/update/apply-change.js';
import { openOsmState } from '../../src/local-index/update/open-state.js';
import { STORAGE_BACKENDS } from '../support/backends.js';
import type { IndexSandbox } from './support/local-sandbox.js';
import { addressRows, comparable } from './support/index-rows.js';
import { writeChangeFixture } from './support/osm-change-fixture.js';
import { changeFiles, updateSandboxes } from './support/update-sandboxes.js';
import { earlierTablesLeft, toEarlierLayout } from './support/earlier-osm-state.js';

const fixture = changeFiles(writeChangeFixture);

/** Issue 22 item 3: an index kept current with OpenStreetMap change files. */
describe.each(STORAGE_BACKENDS)('import --update with an OsmChange file (%s)', (backend) => {
  const s = updateSandboxes(backend);

  // As the CLI does: the update state recorded while the extract is imported.
  const importBefore = async () => {
    const summary = await s.box.index.importFile(fixture.files.before, { format: 'osm', recordOsmState: true });
    expect(summary.updateState).toMatchObject({ ways: expect.any(Number) });
  };
  const house = async (index: IndexSandbox, query: string) => {
    const [best] = await index.index.geocode({ query, country: 'DE' });
    return best?.precision === 'address' ? best : undefined;
  };

  it('leaves the index equal, row for row, to a fresh import of the new extract', async () => {
    await importBefore();
    const beforeRows = await addressRows(s.box.sandbox);
    const summary = await s.box.index.applyOsmChange(fixture.files.change, {});
    await s.fresh.index.importFile(fixture.files.after, { format: 'osm' });
    const expected = await addressRows(s.fresh.sandbox);
    expect(comparable(await addressRows(s.box.sandbox))).toEqual(comparable(expected));
    // The change did change things: n1, w22 and w23's address gone; n5, w24 and w25 new.
    expect(expected).not.toEqual(beforeRows);
    expect(summary).toMatchObject({ countries: ['DE'], removed: 3, relationsIgnored: 0 });
    expect(summary.imported).toBe(3);
    // A repeat of the same file changes nothing.
    const again = await s.box.index.applyOsmChange(fixture.files.change, {});
    expect(again).toMatchObject({ imported: 0, updated: 0, removed: 0 });
    expect(comparable(await addressRows(s.box.sandbox))).toEqual(comparable(expected));
  });

  it('moves a building whose nodes moved, with the buildings that share them, and gives it its new municipality', async () => {
    await importBefore();
    expect((await house(s.box, 'Hauptstraße 10, Adorf'))?.components.city).toBe('Adorf');
    expect((await house(s.box, 'Hauptstraße 6, Adorf'))?.units).toEqual(['1']);
    await s.box.index.applyOsmChange(fixture.files.change, {});
    const moved = await house(s.box, 'Hauptstraße 10, Bdorf');
    expect(moved?.components).toMatchObject({ street: 'Hauptstraße', houseNumber: '10', city: 'Bdorf' });
    expect(moved?.location.lng).toBeCloseTo(8.305, 6);
    // w21 kept its tags and its way; two of its nodes moved with w20.
    const neighbour = await house(s.box, 'Hauptstraße 11');
    expect(neighbour?.location.lng).toBeCloseTo((8.31 + 8.12 + 8.12 + 8.31) / 4, 6);
    // An address moved to another street; a renumbered one; a deleted one.
    expect((await house(s.box, 'Nebenweg 3, Adorf'))?.components.street).toBe('Nebenweg');
    expect((await house(s.box, 'Hauptstraße 2a, Adorf'))?.components.houseNumber).toBe('2a');
    expect(await house(s.box, 'Hauptstraße 1, Adorf')).toBeUndefined();
    // A building that gained an address, none of its nodes in the change, with its flats; a unit added to a house.
    expect(await house(s.box, 'Kirchweg 24, Bdorf')).toMatchObject({ components: { city: 'Bdorf' }, units: ['1', '2'] });
    expect((await house(s.box, 'Hauptstraße 6, Adorf'))?.units).toEqual(['1', '2']);
  });

  it('refuses a change file before an extract is recorded, and any other file while an update is unfinished', async () => {
    await s.box.index.importFile(fixture.files.before, { format: 'osm' });
    await expect(s.box.index.applyOsmChange(fixture.files.change, {})).rejects.toThrow(/import the extract/);
    await s.box.index.recordOsmState(fixture.files.before);
    await expect(s.box.index.applyOsmChange(s.box.file('not.osc', '<osm version="0.6"/>'), {})).rejects.toThrow(/Not an OsmChange file/);
    // An update that stopped after the state was written (what a crash there leaves): the same
    // diff, uncompressed, so another file's digest.
    const unfinished = s.box.file('day.osc', gunzipSync(readFileSync(fixture.files.change)));
    const state = await openOsmState({ dataDir: s.box.sandbox.dataDir, databaseUrl: s.box.sandbox.databaseUrl, schema: s.box.sandbox.schema });
    try {
      await state.apply({ ways: new Map(), droppedWays: [], nodes: new Map() }, await changeDigest(unfinished));
    } finally {
      await state.close();
    }
    await expect(s.box.index.applyOsmChange(fixture.files.change, {})).rejects.toThrow(/did not complete/);
    // Running that file again completes it; then the next one is accepted.
    await s.box.index.applyOsmChange(unfinished, {});
    await s.box.index.applyOsmChange(fixture.files.change, {});
    await s.fresh.index.importFile(fixture.files.after, { format: 'osm' });
    expect(comparable(await addressRows(s.box.sandbox))).toEqual(comparable(await addressRows(s.fresh.sandbox)));
  });

  it.runIf(backend === 'postgres')('applies an update to state recorded in the earlier layout (a node-to-way table), migrated when opened', async () => {
    await importBefore();
    await toEarlierLayout(s.box.sandbox, { wayNodeTable: true });
    await s.box.index.applyOsmChange(fixture.files.change, {});
    await s.fresh.index.importFile(fixture.files.after, { format: 'osm' });
    expect(comparable(await addressRows(s.box.sandbox))).toEqual(comparable(await addressRows(s.fresh.sandbox)));
    expect(await earlierTablesLeft(s.box.sandbox)).toEqual([]);
  });

  it('applies updates to state recorded with a row per node (before the ways kept their coordinates), migrated when opened', async () => {
    await importBefore();
    await toEarlierLayout(s.box.sandbox);
    await s.box.index.applyOsmChange(fixture.files.change, {});
    await s.fresh.index.importFile(fixture.files.after, { format: 'osm' });
    expect(comparable(await addressRows(s.box.sandbox))).toEqual(comparable(await addressRows(s.fresh.sandbox)));
    expect(await earlierTablesLeft(s.box.sandbox)).toEqual([]);
    // The migrated state goes on serving updates: the same file again changes nothing.
    expect(await s.box.index.applyOsmChange(fixture.files.change, {})).toMatchObject({ imported: 0, updated: 0, removed: 0 });
  });

  it('runs from the command line: import records the extract, --update applies the diff', async () => {
    const cli = async (...argv: string[]) => {
      let stdout = '';
      const code = await runCli(argv, { stdout: (t) => (stdout += t), stderr: () => undefined, env: s.box.sandbox.env });
      return { code, stdout };
    };
    const first = await cli('import', fixture.files.before, '--json');
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ format: 'osm', updateState: { ways: 7, areas: 3 } });
    // --update applies a change file only: no --replace, no other format; nothing changes.
    expect((await cli('import', '--update', fixture.files.change, '--replace')).code).not.toBe(0);
    expect((await cli('import', '--update', fixture.files.change, '--format', 'csv')).code).not.toBe(0);
    // An OSM import without recording leaves no state to apply a diff to (not the previous extract's).
    expect((await cli('import', fixture.files.before, '--no-update-state')).code).toBe(0);
    expect((await cli('import', '--update', fixture.files.change)).code).not.toBe(0);
    expect((await cli('import', fixture.files.before)).code).toBe(0);
    const update = await cli('import', '--update', fixture.files.change);
    expect(update.code).toBe(0);
    expect(update.stdout).toContain('imported 3');
    expect(update.stdout).toContain('removed 3');
    await s.fresh.index.importFile(fixture.files.after, { format: 'osm' });
    expect(comparable(await addressRows(s.box.sandbox))).toEqual(comparable(await addressRows(s.fresh.sandbox)));
  });
});

/** A plain .osc (not gzip) reads the same. */
it('reads an uncompressed change file', async () => {
  const { readOsmChange } = await import('../../src/local-index/import/osc-parse.js');
  const path = join(fixture.dir, 'small.osc');
  writeFileSync(
    path,
    `<?xml version="1.0"?><osmChange version="0.6"><modify><node id="5" version="3" lat="1.5" lon="2.5"><tag k="addr:housenumber" v="1"/></node></modify>
     <delete><way id="9" version="2"/></delete><modify><node id="5" version="2" lat="9" lon="9"/></modify></osmChange>`,
  );
  const change = await readOsmChange(path);
  // The highest version wins, whatever the order.
  expect(change.nodes.get(5)).toEqual({ deleted: false, lat: 1.5, lon: 2.5, tags: { 'addr:housenumber': '1' } });
  expect(change.ways.get(9)).toEqual({ deleted: true });
});
