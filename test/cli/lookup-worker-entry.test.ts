import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { lookupWorkerEntry } from '../../src/cli/bulk/worker-entry.js';

describe('the lookup threads of addressd validate, run from the sources', () => {
  it('start from a compiled JavaScript copy of their modules, built once and reused while the sources are unchanged', async () => {
    const first = await lookupWorkerEntry();
    const path = fileURLToPath(first);
    expect(path).toMatch(/\.tmp\/lookup-worker\/[0-9a-f]{16}\/src\/cli\/bulk\/lookup-worker\.js$/);
    expect(existsSync(path)).toBe(true);
    // Plain JavaScript: no TypeScript loader is needed in the thread.
    expect(readFileSync(path, 'utf8')).not.toMatch(/\bas LookupSetup\b|import type /);
    expect((await lookupWorkerEntry()).href).toBe(first.href);
  });
});
