import { copyFile, mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { buildWidget } from './build-widget.js';

/**
 * `npm run build`: the service as plain JavaScript in dist/ (`node dist/main.js`), so production
 * never runs the TypeScript loader. Each src file becomes one dist file at the same place: dist/
 * sits beside src/ at the same depth, so paths a module finds relative to itself (public/widget,
 * node_modules) still resolve; files that are not TypeScript (CSS, the workers' .mjs entries) are
 * copied, and the worker threads and the CLI load those files. Types are checked by
 * `npm run typecheck` / `npm test`, not here. The widget bundle is built too (public/widget/v1/).
 *
 * dist/main.js itself, the server `npm start` runs, is then written again as ONE bundle (see
 * bundleServer): a restarted instance answers sooner.
 */
const root = fileURLToPath(new URL('..', import.meta.url));
const src = join(root, 'src');

/**
 * Packages left outside the server bundle, loaded from node_modules as before: native code
 * (better-sqlite3, pg's optional pg-native), packages that read their own files or start threads
 * from paths next to themselves (pino's transports, ioredis, osm-pbf-parser, pelias-parser, redoc,
 * esbuild's binary), and data loaded only on demand (the common-password list).
 */
const SERVER_EXTERNAL = [
  'better-sqlite3',
  'pg-native',
  'esbuild',
  'pino',
  'ioredis',
  'osm-pbf-parser',
  'pelias-parser',
  'redoc',
  '@zxcvbn-ts/language-common',
];

async function walk(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(entries.map((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)])));
  return nested.flat();
}

/**
 * Inside the bundle every module's `import.meta.url` would be the bundle's own address; each source
 * file's is replaced with the address its own dist file has, so what a module finds relative to
 * itself (its worker's .mjs file, public/widget, a package through createRequire) is found as in
 * the per-file build.
 */
function ownModuleUrls(): Plugin {
  return {
    name: 'own-module-urls',
    setup(b) {
      b.onLoad({ filter: /\.ts$/ }, async (args) => {
        const text = await readFile(args.path, 'utf8');
        if (!args.path.startsWith(src) || !text.includes('import.meta.url')) return { contents: text, loader: 'ts' };
        const own = relative(src, args.path).replace(/\.ts$/, '.js');
        return { contents: text.replaceAll('import.meta.url', `new URL(${JSON.stringify(`./${own}`)}, import.meta.url).href`), loader: 'ts' };
      });
    },
  };
}

/**
 * The server as one file. Loading it took ~2.5 s of CPU on a busy 2-core machine as ~700 files
 * (our modules and the packages' own: module resolution, a file read and a compile each), which a
 * restarted instance spends before it listens; as one file, ~1.4 s (measured with `npm run
 * bench:start`). CommonJS packages inside an ES module bundle call `require` for Node's own
 * modules: the banner gives them one.
 */
async function bundleServer(outDir: string): Promise<void> {
  await build({
    entryPoints: [join(src, 'main.ts')],
    outfile: join(outDir, 'main.js'),
    bundle: true,
    external: SERVER_EXTERNAL,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: true,
    logLevel: 'warning',
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
    plugins: [ownModuleUrls()],
  });
}

/**
 * Builds the service into `outDir`, which must sit beside src/ (see above); `npm run build` writes
 * dist/ and the widget. A test builds a directory of its own and leaves the widget alone.
 */
export async function buildService(outDir: string = join(root, 'dist'), options: { widget?: boolean } = {}): Promise<{ modules: number; assets: number }> {
  if (resolve(dirname(outDir)) !== resolve(root)) throw new Error(`the build goes beside src/, not to ${outDir}`);
  const files = await walk(src);
  const sources = files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'));
  const assets = files.filter((f) => !f.endsWith('.ts') && !f.endsWith('.md'));
  await rm(outDir, { recursive: true, force: true });
  await build({
    entryPoints: sources,
    outdir: outDir,
    outbase: src,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: true,
    logLevel: 'warning',
  });
  for (const asset of assets) {
    const target = join(outDir, relative(src, asset));
    await mkdir(dirname(target), { recursive: true });
    await copyFile(asset, target);
  }
  await bundleServer(outDir);
  if (options.widget !== false) await buildWidget();
  return { modules: sources.length, assets: assets.length };
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const started = performance.now();
  const { modules, assets } = await buildService();
  console.log(`dist/: ${modules} modules, ${assets} assets, the server bundled, widget, in ${Math.round(performance.now() - started)} ms`);
}
