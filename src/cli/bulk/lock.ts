import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { BulkInputError } from './input.js';
import { PRIVATE_FILE_MODE } from './output.js';

/**
 * One run per output file: `OUT.lock` holds the pid of the run writing it. A lock whose process is
 * gone (a crash, a kill) is taken over; a live one refuses, since two runs on one journal could
 * each settle the same rows.
 */
export function lockOutput(outPath: string): () => void {
  const path = `${outPath}.lock`;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(path, String(process.pid), { flag: 'wx', mode: PRIVATE_FILE_MODE });
      return () => rmSync(path, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const pid = Number(readFileSync(path, 'utf8').trim());
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid)) {
        throw new BulkInputError(`${outPath} is being written by another run (pid ${pid})`);
      }
      rmSync(path, { force: true });
    }
  }
  throw new BulkInputError(`could not lock ${outPath}`);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
