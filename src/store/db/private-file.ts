import { chmodSync, closeSync, existsSync, openSync } from 'node:fs';

/** Owner read and write only, like `master.key`: password hashes, keys' seals and customers' queries live here. */
export const PRIVATE_FILE_MODE = 0o600;

/** The files SQLite keeps beside a database: the WAL, its shared-memory index and a rollback journal. */
const COMPANIONS = ['', '-wal', '-shm', '-journal'];

/**
 * Makes a SQLite database file (and any companion already there) private before it is opened.
 * A new file is created 0600 here, not by SQLite with the umask's 0644; SQLite then gives the
 * WAL, shared-memory and journal files it creates the database file's own mode. Files from an
 * older version, made 0644, are tightened at every open.
 */
export function preparePrivateSqliteFile(file: string): void {
  if (!existsSync(file)) closeSync(openSync(file, 'a', PRIVATE_FILE_MODE));
  for (const suffix of COMPANIONS) {
    const path = `${file}${suffix}`;
    if (existsSync(path)) chmodSync(path, PRIVATE_FILE_MODE);
  }
}
