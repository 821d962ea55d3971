import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach } from 'vitest';

/**
 * A fresh temporary folder per test, under the usual umask (022, which alone gives 0644 files and
 * 0755 folders), removed afterwards: tests of file modes then assert the code's own modes.
 */
export function useModeTestDir(prefix: string): () => string {
  let dir = '';
  let umask = 0;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), prefix));
    umask = process.umask(0o022);
  });
  afterEach(() => {
    process.umask(umask);
    rmSync(dir, { recursive: true, force: true });
  });
  return () => dir;
}
