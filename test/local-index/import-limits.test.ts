import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/program.js';
import { openLocalIndex } from '../../src/local-index/index.js';
import { createSandbox, STORAGE_BACKENDS, type Sandbox } from '../support/backends.js';
import { writePbf } from './support/pbf-writer.js';

/**
 * Issue 36: an imported value longer than the API accepts for its component (street 200, number
 * and postcode 20, unit 40, town 100) skips its row as `too_long` in every format; messages quote
 * values shortened (60 characters and `…`); a file whose rows all fail names the country whose
 * addresses it no longer holds.
 */
async function cli(sandbox: Sandbox, ...argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), env: sandbox.env });
  return { code, stdout, stderr };
}

const HUGE = 'S'.repeat(1_000_000);
const csvCell = (value: string) => `"${value.replace(/"/g, '""')}"`;

describe.each(STORAGE_BACKENDS)('import limits (%s)', (backend) => {
  let sandbox: Sandbox;
  beforeEach(async () => {
    sandbox = await createSandbox(backend);
  });
  afterEach(async () => sandbox.cleanup());

  const write = (name: string, content: string | Buffer) => {
    const path = join(sandbox.dataDir, name);
    writeFileSync(path, content);
    return path;
  };
  const indexed = async () => {
    const index = await openLocalIndex({ dataDir: sandbox.dataDir, ...(sandbox.databaseUrl ? { databaseUrl: sandbox.databaseUrl } : {}) });
    try {
      const found = await index.autocomplete({ query: 'Landstrasse', country: 'LI', limit: 10 });
      return { count: await index.count(), longest: Math.max(0, ...found.map((h) => JSON.stringify(h).length)) };
    } finally {
      await index.close();
    }
  };

  it('plain CSV: each over-long field skips its row as too_long; the row at the bounds is imported', async () => {
    const rows = [
      ['street', 'houseNumber', 'unit', 'postcode', 'city', 'lat', 'lng'],
      ['Landstrasse', '1', '', '9495', 'Triesen', '47.10', '9.52'],
      [`Landstrasse${'x'.repeat(189)}`, '2'.repeat(20), 'U'.repeat(40), '9'.repeat(20), 'T'.repeat(100), '47.11', '9.52'],
      [`Landstrasse ${HUGE}`, '3', '', '9495', 'Triesen', '47.12', '9.52'],
      ['Landstrasse', '4'.repeat(21), '', '9495', 'Triesen', '47.13', '9.52'],
      ['Landstrasse', '5', 'U'.repeat(41), '9495', 'Triesen', '47.14', '9.52'],
      ['Landstrasse', '6', '', '9'.repeat(21), 'Triesen', '47.15', '9.52'],
      ['Landstrasse', '7', '', '9495', 'T'.repeat(101), '47.16', '9.52'],
      // 200 characters, 400 UTF-16 units: within the bound, as the API counts.
      ['𝐋'.repeat(200), '8', '', '9495', 'Triesen', '47.17', '9.52'],
    ];
    const path = write('long.csv', rows.map((r) => r.map(csvCell).join(',')).join('\n'));
    const res = await cli(sandbox, 'import', path, '--country', 'LI', '--json');
    expect(res.code).toBe(0);
    const summary = JSON.parse(res.stdout) as { imported: number; skipped: Record<string, number>; problems: { row: number; reason: string; detail: string }[] };
    expect(summary.imported).toBe(3);
    expect(summary.skipped).toEqual({ too_long: 5 });
    expect(summary.problems.map((p) => [p.row, p.detail.split(':')[0]])).toEqual([
      [4, 'street'],
      [5, 'houseNumber'],
      [6, 'unit'],
      [7, 'postcode'],
      [8, 'city'],
    ]);
    expect(summary.problems[0]!.detail).toBe(`street: 1000012 characters, over 200 (Landstrasse ${'S'.repeat(48)}…)`);
    expect(res.stdout.length).toBeLessThan(5_000);
    const { count, longest } = await indexed();
    expect(count).toBe(3);
    // Autocomplete answers stay small: no megabyte value reached the index.
    expect(longest).toBeLessThan(2_000);
  });

  it('OpenAddresses: the same, and the human bad-row list shortens what it quotes', async () => {
    const header = 'LON,LAT,NUMBER,STREET,UNIT,CITY,DISTRICT,REGION,POSTCODE,ID,HASH';
    const lines = [
      header,
      '9.52,47.10,1,Landstrasse,,Triesen,,,9495,,',
      `9.52,47.11,${'1'.repeat(1_000_000)},Landstrasse,,Triesen,,,9495,,`,
      `9.52,47.12,2,Landstrasse,${'U'.repeat(1_000_000)},Triesen,,,9495,,`,
      `9.52,47.13,3,Landstrasse,,Triesen,,,${'9'.repeat(1_000_000)},,`,
      `${'9'.repeat(1_000_000)}x,47.14,4,Landstrasse,,Triesen,,,9495,,`,
    ];
    const path = write('long.oa.csv', lines.join('\n'));
    const res = await cli(sandbox, 'import', path, '--format', 'openaddresses', '--country', 'LI');
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('skipped by reason: too_long 3, invalid_coordinates 1');
    expect(res.stdout).toContain(`row 3: too_long (houseNumber: 1000000 characters, over 20 (${'1'.repeat(60)}…))`);
    expect(res.stdout).toContain(`row 4: too_long (unit: 1000000 characters, over 40 (${'U'.repeat(60)}…))`);
    expect(res.stdout).toContain(`row 5: too_long (postcode: 1000000 characters, over 20 (${'9'.repeat(60)}…))`);
    expect(res.stdout).toContain(`row 6: invalid_coordinates (lat 47.14, lng ${'9'.repeat(60)}…)`);
    expect(res.stdout.length).toBeLessThan(5_000);
    expect((await indexed()).count).toBe(1);
  });

  it('OpenStreetMap PBF: an over-long addr:street or addr:flats value skips its element as too_long', async () => {
    const path = write(
      'long.osm.pbf',
      writePbf(
        [
          { id: 1, lat: 47.1, lon: 9.52, tags: { 'addr:street': 'Landstrasse', 'addr:housenumber': '1', 'addr:postcode': '9495', 'addr:city': 'Triesen' } },
          { id: 2, lat: 47.11, lon: 9.52, tags: { 'addr:street': `Landstrasse ${'x'.repeat(300_000)}`, 'addr:housenumber': '2', 'addr:city': 'Triesen' } },
          { id: 3, lat: 47.12, lon: 9.52, tags: { 'addr:street': 'Landstrasse', 'addr:housenumber': '3', 'addr:city': 'T'.repeat(101) } },
          { id: 4, lat: 47.13, lon: 9.52, tags: { 'addr:street': 'Landstrasse', 'addr:housenumber': '4', 'addr:flats': `1;${'F'.repeat(41)}` } },
        ],
        [],
      ),
    );
    const res = await cli(sandbox, 'import', path, '--country', 'LI', '--json');
    expect(res.code).toBe(0);
    const summary = JSON.parse(res.stdout) as { imported: number; skipped: Record<string, number>; problems: { row: string; reason: string; detail: string }[] };
    expect(summary.skipped).toEqual({ too_long: 3 });
    expect(summary.problems.map((p) => [p.row, p.detail.split(':')[0]])).toEqual([
      ['n2', 'street'],
      ['n3', 'city'],
      ['n4', 'unit'],
    ]);
    expect(summary.imported).toBe(1);
  });

  it('a file whose rows all fail names the country whose addresses it no longer holds', async () => {
    const good = write('good.csv', ['street,houseNumber,postcode,city,lat,lng', ...Array.from({ length: 15 }, (_, i) => `Landstrasse,${i + 1},9495,Triesen,47.1${i},9.52`)].join('\n'));
    expect((await cli(sandbox, 'import', good, '--country', 'LI')).code).toBe(0);
    const bad = write('bad.csv', ['street,houseNumber,postcode,city,lat,lng', ...Array.from({ length: 15 }, (_, i) => `Landstrasse,${i + 1},9495,Triesen,north,east`)].join('\n'));
    const res = await cli(sandbox, 'import', bad, '--country', 'LI');
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('15 addresses of LI are no longer in this file and stay in the index');
    expect(res.stdout).not.toMatch(/of {2}are/);
  });
});
