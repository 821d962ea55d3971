import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import type { StorageBackend } from '../../support/backends.js';
import { openIndexSandbox, type IndexSandbox } from './local-sandbox.js';
import type { ChangeFixture } from './osm-change-fixture.js';

/** A change fixture's files, written once for the test file into a directory of its own (removed after). */
export function changeFiles(write: (dir: string) => ChangeFixture): { readonly dir: string; readonly files: ChangeFixture } {
  let dir: string | undefined;
  let files: ChangeFixture | undefined;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'osm-change-'));
    files = write(dir);
  });
  afterAll(() => rmSync(dir!, { recursive: true, force: true }));
  return {
    get dir() {
      return dir!;
    },
    get files() {
      return files!;
    },
  };
}

/** Two fresh indexes per test: `box` takes the extract and the update, `fresh` a new import of the next extract to compare with. */
export function updateSandboxes(backend: StorageBackend): { readonly box: IndexSandbox; readonly fresh: IndexSandbox } {
  let box: IndexSandbox | undefined;
  let fresh: IndexSandbox | undefined;
  beforeEach(async () => {
    [box, fresh] = await Promise.all([openIndexSandbox(backend), openIndexSandbox(backend)]);
  });
  afterEach(async () => {
    await Promise.all([box!.close(), fresh!.close()]);
  });
  return {
    get box() {
      return box!;
    },
    get fresh() {
      return fresh!;
    },
  };
}
