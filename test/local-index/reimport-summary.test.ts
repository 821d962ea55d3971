import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/program.js';
import { STORAGE_BACKENDS } from '../support/backends.js';
import { fixture, openIndexSandbox, type IndexSandbox } from './support/local-sandbox.js';

/** Issue 28 item 4: a re-import says what the new file no longer holds, and how --replace removes it. */
describe.each(STORAGE_BACKENDS)('re-import summary (%s)', (backend) => {
  let box: IndexSandbox;
  beforeEach(async () => {
    box = await openIndexSandbox(backend);
  });
  afterEach(async () => box.close());

  const cli = async (...argv: string[]) => {
    let stdout = '';
    const code = await runCli(argv, { stdout: (t) => (stdout += t), stderr: () => undefined, env: box.sandbox.env });
    expect(code).toBe(0);
    return stdout;
  };

  it('counts the country addresses the file no longer holds, and --replace removes them', async () => {
    const whole = fixture('amsterdam.oa.csv');
    await cli('import', whole, '--format', 'openaddresses', '--country', 'NL');
    // Next month's file: the last three rows are gone.
    const lines = readFileSync(whole, 'utf8').trimEnd().split('\n');
    const smaller = box.file('amsterdam-next.oa.csv', lines.slice(0, -3).join('\n'));

    const kept = await cli('import', smaller, '--format', 'openaddresses', '--country', 'NL');
    expect(kept).toContain('3 addresses of NL are no longer in this file and stay in the index: import with --replace to remove them');
    expect(JSON.parse(await cli('import', smaller, '--format', 'openaddresses', '--country', 'NL', '--json'))).toMatchObject({ notInFile: 3, removed: 0 });

    const replaced = await cli('import', smaller, '--format', 'openaddresses', '--country', 'NL', '--replace');
    expect(replaced).toContain('removed 3');
    expect(replaced).not.toContain('no longer in this file');
    expect(JSON.parse(await cli('import', smaller, '--format', 'openaddresses', '--country', 'NL', '--json'))).toMatchObject({ notInFile: 0 });
  });
});
