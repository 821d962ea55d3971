import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openLocalIndex, type LocalIndex } from '../../../src/local-index/index.js';
import { createSandbox, type Sandbox, type StorageBackend } from '../../support/backends.js';

export function fixture(name: string): string {
  return fileURLToPath(new URL(`../../fixtures/import/${name}`, import.meta.url));
}

export interface IndexSandbox {
  index: LocalIndex;
  sandbox: Sandbox;
  /** Writes a scratch file (generated fixtures: PBF, edited CSV) and returns its path. */
  file(name: string, content: string | Buffer): string;
  close(): Promise<void>;
}

/** A local index on a throw-away DATA_DIR (SQLite) or a fresh PostgreSQL schema. */
export async function openIndexSandbox(backend: StorageBackend): Promise<IndexSandbox> {
  const sandbox = await createSandbox(backend);
  const index = await openLocalIndex({
    dataDir: sandbox.dataDir,
    ...(sandbox.databaseUrl ? { databaseUrl: sandbox.databaseUrl, schema: sandbox.schema } : {}),
  });
  const scratch = mkdtempSync(join(tmpdir(), 'local-index-files-'));
  // `close` closes the index the sandbox holds then (a test may have reopened it).
  const box: IndexSandbox = {
    index,
    sandbox,
    file(name, content) {
      const path = join(scratch, name);
      writeFileSync(path, content);
      return path;
    },
    async close() {
      await box.index.close();
      await sandbox.cleanup();
      rmSync(scratch, { recursive: true, force: true });
    },
  };
  return box;
}
