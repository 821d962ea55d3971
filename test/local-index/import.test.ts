import { readFileSync, statSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ImportFormatError, type ImportProgress } from '../../src/local-index/index.js';
import { STORAGE_BACKENDS } from '../support/backends.js';
import { fixture, openIndexSandbox, type IndexSandbox } from './support/local-sandbox.js';
import { osmFixture } from './support/osm-fixture.js';
import { writePbf } from './support/pbf-writer.js';

describe.each(STORAGE_BACKENDS)('local index import (%s)', (backend) => {
  let box: IndexSandbox;
  beforeEach(async () => {
    box = await openIndexSandbox(backend);
  });
  afterEach(async () => {
    await box.close();
  });

  it('imports an OpenAddresses file with header and quoting variants', async () => {
    const summary = await box.index.importFile(fixture('amsterdam.oa.csv'), { format: 'openaddresses', country: 'nl' });
    expect(summary).toMatchObject({ format: 'openaddresses', countries: ['NL'], rows: 26, imported: 26, updated: 0, skipped: {}, problems: [] });
    expect(await box.index.count()).toBe(26);
    expect(await box.index.countries()).toEqual(['NL']);
    const [hit] = await box.index.geocode({ components: { street: 'Prinsengracht', houseNumber: '263', city: 'Amsterdam' } });
    // LAT/LON read from the right columns, postcode in the Dutch layout, unit joined to the number.
    expect(hit).toMatchObject({ components: { street: 'Prinsengracht', houseNumber: '263', postcode: '1016 GV', city: 'Amsterdam', country: 'NL' } });
    expect(hit?.location).toEqual({ lat: 52.3752, lng: 4.8841 });
    const [unit] = await box.index.geocode({ components: { street: 'Keizersgracht', houseNumber: '123-2' } });
    expect(unit?.components.houseNumber).toBe('123-2');
  });

  it('reports every bad row of a malformed file and imports the good ones', async () => {
    const summary = await box.index.importFile(fixture('malformed.oa.csv'), { format: 'openaddresses', country: 'NL' });
    expect(summary.imported).toBe(2);
    expect(summary.problems.map(({ row, reason }) => ({ row, reason }))).toEqual([
      { row: 3, reason: 'missing_coordinates' },
      { row: 4, reason: 'invalid_coordinates' },
      { row: 5, reason: 'missing_house_number' },
      { row: 6, reason: 'missing_street' },
      { row: 7, reason: 'invalid_coordinates' },
      { row: 8, reason: 'invalid_coordinates' },
      { row: 9, reason: 'duplicate' },
    ]);
    expect(summary.skipped).toEqual({ missing_coordinates: 1, invalid_coordinates: 3, missing_house_number: 1, missing_street: 1, duplicate: 1 });
    // Row 10 has extra columns and padded spaces in the street: still the same street.
    const hits = await box.index.geocode({ query: 'Oudezijds Voorburgwal 13' });
    expect(hits[0]?.components).toMatchObject({ street: 'Oudezijds Voorburgwal', houseNumber: '13' });
  });

  it('rejects a file that is not of the format and leaves the index as it was', async () => {
    await box.index.importFile(fixture('amsterdam.oa.csv'), { format: 'openaddresses', country: 'NL' });
    const pbf = box.file('extract.osm.pbf', osmFixture());
    await expect(box.index.importFile(pbf, { format: 'openaddresses', country: 'NL' })).rejects.toThrow(/Not an OpenAddresses CSV/);
    await expect(box.index.importFile(fixture('berlin.csv'), { format: 'openaddresses', country: 'DE' })).rejects.toThrow(
      /missing columns LON, NUMBER/,
    );
    await expect(box.index.importFile(fixture('amsterdam.oa.csv'), { format: 'osm' })).rejects.toThrow(/Not an OpenStreetMap PBF/);
    await expect(box.index.importFile(pbf, { format: 'csv' })).rejects.toBeInstanceOf(ImportFormatError);
    await expect(box.index.importFile(fixture('amsterdam.oa.csv'), { format: 'openaddresses' })).rejects.toThrow(/--country/);
    await expect(box.index.importFile(fixture('nope.csv'), { format: 'csv' })).rejects.toThrow(/no such file/);
    await expect(box.index.importFile(box.sandbox.dataDir, { format: 'csv' })).rejects.toThrow(/not a file/);
    expect(await box.index.count()).toBe(26);
    expect(await box.index.countries()).toEqual(['NL']);
    expect((await box.index.geocode({ query: 'Damrak 1 Amsterdam' }))[0]?.components.houseNumber).toBe('1');
  });

  it('counts unchanged and updated rows on re-import, and --replace removes what the file dropped', async () => {
    await box.index.importFile(fixture('amsterdam.oa.csv'), { format: 'openaddresses', country: 'NL' });
    const again = await box.index.importFile(fixture('amsterdam.oa.csv'), { format: 'openaddresses', country: 'NL' });
    expect(again).toMatchObject({ imported: 0, updated: 0, unchanged: 26, removed: 0 });

    const lines = readFileSync(fixture('amsterdam.oa.csv'), 'utf8').trimEnd().split('\n');
    const edited = lines
      .filter((l) => !l.startsWith('h26,'))
      .map((l) => (l.startsWith('h06,') ? l.replace('52.37310', '52.37320') : l))
      .join('\n');
    const path = box.file('amsterdam-edited.csv', edited);
    const merged = await box.index.importFile(path, { format: 'openaddresses', country: 'NL' });
    expect(merged).toMatchObject({ imported: 0, updated: 1, unchanged: 24, removed: 0 });
    expect(await box.index.count()).toBe(26);

    const replaced = await box.index.importFile(path, { format: 'openaddresses', country: 'NL', replace: true });
    expect(replaced).toMatchObject({ imported: 0, updated: 0, unchanged: 25, removed: 1 });
    expect(await box.index.count()).toBe(25);
    const gone = await box.index.geocode({ components: { street: '3e Binnenvestgracht', houseNumber: '3', city: 'Leiden' } });
    expect(gone.map((h) => [h.precision, h.components.houseNumber])).toEqual([['street', undefined]]);
    const [dam] = await box.index.geocode({ components: { street: 'Dam', houseNumber: '1', city: 'Amsterdam' } });
    expect(dam?.location.lat).toBe(52.3732);
  });

  it('finds repeats across batches of a large file, and completes a stored street\'s state', async () => {
    // 25 000 rows: several write batches, so repeats must be found in what earlier batches stored.
    const lines = ['LON,LAT,NUMBER,STREET,UNIT,CITY,DISTRICT,REGION,POSTCODE,ID,HASH'];
    for (let s = 0; s < 500; s++)
      for (let n = 1; n <= 50; n++) lines.push(`${(4 + s / 1000).toFixed(4)},${(52 + n / 10000).toFixed(4)},${n},Proefstraat ${s},,Testdorp,,,,,`);
    lines.push('4.9999,52.9999,1,Proefstraat 0,,Testdorp,,,,,'); // repeats line 2, from the first batch
    lines.push('4.0000,52.0051,51,Proefstraat 0,,Testdorp,,,,,'); // a new number on a street of the first batch
    const path = box.file('large.oa.csv', lines.join('\n'));
    const summary = await box.index.importFile(path, { format: 'openaddresses', country: 'NL' });
    expect(summary).toMatchObject({ rows: 25_002, imported: 25_001, skipped: { duplicate: 1 } });
    expect(summary.problems).toEqual([expect.objectContaining({ row: 25_002, reason: 'duplicate' })]);
    const [first] = await box.index.geocode({ components: { street: 'Proefstraat 0', houseNumber: '1', city: 'Testdorp' } });
    expect(first?.location).toEqual({ lat: 52.0001, lng: 4 }); // the first occurrence is kept
    expect(first?.components.state).toBeUndefined();
    const [added] = await box.index.geocode({ components: { street: 'Proefstraat 0', houseNumber: '51', city: 'Testdorp' } });
    expect(added?.components.houseNumber).toBe('51');

    // Again: every row is found in the index (unchanged), and the repeat is still a repeat.
    const again = await box.index.importFile(path, { format: 'openaddresses', country: 'NL' });
    expect(again).toMatchObject({ imported: 0, updated: 0, unchanged: 25_001, skipped: { duplicate: 1 } });
    // A later file that names the region completes the stored street.
    const regional = box.file('regional.oa.csv', `${lines[0]}\n4.0000,52.0001,1,Proefstraat 0,,Testdorp,,Zuid-Holland,,,`);
    expect(await box.index.importFile(regional, { format: 'openaddresses', country: 'NL' })).toMatchObject({ imported: 0, unchanged: 1 });
    const [stated] = await box.index.geocode({ components: { street: 'Proefstraat 0', houseNumber: '1', city: 'Testdorp' } });
    expect(stated?.components.state).toBe('Zuid-Holland');
  });

  it('imports a plain CSV with named columns, the country from the row or --country', async () => {
    const withFallback = await box.index.importFile(fixture('berlin.csv'), { format: 'csv', country: 'DE' });
    expect(withFallback).toMatchObject({ imported: 4, countries: ['DE'], skipped: { invalid_coordinates: 1 } });
    expect(withFallback.problems).toEqual([expect.objectContaining({ row: 6, reason: 'invalid_coordinates' })]);
    const [hit] = await box.index.geocode({ query: 'Friedrichstrasse 44 Berlin' });
    expect(hit?.components).toMatchObject({ street: 'Friedrichstraße', houseNumber: '44', postcode: '10117', country: 'DE' });
  });

  it('reports rows without any country when no --country is given', async () => {
    const summary = await box.index.importFile(fixture('berlin.csv'), { format: 'csv' });
    expect(summary.imported).toBe(3);
    expect(summary.problems.map((p) => [p.row, p.reason])).toEqual([
      [5, 'missing_country'],
      [6, 'invalid_coordinates'],
    ]);
  });

  it('rejects a truncated PBF file (a cut-off download) and leaves the index as it was, even with --replace', async () => {
    await box.index.importFile(box.file('extract.osm.pbf', osmFixture()), { format: 'osm', country: 'LI' });
    // A whole first data block of 12 000 addresses (more than one write batch), then a copy cut off inside its data block.
    const nodes = Array.from({ length: 12_000 }, (_, i) => ({
      id: 1000 + i,
      lat: 47.1 + i / 1e6,
      lon: 9.5,
      tags: { 'addr:housenumber': String(i + 1), 'addr:street': 'Neue Strasse', 'addr:city': 'Vaduz' },
    }));
    const whole = writePbf(nodes, []);
    const cut = box.file('cut.osm.pbf', Buffer.concat([whole, whole.subarray(0, whole.length - 100)]));
    await expect(box.index.importFile(cut, { format: 'osm', country: 'LI', replace: true })).rejects.toThrow(/^Truncated PBF file: it ends inside the block at byte \d+/);
    expect(await box.index.count()).toBe(5);
    const hits = await box.index.geocode({ components: { street: 'Neue Strasse', houseNumber: '1', city: 'Vaduz' } });
    expect(hits.filter((h) => h.components.street === 'Neue Strasse')).toEqual([]);
    // The same file, whole, imports every row.
    const full = await box.index.importFile(box.file('whole.osm.pbf', whole), { format: 'osm', country: 'LI' });
    expect(full).toMatchObject({ rows: 12_000, imported: 12_000 });
  });

  it('imports OSM PBF nodes and ways, ways at the centre of their nodes', async () => {
    const pbf = box.file('extract.osm.pbf', osmFixture());
    const progress: ImportProgress[] = [];
    const summary = await box.index.importFile(pbf, { format: 'osm', country: 'LI', onProgress: (p) => progress.push(p) });
    // The progress ends at the whole file and every row, ways (read after the file's two passes) included.
    const size = statSync(pbf).size;
    expect(progress.at(-1)).toEqual({ bytesRead: size, totalBytes: size, rows: summary.rows });
    expect(summary).toMatchObject({ format: 'osm', imported: 5, countries: ['AT', 'LI'], skipped: { missing_street: 1, unresolved_way: 1 } });
    expect(summary.problems.map((p) => [p.row, p.reason])).toEqual([
      ['n104', 'missing_street'],
      ['w302', 'unresolved_way'],
    ]);
    const [way] = await box.index.geocode({ components: { street: 'Landstrasse', houseNumber: '5', city: 'Schaan' } });
    expect(way?.components).toMatchObject({ street: 'Landstrasse', houseNumber: '5', postcode: '9494', city: 'Schaan', country: 'LI' });
    expect(way?.location.lat).toBeCloseTo(47.1665, 6);
    expect(way?.location.lng).toBeCloseTo(9.511, 6);
    const [place] = await box.index.geocode({ query: 'Malbun 3' });
    expect(place?.components).toMatchObject({ street: 'Malbun', houseNumber: '3', city: 'Triesenberg' });
    expect(await box.index.countries()).toEqual(['AT', 'LI']);
  });

  // Large files are read and keyed on a worker thread; these force it on small fixtures.
  describe('reading on a worker thread', () => {
    it('gives the same rows, problems and progress as reading in-process', async () => {
      const progress: ImportProgress[] = [];
      const file = fixture('malformed.oa.csv');
      const inProcess = await box.index.importFile(file, { format: 'openaddresses', country: 'NL', readInWorker: false });
      const summary = await box.index.importFile(file, { format: 'openaddresses', country: 'NL', readInWorker: true, onProgress: (p) => progress.push(p) });
      expect(inProcess).toMatchObject({ rows: 9, imported: 2 });
      expect(summary).toMatchObject({ rows: 9, imported: 0, unchanged: 2, countries: ['NL'] });
      expect(summary.skipped).toEqual(inProcess.skipped);
      expect(summary.problems).toEqual(inProcess.problems);
      expect(progress.at(-1)).toEqual({ bytesRead: statSync(file).size, totalBytes: statSync(file).size, rows: 9 });
      const osm = await box.index.importFile(box.file('extract.osm.pbf', osmFixture()), { format: 'osm', country: 'LI', readInWorker: true });
      expect(osm).toMatchObject({ imported: 5, countries: ['AT', 'LI'], skipped: { missing_street: 1, unresolved_way: 1 } });
      expect(await box.index.count()).toBe(7);
    });

    it('fails a file of the wrong format as a format error and leaves the index as it was', async () => {
      await box.index.importFile(fixture('amsterdam.oa.csv'), { format: 'openaddresses', country: 'NL' });
      const pbf = box.file('extract.osm.pbf', osmFixture());
      const failed = box.index.importFile(pbf, { format: 'openaddresses', country: 'NL', readInWorker: true, replace: true });
      await expect(failed).rejects.toBeInstanceOf(ImportFormatError);
      await expect(failed).rejects.toThrow(/Not an OpenAddresses CSV/);
      expect(await box.index.count()).toBe(26);
    });
  });
});
