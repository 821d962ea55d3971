import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ensureDataDir } from '../../src/lib/data-dir.js';

/** DATA_DIR holds the store, the master key and list outputs: other local users must not list or read it (issue 28 §8). */
describe('ensureDataDir', () => {
  let dir: string;
  let umask: number;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'addressd-datadir-'));
    umask = process.umask(0o022);
  });
  afterEach(() => {
    process.umask(umask);
    rmSync(dir, { recursive: true, force: true });
  });

  it('creates DATA_DIR (and each missing level) 0700 under the usual umask', () => {
    const data = path.join(dir, 'srv', 'data');
    ensureDataDir(data);
    expect(statSync(data).mode & 0o777).toBe(0o700);
    expect(statSync(path.dirname(data)).mode & 0o777).toBe(0o700);
  });
});
