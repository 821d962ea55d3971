import { execFileSync } from 'node:child_process';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateSchemaTypes, SCHEMA_FILE } from '../clients/typescript/scripts/generate-types.js';
import { buildOpenApiDocument } from './openapi-document.js';

/**
 * `npm run build:client`: regenerates clients/typescript/src/schema.ts from the document the app
 * builds in-process, then compiles the package (ES module + .d.ts) into clients/typescript/dist
 * with the workspace's own TypeScript 5.
 */
const started = performance.now();
const types = await generateSchemaTypes(await buildOpenApiDocument());
const previous = await readFile(SCHEMA_FILE, 'utf8').catch(() => '');
if (types !== previous) await writeFile(SCHEMA_FILE, types);
const packageDir = fileURLToPath(new URL('../clients/typescript/', import.meta.url));
await rm(join(packageDir, 'dist'), { recursive: true, force: true });
execFileSync('npm', ['run', '--silent', 'build'], { cwd: packageDir, stdio: 'inherit' });
console.log(
  `clients/typescript: schema.ts ${types === previous ? 'unchanged' : 'regenerated'}, dist/ built in ${Math.round(performance.now() - started)} ms`,
);
