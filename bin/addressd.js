#!/usr/bin/env -S node --max-semi-space-size=64
// Installed CLI entry: runs the TypeScript sources through tsx (a runtime dependency).
// A larger young generation (also in the `cli` npm script): an import allocates short-lived
// rows by the million, and V8's default 16 MiB semi-space spends a fifth of it collecting them.
//
// `addressd validate` runs from a compiled JavaScript copy of the sources instead (src/cli/
// compiled-copy.mjs; its lookup threads start from the same copy): loading the program through
// tsx costs ~1 s of a run's start (a list of 40,000 rows takes ~8 s in all), and its output is
// slower. When no copy can be built (no esbuild, a read-only install) it runs as the others do.
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const command = process.argv.slice(2).find((arg) => !arg.startsWith('-'));
const root = fileURLToPath(new URL('..', import.meta.url));
const src = `${root}src/`;
let main;
if (command === 'validate' && existsSync(`${src}cli/main.ts`)) {
  const { compiledCopy } = await import('../src/cli/compiled-copy.mjs');
  const dir = await compiledCopy({
    root,
    entries: [`${src}cli/main.ts`, `${src}cli/bulk/lookup-worker.ts`],
    cache: fileURLToPath(new URL('../.tmp/cli/', import.meta.url)),
  }).catch(() => undefined);
  if (dir) main = pathToFileURL(`${dir}/src/cli/main.js`);
}
if (main) {
  await import(main.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/cli/main.ts');
}
