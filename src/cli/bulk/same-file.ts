import { statSync } from 'node:fs';
import { BulkInputError } from './input.js';

/** Device and inode after following every link, or undefined when nothing is there yet. */
function identity(path: string): { dev: number; ino: number } | undefined {
  try {
    const s = statSync(path);
    return { dev: s.dev, ino: s.ino };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * Refuses to write any of `targets` (the output, its journal and lock) when it is the input file by
 * identity: a symlink or a hard link to the input has another name but the same device and inode,
 * and opening it for writing would truncate the customer's file before it is read (issue 28 §9).
 * Called before anything is opened for writing.
 */
export function refuseInputAsTarget(input: string, targets: readonly string[]): void {
  const source = identity(input);
  if (!source) return;
  for (const target of targets) {
    const found = identity(target);
    if (found && found.dev === source.dev && found.ino === source.ino) {
      throw new BulkInputError(`${target} is the input file ${input} (the same file under another name, a link): choose another --out; nothing was written`);
    }
  }
}
