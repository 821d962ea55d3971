import { statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/program.js';
import { demoCertificate } from '../../src/cli/widget-demo/certificate.js';
import { resolveMasterKey } from '../../src/lib/master-key.js';
import { openSqliteStore } from '../../src/local-index/store/sqlite-store.js';
import { openSqliteOsmState } from '../../src/local-index/update/sqlite-osm-state.js';
import { openDatabase } from '../../src/store/db/database.js';
import { useModeTestDir } from '../support/mode-test-dir.js';

/**
 * Issue 36: DATA_DIR is 0700 whichever command creates it: the README's offline path starts with
 * `addressd import` or `widget-demo`, not `npm start`. The umask is the usual 022 (0755 alone).
 */
const mode = (dir: string) => statSync(dir).mode & 0o777;

describe('DATA_DIR made by the first command is 0700', () => {
  const tmp = useModeTestDir('addressd-first-');
  const fresh = () => path.join(tmp(), 'srv', 'data');

  it('addressd import FILE (the local index on SQLite)', async () => {
    const data = fresh();
    const file = path.join(tmp(), 'li.csv');
    writeFileSync(file, 'street,houseNumber,postcode,city,lat,lng\nLandstrasse,1,9495,Triesen,47.1,9.52\n');
    let stderr = '';
    const code = await runCli(['import', file, '--country', 'LI', '--json'], { stdout: () => undefined, stderr: (t) => void (stderr += t), env: { DATA_DIR: data } });
    expect(code, stderr).toBe(0);
    expect(mode(data)).toBe(0o700);
    expect(mode(path.dirname(data))).toBe(0o700);
  });

  it('addressd widget-demo (its certificate is the first file it writes)', async () => {
    const data = fresh();
    await demoCertificate(data, 'localhost');
    expect(mode(data)).toBe(0o700);
    expect(mode(path.join(data, 'widget-demo'))).toBe(0o700);
  });

  it('addressd account create (any writing command)', async () => {
    const data = fresh();
    const code = await runCli(['account', 'create', '--json'], { stdout: () => undefined, stderr: () => undefined, env: { DATA_DIR: data } });
    expect(code).toBe(0);
    expect(mode(data)).toBe(0o700);
  });

  it('start, and each store that may open first: the database, the master key, the index, the OSM update state', async () => {
    const opened = [
      async (dir: string) => (await openDatabase({ dataDir: dir })).close(),
      async (dir: string) => void resolveMasterKey(undefined, dir),
      async (dir: string) => openSqliteStore(dir).close(),
      async (dir: string) => openSqliteOsmState(dir).close(),
    ];
    for (const [i, open] of opened.entries()) {
      const data = path.join(tmp(), `store-${i}`, 'data');
      await open(data);
      expect(mode(data), `opener ${i}`).toBe(0o700);
      expect(mode(path.dirname(data)), `opener ${i}`).toBe(0o700);
    }
  });
});
