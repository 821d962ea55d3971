import { statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ensureDataDir } from '../../src/lib/data-dir.js';
import { useModeTestDir } from '../support/mode-test-dir.js';

/** DATA_DIR holds the store, the master key and list outputs: other local users must not list or read it (issue 28 §8). */
describe('ensureDataDir', () => {
  const tmp = useModeTestDir('addressd-datadir-');

  it('creates DATA_DIR (and each missing level) 0700 under the usual umask', () => {
    const data = path.join(tmp(), 'srv', 'data');
    ensureDataDir(data);
    expect(statSync(data).mode & 0o777).toBe(0o700);
    expect(statSync(path.dirname(data)).mode & 0o777).toBe(0o700);
  });
});
