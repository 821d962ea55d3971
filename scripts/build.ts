import { copyFile, mkdir, readdir, rm } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { buildWidget } from './build-widget.js';

/**
 * `npm run build`: the service as plain JavaScript in dist/ (`node dist/main.js`), so production
 * never runs the TypeScript loader. Each src file becomes one dist file at the same place (no
 * bundle): dist/ sits beside src/ at the same depth, so paths a module finds relative to itself
 * (public/widget, node_modules) still resolve; files that are not TypeScript (CSS, the worker's
 * .mjs entry) are copied. Types are checked by `npm run typecheck` / `npm test`, not here.
 * The widget bundle is built too (public/widget/v1/).
 */
const root = fileURLToPath(new URL('..', import.meta.url));
const src = join(root, 'src');
const out = join(root, 'dist');

async function walk(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(entries.map((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)])));
  return nested.flat();
}

const started = performance.now();
const files = await walk(src);
const sources = files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'));
const assets = files.filter((f) => !f.endsWith('.ts') && !f.endsWith('.md'));
await rm(out, { recursive: true, force: true });
await build({
  entryPoints: sources,
  outdir: out,
  outbase: src,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
});
for (const asset of assets) {
  const target = join(out, relative(src, asset));
  await mkdir(dirname(target), { recursive: true });
  await copyFile(asset, target);
}
await buildWidget();
console.log(`dist/: ${sources.length} modules, ${assets.length} assets, widget, in ${Math.round(performance.now() - started)} ms`);
