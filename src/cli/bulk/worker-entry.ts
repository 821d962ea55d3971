import { existsSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { z } from 'zod';

/**
 * The module a lookup thread starts from. In dist/ (`npm run build`) it is the compiled
 * lookup-worker.js. Beside the TypeScript sources (bin/addressd.js runs them through tsx), each
 * thread loading them through tsx costs ~0.5 s of CPU at start (its own loader thread, every
 * module resolved and transformed through it) and runs tsx's output (keepNames: a
 * defineProperty per closure made); so the thread's module graph is compiled once with esbuild,
 * one file per source as `npm run build` does, into `.tmp/lookup-worker/src/` at the project's
 * root (node_modules and the packages' own files resolve from there as from src/, and profiles
 * still name src/ files), and rebuilt when a source of it changed. When that cannot be done (no
 * esbuild, a read-only install) the threads load the sources through tsx as before.
 */
const HERE = dirname(fileURLToPath(import.meta.url));
const SRC = join(HERE, '..', '..');
const CACHE = join(SRC, '..', '.tmp', 'lookup-worker');
const ENTRY = join(HERE, 'lookup-worker.ts');
const CURRENT = join(CACHE, 'current.json');

/** The compiled copy in use: its folder under CACHE and each source's size and mtime it was built from. */
const Current = z.object({ dir: z.string(), inputs: z.record(z.string(), z.tuple([z.number(), z.number()])) });
type Current = z.infer<typeof Current>;

/** Copies older than this that are not the current one are removed (a run still loading one is long done). */
const STALE_MS = 3_600_000;

export async function lookupWorkerEntry(): Promise<URL> {
  if (!existsSync(ENTRY)) return new URL('./lookup-worker.js', import.meta.url);
  try {
    const current = (await fresh()) ?? (await compile());
    return pathToFileURL(join(CACHE, current.dir, 'src', relative(SRC, ENTRY).replace(/\.ts$/, '.js')));
  } catch {
    return new URL('./lookup-worker.mjs', import.meta.url);
  }
}

/** The current copy when every source it was built from is unchanged. */
async function fresh(): Promise<Current | undefined> {
  let current: Current;
  try {
    current = Current.parse(JSON.parse(await readFile(CURRENT, 'utf8')));
  } catch {
    return undefined;
  }
  const files = Object.entries(current.inputs);
  if (files.length === 0 || !existsSync(join(CACHE, current.dir))) return undefined;
  const same = await Promise.all(
    files.map(async ([file, [size, mtime]]) => {
      const now = await stat(join(SRC, file)).catch(() => undefined);
      return now !== undefined && now.size === size && now.mtimeMs === mtime;
    }),
  );
  return same.every(Boolean) ? current : undefined;
}

/**
 * The thread's module graph (esbuild follows its imports once, writing nothing), then each of
 * those sources compiled on its own into a folder named by what it was built from. A folder is
 * never changed once in place (a run started meanwhile may be loading it); `current.json` is
 * replaced whole to point at the new one.
 */
async function compile(): Promise<Current> {
  const { build } = await import('esbuild');
  await mkdir(CACHE, { recursive: true });
  const graph = await build({ entryPoints: [ENTRY], bundle: true, packages: 'external', platform: 'node', format: 'esm', write: false, metafile: true, logLevel: 'silent', absWorkingDir: SRC });
  const sources = Object.keys(graph.metafile.inputs).map((f) => join(SRC, f));
  if (sources.some((f) => !f.endsWith('.ts'))) throw new Error('the lookup thread imports a file that is not TypeScript');
  const inputs: Current['inputs'] = {};
  for (const f of sources) {
    const s = await stat(f);
    inputs[relative(SRC, f)] = [s.size, s.mtimeMs];
  }
  const current: Current = { dir: createHash('sha256').update(JSON.stringify(inputs)).digest('hex').slice(0, 16), inputs };
  const dir = join(CACHE, current.dir);
  if (!existsSync(dir)) {
    const building = `${dir}.${process.pid}.tmp`;
    await build({ entryPoints: sources, outdir: join(building, 'src'), outbase: SRC, format: 'esm', platform: 'node', target: 'node20', logLevel: 'silent' });
    // Another run may have put the same copy in place first: it is as good as this one.
    await rename(building, dir).catch(() => rm(building, { recursive: true, force: true }));
  }
  const pointer = `${CURRENT}.${process.pid}.tmp`;
  await writeFile(pointer, JSON.stringify(current));
  await rename(pointer, CURRENT);
  await removeStale(current.dir);
  return current;
}

async function removeStale(keep: string): Promise<void> {
  const now = Date.now();
  for (const name of await readdir(CACHE)) {
    if (name === keep || name === 'current.json') continue;
    const path = join(CACHE, name);
    const s = await stat(path).catch(() => undefined);
    if (s && now - s.mtimeMs > STALE_MS) await rm(path, { recursive: true, force: true });
  }
}
