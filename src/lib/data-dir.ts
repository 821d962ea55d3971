import { mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { ConfigError } from '../config.js';

function codeOf(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error));
}

/** The nearest existing ancestor of `absolute` (itself included), and the levels below it that are missing, top first. */
function existingAncestor(absolute: string): { existing: string; missing: string[] } {
  const missing: string[] = [];
  let current = absolute;
  for (;;) {
    try {
      statSync(current);
      return { existing: current, missing };
    } catch (error) {
      if (codeOf(error) !== 'ENOENT') throw new ConfigError([`DATA_DIR=${absolute} cannot be used: ${current} (${codeOf(error)})`]);
      missing.unshift(current);
      const parent = path.dirname(current);
      if (parent === current) return { existing: current, missing };
      current = parent;
    }
  }
}

/**
 * Makes DATA_DIR exist before anything opens a file in it, one level at a time. Node's recursive
 * mkdirSync never returns for some paths (under /proc it loops at 100 % CPU, so not even SIGTERM
 * is handled); a plain mkdir per level fails at once, and the reason is one line (ConfigError:
 * exit 2 at start, `error:` in the CLI). Each level it makes is 0700; an existing folder is left
 * as the operator made it.
 */
export function ensureDataDir(dir: string): void {
  const absolute = path.resolve(dir);
  const { existing, missing } = existingAncestor(absolute);
  if (!statSync(existing).isDirectory()) throw new ConfigError([`DATA_DIR=${absolute} cannot be used: ${existing} is not a directory`]);
  for (const level of missing) {
    try {
      // Private to the service user: the store, the master key and list outputs live there.
      mkdirSync(level, { mode: 0o700 });
    } catch (error) {
      if (codeOf(error) === 'EEXIST' && statSync(level).isDirectory()) continue;
      throw new ConfigError([`DATA_DIR=${absolute} cannot be created: mkdir ${level} failed (${codeOf(error)})`]);
    }
  }
}
