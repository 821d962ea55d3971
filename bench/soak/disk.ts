import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmdirSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';

/**
 * A small filesystem of the soak's own (tmpfs, we are root) for the SQLite instance's DATA_DIR,
 * filled to the last byte by a filler file and freed again by removing it.
 */
export interface SmallDisk {
  dir: string;
  /** Writes the filler until the filesystem refuses (ENOSPC); resolves with the bytes written. */
  fill(): number;
  free(): void;
  /** Unmounts (lazily, should a process still hold a file) and removes the mount point. */
  destroy(): void;
}

export function mountSmallDisk(sizeMiB: number): SmallDisk {
  const dir = mkdtempSync(path.join(tmpdir(), 'addressd-soak-disk-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeMiB}m,mode=0700`, 'tmpfs', dir]);
  const filler = path.join(dir, 'filler');
  return {
    dir,
    fill() {
      const fd = openSync(filler, 'a');
      const chunk = Buffer.alloc(64 * 1024, 1);
      let written = 0;
      try {
        // Bounded: the filesystem is sizeMiB, so the loop ends with ENOSPC long before this.
        for (let i = 0; i < (sizeMiB * 1024 * 1024) / chunk.length + 16; i++) written += writeSync(fd, chunk);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
      } finally {
        closeSync(fd);
      }
      return written;
    },
    free: () => rmSync(filler, { force: true }),
    destroy() {
      try {
        execFileSync('umount', ['-l', dir]);
        rmdirSync(dir);
      } catch (error) {
        console.error(`soak: could not unmount ${dir}: ${(error as Error).message}`);
      }
    },
  };
}

/** Checkpoints a WAL-mode SQLite file and truncates its WAL to zero bytes (from another connection, as an operator could). */
export function truncateWal(file: string): void {
  const db = new SQLite(file, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    db.close();
  }
}
