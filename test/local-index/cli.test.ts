import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/program.js';
import { openLocalIndex } from '../../src/local-index/index.js';
import { createSandbox, STORAGE_BACKENDS, type Sandbox } from '../support/backends.js';
import { fixture } from './support/local-sandbox.js';
import { osmBoundariesFixture } from './support/osm-boundaries-fixture.js';
import { osmFixture } from './support/osm-fixture.js';

async function cli(sandbox: Sandbox, ...argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), env: sandbox.env });
  return { code, stdout, stderr };
}

describe.each(STORAGE_BACKENDS)('cli import (%s)', (backend) => {
  let sandbox: Sandbox;
  beforeEach(async () => {
    sandbox = await createSandbox(backend);
  });
  afterEach(async () => {
    await sandbox.cleanup();
  });

  const indexCount = async () => {
    const index = await openLocalIndex({ dataDir: sandbox.dataDir, ...(sandbox.databaseUrl ? { databaseUrl: sandbox.databaseUrl } : {}) });
    try {
      return await index.count();
    } finally {
      await index.close();
    }
  };

  it('--json prints exactly one JSON object: the summary', async () => {
    const res = await cli(sandbox, 'import', fixture('amsterdam.oa.csv'), '--format', 'openaddresses', '--country', 'NL', '--json');
    expect(res.code).toBe(0);
    expect(res.stderr).toBe('');
    expect(res.stdout.trim().split('\n')).toHaveLength(1);
    expect(JSON.parse(res.stdout)).toMatchObject({ format: 'openaddresses', imported: 26, updated: 0, skipped: {}, countries: ['NL'] });
    expect(await indexCount()).toBe(26);
  });

  it('reports a malformed file row by row and still imports its good rows (format guessed from the header)', async () => {
    const res = await cli(sandbox, 'import', fixture('malformed.oa.csv'), '--country', 'NL');
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('imported 2');
    expect(res.stdout).toContain('skipped by reason: missing_coordinates 1, invalid_coordinates 3, missing_house_number 1, missing_street 1, duplicate 1');
    for (const line of ['row 3: missing_coordinates', 'row 4: invalid_coordinates', 'row 5: missing_house_number', 'row 6: missing_street', 'row 9: duplicate']) {
      expect(res.stdout).toContain(line);
    }
    expect(await indexCount()).toBe(2);
  });

  it('--replace drops the addresses of the imported country that the file no longer has', async () => {
    await cli(sandbox, 'import', fixture('amsterdam.oa.csv'), '--country', 'NL');
    await cli(sandbox, 'import', fixture('berlin.csv'), '--country', 'DE');
    const path = join(sandbox.dataDir, 'first-ten.csv');
    writeFileSync(path, readFileSync(fixture('amsterdam.oa.csv'), 'utf8').split('\n').slice(0, 11).join('\n'));
    const res = await cli(sandbox, 'import', path, '--country', 'NL', '--replace', '--json');
    expect(JSON.parse(res.stdout)).toMatchObject({ unchanged: 10, removed: 16 });
    expect(await indexCount()).toBe(10 + 4); // Germany untouched
  });

  it('says how to keep the rows that name no country', async () => {
    const res = await cli(sandbox, 'import', fixture('berlin.csv'));
    expect(res.stdout).toContain('skipped by reason: missing_country 1, invalid_coordinates 1');
    expect(res.stdout).toContain('1 row names no country: pass --country CC to import it');
    const withCountry = await cli(sandbox, 'import', fixture('berlin.csv'), '--country', 'DE');
    expect(withCountry.stdout).not.toContain('--country');
  });

  it('recognises a PBF file by its content when its name does not say so', async () => {
    const path = join(sandbox.dataDir, 'extract-download');
    writeFileSync(path, osmFixture());
    const res = await cli(sandbox, 'import', path, '--country', 'LI', '--json');
    expect(res.stderr).toBe('');
    expect(JSON.parse(res.stdout)).toMatchObject({ format: 'osm', imported: 5, countries: ['AT', 'LI'] });
  });

  it('says how many addresses got a derived town and postcode, and names each boundary relation it could not close', async () => {
    const path = join(sandbox.dataDir, 'li.osm.pbf');
    writeFileSync(path, osmBoundariesFixture());
    const res = await cli(sandbox, 'import', path);
    expect(res.stdout).toContain('  derived: a town for 4, a postcode for 1 address');
    expect(res.stdout).toContain('  1 boundary relation could not be closed (no area of the index):\n    relation 3040 Cutoff: ring not closed at nodes n1040, n991');
    const json = JSON.parse((await cli(sandbox, 'import', path, '--json')).stdout) as Record<string, unknown>;
    expect(json).toMatchObject({ derived: { city: 4, postcode: 1 }, areasNotClosed: [{ relation: 3040, name: 'Cutoff', reason: expect.any(String) }] });
  });

  it('fails with a clear message for a file that is not of the format, and changes nothing', async () => {
    await cli(sandbox, 'import', fixture('berlin.csv'), '--country', 'DE');
    const res = await cli(sandbox, 'import', fixture('berlin.csv'), '--format', 'osm', '--json');
    expect(res.code).toBe(1);
    expect(res.stdout).toBe('');
    expect(res.stderr).toMatch(/^error: Not an OpenStreetMap PBF file/);
    const bad = await cli(sandbox, 'import', fixture('berlin.csv'), '--format', 'gpx');
    expect(bad.stderr).toMatch(/--format must be one of openaddresses, osm, csv/);
    expect(await indexCount()).toBe(4);
  });
});
