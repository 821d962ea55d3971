import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { compiledCopy } from '../../src/cli/compiled-copy.mjs';

const ROOT = resolve('.');
// Under the project's root, as bin/addressd.js keeps it: node_modules resolves from there.
mkdirSync(join(ROOT, '.tmp'), { recursive: true });
const cache = mkdtempSync(join(ROOT, '.tmp', 'compiled-copy-test-'));
afterAll(() => rmSync(cache, { recursive: true, force: true }));

/** `addressd validate` runs from a compiled copy of the program and its lookup threads (bin/addressd.js). */
describe('the compiled copy addressd validate runs from', () => {
  const entries = [join(ROOT, 'src/cli/main.ts'), join(ROOT, 'src/cli/bulk/lookup-worker.ts')];

  it('holds the program and its lookup threads as JavaScript, each file at its place, and is reused while the sources are unchanged', async () => {
    const dir = await compiledCopy({ root: ROOT, entries, cache });
    for (const file of ['src/cli/main.js', 'src/cli/bulk/lookup-worker.js', 'src/engine/postal-lines.js', 'src/cli/compiled-copy.mjs']) {
      expect(existsSync(join(dir, file)), file).toBe(true);
    }
    expect(readFileSync(join(dir, 'src/cli/bulk/lookup-worker.js'), 'utf8')).not.toMatch(/import type /);
    expect(await compiledCopy({ root: ROOT, entries, cache })).toBe(dir);
  });

  it('runs as the sources do, without a TypeScript loader', async () => {
    const dir = await compiledCopy({ root: ROOT, entries, cache });
    const { stdout } = await promisify(execFile)(process.execPath, [join(dir, 'src/cli/main.js'), 'validate', '--help'], { env: { PATH: process.env.PATH ?? '' } });
    expect(stdout).toMatch(/^Usage: addressd validate \[options\] <file>/);
    expect(stdout).toContain('--workers <n>');
  });
});
