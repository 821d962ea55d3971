import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { generateSchemaTypes, SCHEMA_FILE } from '../../clients/typescript/scripts/generate-types.js';
import { buildOpenApiDocument } from '../../scripts/openapi-document.js';

/** Issue 29 item 5: the client's committed types are the service's current contract, never a stale copy. */
describe('@addressd/client generated types', () => {
  it('are what regenerating from the app’s OpenAPI document gives (run `npm run build:client` when this fails)', async () => {
    const committed = await readFile(SCHEMA_FILE, 'utf8');
    const regenerated = await generateSchemaTypes(await buildOpenApiDocument());
    expect(regenerated === committed, 'clients/typescript/src/schema.ts is stale: run `npm run build:client` and commit it').toBe(true);
  });

  it('type "query or components" as two whole objects, and nothing as a union that collapses to `unknown`', async () => {
    const committed = await readFile(SCHEMA_FILE, 'utf8');
    const request = committed.slice(committed.indexOf('ValidateRequest: {'), committed.indexOf('ValidateBatchResponse: {'));
    expect(request).toMatch(/^\s+query: string;$/m);
    expect(request).toMatch(/^\s+components: components\["schemas"\]\["AddressComponents"\];$/m);
    // `X | unknown` is `unknown`, and `X | Record<string, never>` takes `{}`: either would let a misspelled field through.
    expect(committed.split('\n').filter((line) => /\| unknown\b|\bunknown \||Record<string, never> \|/.test(line))).toEqual([]);
  });
});
