import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, transform } from 'esbuild';
import { ENCODED_SUFFIXES, type EncodedForms, encodeForms } from '../src/http/routes/widget-compressed.js';

/**
 * Bundles src/widget into the files served at /widget/v1/: widget.js (classic script, IIFE),
 * widget.mjs (ES module) and widget.css, each also under a content-hashed name
 * (widget.<hash>.js) that the service may cache as immutable.
 */
const root = fileURLToPath(new URL('..', import.meta.url));
export const WIDGET_OUT_DIR = join(root, 'public', 'widget', 'v1');
const SRC = join(root, 'src', 'widget');
// ES2020 (browsers from 2020 on): optional chaining, ?? and EventTarget subclassing are native.
const TARGET = ['es2020'];

export interface WidgetBuildFile {
  name: string;
  hashedName: string;
  bytes: number;
  gzipBytes: number;
}

const hash8 = (data: Uint8Array) => createHash('sha256').update(data).digest('hex').slice(0, 8);

/** Writes via a temp file + rename, so a server reading the directory never sees half a file. */
async function putFile(dir: string, name: string, data: Uint8Array): Promise<void> {
  const tmp = join(dir, `.${name}.${process.pid}.tmp`);
  await writeFile(tmp, data);
  await rename(tmp, join(dir, name));
}

/** A served file with its compressed forms beside it, which the service reads instead of compressing at its start. */
async function put(dir: string, name: string, data: Uint8Array, forms: EncodedForms = encodeForms(data)): Promise<void> {
  // The forms first: a server that finds the file finds forms that match it, or compresses it itself.
  await putFile(dir, name + ENCODED_SUFFIXES.gzip, forms.gzip);
  await putFile(dir, name + ENCODED_SUFFIXES.br, forms.br);
  await putFile(dir, name, data);
}

async function emit(dir: string, name: string, data: Uint8Array): Promise<WidgetBuildFile> {
  const hashedName = name.replace(/\.(\w+)$/, `.${hash8(data)}.$1`);
  const forms = encodeForms(data);
  await put(dir, name, data, forms);
  await put(dir, hashedName, data, forms);
  return { name, hashedName, bytes: data.byteLength, gzipBytes: forms.gzip.byteLength };
}

async function bundle(entry: string, format: 'iife' | 'esm', cssFile: string): Promise<Uint8Array> {
  const result = await build({
    entryPoints: [join(SRC, entry)],
    bundle: true,
    minify: true,
    format,
    target: TARGET,
    write: false,
    legalComments: 'none',
    define: { __WIDGET_CSS__: JSON.stringify(cssFile) },
    logLevel: 'warning',
  });
  const out = result.outputFiles[0];
  if (!out) throw new Error(`esbuild produced nothing for ${entry}`);
  return out.contents;
}

export async function buildWidget(outDir: string = WIDGET_OUT_DIR): Promise<WidgetBuildFile[]> {
  const dir = resolve(outDir);
  await mkdir(dir, { recursive: true });
  const css = await transform(await readFile(join(SRC, 'widget.css'), 'utf8'), { loader: 'css', minify: true, target: TARGET });
  const cssFile = await emit(dir, 'widget.css', new TextEncoder().encode(css.code));
  const files = [
    cssFile,
    await emit(dir, 'widget.js', await bundle('entry-script.ts', 'iife', cssFile.hashedName)),
    await emit(dir, 'widget.mjs', await bundle('entry-module.ts', 'esm', cssFile.hashedName)),
  ];
  const manifest = Object.fromEntries(files.map((f) => [f.name, f.hashedName]));
  await put(dir, 'manifest.json', new TextEncoder().encode(`${JSON.stringify(manifest, null, 2)}\n`));
  return files;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const files = await buildWidget();
  for (const f of files) console.log(`${f.hashedName.padEnd(24)} ${f.bytes} B minified, ${f.gzipBytes} B gzipped`);
}
