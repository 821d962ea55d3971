import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { ensureDataDir } from './data-dir.js';
import path from 'node:path';
import { parseMasterKey } from './seal.js';

/**
 * MASTER_KEY from configuration, else `DATA_DIR/master.key`, generated on first start (mode 0600).
 * Several instances sharing PostgreSQL must share one MASTER_KEY.
 */
export function resolveMasterKey(configured: string | undefined, dataDir: string): Buffer {
  if (configured) return parseMasterKey(configured);
  const file = path.join(dataDir, 'master.key');
  try {
    return parseMasterKey(readFileSync(file, 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  ensureDataDir(dataDir);
  const key = randomBytes(32);
  writeFileSync(file, `${key.toString('base64url')}\n`, { mode: 0o600, flag: 'wx' });
  return key;
}
