import { existsSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { compiledCopy } from '../compiled-copy.mjs';

/**
 * The module a lookup thread starts from. In dist/ (`npm run build`) it is the compiled
 * lookup-worker.js, and so it is in a compiled copy the main thread runs from (bin/addressd.js
 * runs `validate` from one, which holds the thread's modules too). Beside the TypeScript sources,
 * the thread's module graph is compiled once (compiled-copy.mjs) into `.tmp/lookup-worker/` at the
 * project's root, and rebuilt when a source of it changed. When that cannot be done (no esbuild, a
 * read-only install) the threads load the sources through tsx as before.
 */
const HERE = dirname(fileURLToPath(import.meta.url));
const SRC = join(HERE, '..', '..');
const ROOT = join(SRC, '..');
const CACHE = join(ROOT, '.tmp', 'lookup-worker');
const ENTRY = join(HERE, 'lookup-worker.ts');

export async function lookupWorkerEntry(): Promise<URL> {
  if (!existsSync(ENTRY)) return new URL('./lookup-worker.js', import.meta.url);
  try {
    const dir = await compiledCopy({ root: ROOT, entries: [ENTRY], cache: CACHE });
    return pathToFileURL(join(dir, relative(ROOT, ENTRY).replace(/\.ts$/, '.js')));
  } catch {
    return new URL('./lookup-worker.mjs', import.meta.url);
  }
}
