// A compiled JavaScript copy of some TypeScript sources' module graph (plain JavaScript, so that
// bin/addressd.js can use it before any TypeScript loader is registered). Loading the sources
// through tsx costs a process ~0.5-1 s of CPU at start (a loader thread of its own, every module
// resolved and transformed through it) and runs tsx's output (keepNames: a defineProperty per
// closure made); the copy is compiled once with esbuild, one file per source as `npm run build`
// does, into a folder under `cache` at the project's root, each file at its place under the root
// (node_modules and the packages' own files resolve from there as from src/, and profiles still
// name src/ files), and rebuilt when a source of it changed. Used by `addressd validate` (bin/addressd.js) and its lookup threads (worker-entry.ts).
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';

/** Copies older than this that are not the current one are removed (a run still loading one is long done). */
const STALE_MS = 3_600_000;

/**
 * The folder of a current compiled copy of `entries` (absolute paths of .ts files under `root`,
 * the project's root) and everything they import, built in `cache` when none is current;
 * `root/src/…/x.ts` is `…/src/…/x.js` in it. Throws when it cannot be built (no esbuild, a
 * read-only install): the caller loads the sources as they are.
 */
export async function compiledCopy({ root, entries, cache }) {
  const current = (await fresh(root, cache)) ?? (await compile(root, entries, cache));
  return join(cache, current.dir);
}

/** `cache/current.json` when every source the copy was built from is unchanged (size and mtime). */
async function fresh(root, cache) {
  let current;
  try {
    current = JSON.parse(await readFile(join(cache, 'current.json'), 'utf8'));
  } catch {
    return undefined;
  }
  if (typeof current?.dir !== 'string' || typeof current.inputs !== 'object' || current.inputs === null) return undefined;
  const files = Object.entries(current.inputs);
  if (files.length === 0 || !existsSync(join(cache, current.dir))) return undefined;
  const same = await Promise.all(
    files.map(async ([file, was]) => {
      const now = await stat(join(root, file)).catch(() => undefined);
      return Array.isArray(was) && now !== undefined && now.size === was[0] && now.mtimeMs === was[1];
    }),
  );
  return same.every(Boolean) ? current : undefined;
}

/**
 * The entries' module graph (esbuild follows their imports once, writing nothing), then each of
 * those sources compiled on its own into a folder named by what it was built from. A folder is
 * never changed once in place (a run started meanwhile may be loading it); `current.json` is
 * replaced whole to point at the new one.
 */
async function compile(root, entries, cache) {
  const { build } = await import('esbuild');
  await mkdir(cache, { recursive: true });
  // Nothing is written (`write: false`); several entries only need an outdir to name their outputs.
  const graph = await build({ entryPoints: entries, bundle: true, packages: 'external', platform: 'node', format: 'esm', write: false, metafile: true, logLevel: 'silent', absWorkingDir: root, outdir: cache });
  const sources = Object.keys(graph.metafile.inputs).map((f) => join(root, f));
  // Plain JavaScript modules (this one) are copied as they are; anything else could not be loaded from the copy.
  const plain = sources.filter((f) => f.endsWith('.mjs'));
  if (sources.some((f) => !f.endsWith('.ts') && !f.endsWith('.mjs'))) throw new Error('the compiled copy imports a file that is neither TypeScript nor an .mjs module');
  const inputs = {};
  for (const f of sources) {
    const s = await stat(f);
    if (relative(root, f).startsWith('..')) throw new Error(`${f} is outside the project`);
    inputs[relative(root, f)] = [s.size, s.mtimeMs];
  }
  const current = { dir: createHash('sha256').update(JSON.stringify(inputs)).digest('hex').slice(0, 16), inputs };
  const dir = join(cache, current.dir);
  if (!existsSync(dir)) {
    const building = `${dir}.${process.pid}.tmp`;
    await build({ entryPoints: sources.filter((f) => f.endsWith('.ts')), outdir: building, outbase: root, format: 'esm', platform: 'node', target: 'node20', logLevel: 'silent' });
    for (const f of plain) await copyFile(f, join(building, relative(root, f)));
    // Another run may have put the same copy in place first: it is as good as this one.
    await rename(building, dir).catch(() => rm(building, { recursive: true, force: true }));
  }
  const pointer = join(cache, `current.json.${process.pid}.tmp`);
  await writeFile(pointer, JSON.stringify(current));
  await rename(pointer, join(cache, 'current.json'));
  await removeStale(cache, current.dir);
  return current;
}

async function removeStale(cache, keep) {
  const now = Date.now();
  for (const name of await readdir(cache)) {
    if (name === keep || name === 'current.json') continue;
    const path = join(cache, name);
    const s = await stat(path).catch(() => undefined);
    if (s && now - s.mtimeMs > STALE_MS) await rm(path, { recursive: true, force: true });
  }
}
