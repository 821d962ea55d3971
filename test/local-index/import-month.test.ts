import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/program.js';
import type { IndexStatus } from '../../src/local-index/index.js';
import { STORAGE_BACKENDS } from '../support/backends.js';
import { fixture, openIndexSandbox, type IndexSandbox } from './support/local-sandbox.js';
import { writeChangeFixture, type ChangeFixture } from './support/osm-change-fixture.js';

let dir: string;
let files: ChangeFixture;
let truncated: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'update-chain-'));
  files = writeChangeFixture(dir);
  // A download cut off half way: its header reads, its blocks end early.
  const whole = readFileSync(files.before);
  truncated = join(dir, 'cut.osm.pbf');
  writeFileSync(truncated, whole.subarray(0, Math.floor(whole.length * 0.6)));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ISO_TIME = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/;

/** Issue 28 items 2 and 4: a failed import never costs the update chain; what status and a re-import tell. */
describe.each(STORAGE_BACKENDS)('imports over a month (%s)', (backend) => {
  let box: IndexSandbox;
  beforeEach(async () => {
    box = await openIndexSandbox(backend);
  });
  afterEach(async () => box.close());

  const cli = async (...argv: string[]) => {
    let stdout = '';
    let stderr = '';
    const code = await runCli(argv, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), env: box.sandbox.env });
    return { code, stdout, stderr };
  };
  const status = async () => {
    const out = await cli('index', 'status', '--json');
    expect(out.code).toBe(0);
    return JSON.parse(out.stdout) as IndexStatus;
  };

  it('a typo and a truncated download fail before anything is withdrawn: --update still applies', async () => {
    expect((await cli('import', files.before)).code).toBe(0);
    const typo = await cli('import', join(dir, 'nope.osm.pbf'));
    expect(typo.code).not.toBe(0);
    expect(typo.stderr).toContain('no such file');
    const cut = await cli('import', truncated);
    expect(cut.code).not.toBe(0);
    expect((await status()).countries).toMatchObject([{ country: 'DE', source: files.before, updates: true }]);
    const update = await cli('import', '--update', files.change);
    expect(update.stderr).not.toContain('error');
    expect(update.code).toBe(0);
  });

  it('an import that fails after withdrawing the state says updates are off, and --update names it', async () => {
    expect((await cli('import', files.before)).code).toBe(0);
    // The extract's addresses commit (withdrawing the recorded state); recording it again fails.
    await box.index.importFile(files.before, { format: 'osm' });
    const failure = await box.index.recordOsmState(truncated).then(
      () => undefined,
      (err: unknown) => err as Error,
    );
    expect(failure?.message).toContain('updates are off until a full import of that extract completes');

    const refused = await cli('import', '--update', files.change);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain(`the import of ${truncated} at `);
    expect(refused.stderr).toMatch(ISO_TIME);
    expect(refused.stderr).toContain('withdrew the update state and did not record it again (');
    expect(refused.stderr).toContain(`addressd import ${truncated}`);
    const off = await cli('index', 'status');
    expect(off.stdout).toContain('--update off');
    expect(off.stdout).toContain(`updates are off: the import of ${truncated}`);

    // A full import of the extract turns them back on.
    expect((await cli('import', files.before)).code).toBe(0);
    expect((await cli('import', '--update', files.change)).code).toBe(0);
  });

  it('index status shows per country: addresses, source, imported at, last change file, --update, coverage', async () => {
    expect((await cli('import', files.before)).code).toBe(0);
    expect((await cli('import', '--update', files.change)).code).toBe(0);
    const s = await status();
    expect(s.covered).toEqual(['DE']);
    expect(s.countries).toHaveLength(1);
    const de = s.countries[0]!;
    expect(de).toMatchObject({ country: 'DE', covered: true, source: files.before, updates: true, lastChange: { file: files.change } });
    expect(de.addresses).toBeGreaterThan(0);
    expect(de.importedAt).toMatch(ISO_TIME);
    expect(de.lastChange?.at).toMatch(ISO_TIME);
    const human = await cli('index', 'status');
    expect(human.stdout).toContain(`DE: ${de.addresses} addresses, covered, source ${files.before} imported at ${de.importedAt}`);
    expect(human.stdout).toContain(`last change file ${files.change} at ${de.lastChange!.at}, --update can run`);
  });

  // Issue 28 item 4: a re-import says what the new file no longer holds, and how --replace removes it.
  it('counts the country addresses the file no longer holds, and --replace removes them', async () => {
    const whole = fixture('amsterdam.oa.csv');
    expect((await cli('import', whole, '--format', 'openaddresses', '--country', 'NL')).code).toBe(0);
    // Next month's file: the last three rows are gone.
    const lines = readFileSync(whole, 'utf8').trimEnd().split('\n');
    const smaller = box.file('amsterdam-next.oa.csv', lines.slice(0, -3).join('\n'));

    const kept = (await cli('import', smaller, '--format', 'openaddresses', '--country', 'NL')).stdout;
    expect(kept).toContain('3 addresses of NL are no longer in this file and stay in the index: import with --replace to remove them');
    expect(JSON.parse((await cli('import', smaller, '--format', 'openaddresses', '--country', 'NL', '--json')).stdout)).toMatchObject({ notInFile: 3, removed: 0 });

    const replaced = (await cli('import', smaller, '--format', 'openaddresses', '--country', 'NL', '--replace')).stdout;
    expect(replaced).toContain('removed 3');
    expect(replaced).not.toContain('no longer in this file');
    expect(JSON.parse((await cli('import', smaller, '--format', 'openaddresses', '--country', 'NL', '--json')).stdout)).toMatchObject({ notInFile: 0 });
  });
});
